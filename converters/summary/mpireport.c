/* MPI jobs: the report's "mpi" section (docs/summary.md, "MPI jobs"): per
 * rank, imbalance across ranks, messages, the busiest pairs of ranks,
 * communicators, collectives per operation and the time lost waiting per
 * call site. Left out for a single process. */
#include "mpistats.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sm_mpi_site(const sm *s, uint32_t region, char *buf, size_t n) {
  if (region >= s->d->n_regions) {
    snprintf(buf, n, "(no MPI call)");
    return;
  }
  const otr_region *g = &s->d->regions[region];
  const char *base = strrchr(g->file, '/');
  base = base ? base + 1 : g->file;
  if (*base && g->line)
    snprintf(buf, n, "%s @ %s:%u", g->construct, base, g->line);
  else
    snprintf(buf, n, "%s", g->construct);
}

static void ranks(sm *s, report *r) {
  const sm_mpi *m = s->mpi;
  rtable *t = rt_new(r, "mpi", "ranks", "Time per rank", false);
  rt_col(t, "rank", "Rank", RV_INT);
  rt_col(t, "node", "Node", RV_STR);
  rt_col(t, "threads", "Threads", RV_INT);
  rt_col(t, "wall_ns", "Wall", RV_NS);
  rt_col(t, "mpi_ns", "MPI", RV_NS);
  rt_col(t, "work_ns", "OMP Work", RV_NS);
  rt_col(t, "wait_ns", "OMP Wait", RV_NS);
  for (uint32_t k = 0; k < m->n; k++) {
    const sm_rank *x = &m->rank[k];
    rt_row(t);
    rt_int(t, k);
    rt_str(t, s->d->rank_node[k]);
    rt_int(t, x->threads);
    rt_ns(t, x->threads ? sm_ns(s, x->last - x->first) : 0);
    rt_ns(t, sm_ns(s, x->mpi));
    rt_ns(t, sm_ns(s, x->work));
    rt_ns(t, sm_ns(s, x->wait));
  }
}

static void imbalance(sm *s, report *r) {
  const sm_mpi *m = s->mpi;
  uint32_t n = m->n ? m->n : 1; /* at least 2: the section needs ranks */
  uint64_t bmax = 0, bsum = 0, cmax = 0, csum = 0;
  for (uint32_t k = 0; k < m->n; k++) {
    uint64_t b = sm_ns(s, m->rank[k].work), c = sm_ns(s, m->rank[k].mpi);
    bmax = b > bmax ? b : bmax, bsum += b;
    cmax = c > cmax ? c : cmax, csum += c;
  }
  rtable *t = rt_new(r, "mpi", "imbalance", "Imbalance across ranks", true);
  rt_col(t, "ranks", "Ranks", RV_INT);
  rt_col(t, "busy_max_ns", "OMP Work, max", RV_NS);
  rt_col(t, "busy_mean_ns", "OMP Work, mean", RV_NS);
  rt_col(t, "busy_imbalance", "OMP Work, max/mean", RV_REAL);
  rt_col(t, "mpi_max_ns", "MPI, max", RV_NS);
  rt_col(t, "mpi_mean_ns", "MPI, mean", RV_NS);
  rt_col(t, "mpi_imbalance", "MPI, max/mean", RV_REAL);
  rt_row(t);
  rt_int(t, m->n);
  rt_ns(t, bmax);
  rt_ns(t, bsum / n);
  rt_real(t, s->facts.busy_imbalance);
  rt_ns(t, cmax);
  rt_ns(t, csum / n);
  rt_real(t, s->facts.mpi_imbalance);
}

static void messages(sm *s, report *r) {
  const sm_mpi *m = s->mpi;
  rtable *t = rt_new(r, "mpi", "messages", "Messages", true);
  rt_col(t, "messages", "Messages", RV_INT);
  rt_col(t, "bytes", "Bytes", RV_INT);
  rt_col(t, "late_sender_ns", "Late sender", RV_NS);
  rt_col(t, "late_receiver_ns", "Late receiver", RV_NS);
  rt_col(t, "collective_wait_ns", "Wait at collectives", RV_NS);
  rt_col(t, "unmatched", "Unmatched records", RV_INT);
  rt_row(t);
  rt_int(t, (int64_t)m->msgs);
  rt_int(t, (int64_t)m->bytes);
  rt_ns(t, sm_ns(s, m->lost_total[SM_LATE_SENDER]));
  rt_ns(t, sm_ns(s, m->lost_total[SM_LATE_RECEIVER]));
  rt_ns(t, sm_ns(s, m->lost_total[SM_COLL_WAIT]));
  rt_int(t, (int64_t)m->unmatched);
  if (m->problem)
    rt_note(t, "%s", m->problem);
}

static int by_bytes(const void *a, const void *b) {
  const sm_pair *x = *(const sm_pair *const *)a, *y = *(const sm_pair *const *)b;
  if (x->bytes != y->bytes)
    return x->bytes < y->bytes ? 1 : -1;
  return x < y ? -1 : x > y; /* then in rank order */
}

static void pair_row(rtable *t, const sm_pair *p) {
  rt_row(t);
  rt_int(t, p->sender);
  rt_int(t, p->receiver);
  rt_int(t, (int64_t)p->msgs);
  rt_int(t, (int64_t)p->bytes);
}

static rtable *pair_table(report *r, const char *id, const char *title) {
  rtable *t = rt_new(r, "mpi", id, title, false);
  rt_col(t, "sender", "Sender", RV_INT);
  rt_col(t, "receiver", "Receiver", RV_INT);
  rt_col(t, "messages", "Messages", RV_INT);
  rt_col(t, "bytes", "Bytes", RV_INT);
  return t;
}

static void pairs(sm *s, report *r) {
  const sm_mpi *m = s->mpi;
  const sm_pair **v = otr_xcalloc(m->npairs + 1, sizeof *v);
  for (uint32_t i = 0; i < m->npairs; i++)
    v[i] = &m->pairs[i];
  qsort(v, m->npairs, sizeof *v, by_bytes);
  rtable *t = pair_table(r, "pairs", "Messages per pair of ranks");
  uint32_t shown = sm_limit(s, m->npairs);
  for (uint32_t i = 0; i < shown; i++)
    pair_row(t, v[i]);
  if (shown < m->npairs)
    rt_note(t, "%u more not shown; --top 0 shows all", m->npairs - shown);
  free(v);
}

/* Every pair that exchanged messages, in rank order (--threads, HTML). */
static void matrix(sm *s, report *r) {
  const sm_mpi *m = s->mpi;
  rtable *t = pair_table(r, "matrix", "Messages between all ranks");
  for (uint32_t i = 0; i < m->npairs; i++)
    pair_row(t, &m->pairs[i]);
}

static void comms(sm *s, report *r) {
  const sm_mpi *m = s->mpi;
  rtable *t = rt_new(r, "mpi", "comms", "Communicators", false);
  rt_col(t, "comm", "Communicator", RV_STR);
  rt_col(t, "size", "Ranks", RV_INT);
  rt_col(t, "messages", "Messages", RV_INT);
  rt_col(t, "bytes", "Bytes", RV_INT);
  rt_col(t, "collectives", "Collectives", RV_INT);
  for (uint32_t c = 0; c < s->d->n_comms; c++) {
    rt_row(t);
    rt_str(t, s->d->comms[c].name);
    rt_int(t, s->d->comms[c].size);
    rt_int(t, (int64_t)m->comm_msgs[c]);
    rt_int(t, (int64_t)m->comm_bytes[c]);
    rt_int(t, (int64_t)m->comm_colls[c]);
  }
}

static void collectives(sm *s, report *r) {
  const sm_mpi *m = s->mpi;
  rtable *t = rt_new(r, "mpi", "collectives", "Collective operations", false);
  rt_col(t, "operation", "Operation", RV_STR);
  rt_col(t, "count", "Count", RV_INT);
  rt_col(t, "bytes", "Bytes", RV_INT);
  rt_col(t, "time_ns", "Time", RV_NS);
  /* blocking operations, then nonblocking ones ("iallreduce") */
  for (uint32_t o = 0; o < 64; o++) {
    const sm_ops *op = o < 32 ? &m->ops[o] : &m->nbc_ops[o - 32];
    if (!op->count)
      continue;
    char name[40];
    snprintf(name, sizeof name, "%s%s", o < 32 ? "" : "i",
             otr_coll_op_name((OTF2_CollectiveOp)(o % 32)));
    rt_row(t);
    rt_str(t, name);
    rt_int(t, (int64_t)op->count);
    rt_int(t, (int64_t)op->bytes);
    rt_ns(t, sm_ns(s, op->ticks));
  }
}

typedef struct {
  int kind;
  uint32_t region;
  uint64_t ticks, count;
} wrow;

static int by_ticks(const void *a, const void *b) {
  const wrow *x = a, *y = b;
  if (x->ticks != y->ticks)
    return x->ticks < y->ticks ? 1 : -1;
  return x->kind != y->kind ? x->kind - y->kind : (x->region < y->region ? -1 : 1);
}

static void waits(sm *s, report *r) {
  static const char *const kinds[SM_NWAITS] = {"late_sender", "late_receiver", "collective_wait"};
  const sm_mpi *m = s->mpi;
  wrow *w = otr_xcalloc(SM_NWAITS * ((size_t)m->none + 1), sizeof *w);
  uint32_t n = 0;
  for (int k = 0; k < SM_NWAITS; k++)
    for (uint32_t g = 0; g <= m->none; g++)
      if (m->lost[k][g].ticks)
        w[n++] = (wrow){k, g, m->lost[k][g].ticks, m->lost[k][g].count};
  qsort(w, n, sizeof *w, by_ticks);
  rtable *t = rt_new(r, "mpi", "waits", "Time lost waiting, per MPI call site", false);
  rt_col(t, "kind", "Kind", RV_STR);
  rt_col(t, "site", "Call site", RV_STR);
  rt_col(t, "time_ns", "Time", RV_NS);
  rt_col(t, "count", "Count", RV_INT);
  uint32_t shown = sm_limit(s, n);
  for (uint32_t i = 0; i < shown; i++) {
    char site[160];
    sm_mpi_site(s, w[i].region == m->none ? OTR_NONE : w[i].region, site, sizeof site);
    rt_row(t);
    rt_str(t, kinds[w[i].kind]);
    rt_str(t, site);
    rt_ns(t, sm_ns(s, w[i].ticks));
    rt_int(t, (int64_t)w[i].count);
  }
  if (shown < n)
    rt_note(t, "%u more not shown; --top 0 shows all", n - shown);
  free(w);
}

void sm_mpi_report(sm *s, report *r) {
  if (!s->mpi)
    return;
  ranks(s, r);
  imbalance(s, r);
  messages(s, r);
  pairs(s, r);
  if (s->o.threads)
    matrix(s, r);
  comms(s, r);
  collectives(s, r);
  waits(s, r);
}
