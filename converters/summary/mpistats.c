/* MPI jobs: per rank its threads, wall, MPI and OpenMP time; messages per
 * pair of ranks and per communicator; collectives per operation; and the
 * time lost waiting: late sender (a receive or wait that began before its
 * message's send began, charged to the send's call site), late receiver (a
 * blocking send still in its call when the receive was posted) and wait at
 * collectives (a rank in a collective before the rank it needs entered it,
 * charged to its call site). */
#include "mpistats.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ranks that have threads in this archive: one rank's archive (a job
 * written per rank) is reported as a single process. */
static uint32_t ranks_present(const otr_defs *d) {
  uint32_t n = 0;
  bool *seen = otr_xcalloc(d->n_ranks + 1, sizeof *seen);
  for (uint32_t i = 0; i < d->n_locations; i++) {
    uint32_t r = d->location_rank[i];
    if (r < d->n_ranks && !seen[r]) {
      seen[r] = true;
      n++;
    }
  }
  free(seen);
  return n;
}

static void init(sm *s) {
  const otr_defs *d = s->d;
  if (d->n_ranks < 2 || ranks_present(d) < 2)
    return;
  sm_mpi *m = s->mpi = otr_xcalloc(1, sizeof *m);
  m->n = d->n_ranks;
  m->none = d->n_regions;
  m->rank = otr_xcalloc(m->n, sizeof *m->rank);
  for (uint32_t r = 0; r < m->n; r++)
    m->rank[r].first = UINT64_MAX;
  m->comm_msgs = otr_xcalloc(d->n_comms + 1, sizeof *m->comm_msgs);
  m->comm_bytes = otr_xcalloc(d->n_comms + 1, sizeof *m->comm_bytes);
  m->comm_colls = otr_xcalloc(d->n_comms + 1, sizeof *m->comm_colls);
  for (int k = 0; k < SM_NWAITS; k++)
    m->lost[k] = otr_xcalloc(d->n_regions + 1, sizeof *m->lost[k]);
}

static void lose(sm_mpi *m, int kind, uint32_t region, uint64_t ticks) {
  if (!ticks)
    return;
  sm_lost *l = &m->lost[kind][region == OTR_NONE ? m->none : region];
  l->ticks += ticks;
  l->count++;
  m->lost_total[kind] += ticks;
}

static uint64_t min64(uint64_t a, uint64_t b) {
  return a < b ? a : b;
}

static uint32_t pair_hash(uint32_t a, uint32_t b, uint32_t n) {
  uint64_t h = ((uint64_t)a << 32 | b) * 0x9e3779b97f4a7c15ull;
  return (uint32_t)(h >> 32) & (n - 1);
}

static void rehash(sm_mpi *m) {
  free(m->slot);
  m->nslots = m->nslots ? 2 * m->nslots : 64;
  m->slot = otr_xcalloc(m->nslots, sizeof *m->slot);
  for (uint32_t i = 0; i < m->npairs; i++) {
    uint32_t h = pair_hash(m->pairs[i].sender, m->pairs[i].receiver, m->nslots);
    while (m->slot[h])
      h = (h + 1) & (m->nslots - 1);
    m->slot[h] = i + 1;
  }
}

/* The pair's entry, added on first use. */
static sm_pair *pair(sm_mpi *m, uint32_t a, uint32_t b) {
  if (2 * (m->npairs + 1) > m->nslots)
    rehash(m);
  uint32_t h = pair_hash(a, b, m->nslots);
  for (; m->slot[h]; h = (h + 1) & (m->nslots - 1)) {
    sm_pair *p = &m->pairs[m->slot[h] - 1];
    if (p->sender == a && p->receiver == b)
      return p;
  }
  if (m->npairs == m->cappairs) {
    m->cappairs = m->cappairs ? 2 * m->cappairs : 64;
    m->pairs = otr_xrealloc(m->pairs, m->cappairs * sizeof *m->pairs);
  }
  m->slot[h] = ++m->npairs;
  m->pairs[m->npairs - 1] = (sm_pair){a, b, 0, 0};
  return &m->pairs[m->npairs - 1];
}

static void message(sm *s, const otr_msg *g) {
  sm_mpi *m = s->mpi;
  if (!m || g->sender >= m->n || g->receiver >= m->n)
    return;
  m->msgs++;
  m->bytes += g->bytes;
  sm_pair *p = pair(m, g->sender, g->receiver);
  p->msgs++;
  p->bytes += g->bytes;
  m->comm_msgs[g->comm]++;
  m->comm_bytes[g->comm] += g->bytes;
  if (g->recv_begin < g->send_begin) /* the receiver waited for the send to begin */
    lose(m, SM_LATE_SENDER, g->send_region, min64(g->send_begin, g->recv_end) - g->recv_begin);
  if (!g->isend && g->send_begin < g->posted && g->send_end > g->posted)
    lose(m, SM_LATE_RECEIVER, g->send_region, g->posted - g->send_begin);
}

/* Who waits for whom in a collective: in a one-to-all operation the other
 * ranks wait for the root to arrive, in an all-to-one the root waits for the
 * last rank, in the others (barrier, all-to-all) every rank for the last. */
static int direction(OTF2_CollectiveOp op) {
  switch (op) {
  case OTF2_COLLECTIVE_OP_BCAST:
  case OTF2_COLLECTIVE_OP_SCATTER:
  case OTF2_COLLECTIVE_OP_SCATTERV:
    return 1;
  case OTF2_COLLECTIVE_OP_GATHER:
  case OTF2_COLLECTIVE_OP_GATHERV:
  case OTF2_COLLECTIVE_OP_REDUCE:
    return -1;
  default:
    return 0;
  }
}

/* Rank k's wait in the collective c[0..n) (ticks). */
static uint64_t coll_wait(const otr_coll *c, uint32_t n, uint32_t k, uint64_t last) {
  int dir = direction(c[0].op);
  uint32_t root = c[0].root;
  if (dir && root >= n) /* a rooted operation without its root: no one to wait for */
    return 0;
  uint64_t until = dir > 0 ? c[root].begin : last;
  if ((dir > 0 && k == root) || (dir < 0 && k != root) || until <= c[k].begin)
    return 0;
  return min64(until, c[k].end) - c[k].begin;
}

static void collective(sm *s, const otr_coll *c, uint32_t n) {
  sm_mpi *m = s->mpi;
  if (!m || !n)
    return;
  uint64_t last = 0;
  for (uint32_t k = 0; k < n; k++)
    last = c[k].begin > last ? c[k].begin : last;
  sm_ops *o = &(c[0].nbc ? m->nbc_ops : m->ops)[c[0].op < 32 ? c[0].op : 31];
  o->count++;
  m->comm_colls[c[0].comm]++;
  for (uint32_t k = 0; k < n; k++) {
    o->bytes += c[k].sent + c[k].received;
    o->ticks += c[k].end - c[k].begin;
    /* a nonblocking one's wait is in its completing call, MPI time already */
    if (!c[0].nbc)
      lose(m, SM_COLL_WAIT, c[k].region, coll_wait(c, n, k, last));
  }
}

static void finish_ranks(sm *s) {
  sm_mpi *m = s->mpi;
  for (uint32_t i = 0; i < s->d->n_locations; i++) {
    uint32_t r = s->d->location_rank[i];
    const otr_loc *l = otr_location(s->a, i);
    if (r == OTR_NONE || !l->events)
      continue;
    sm_rank *k = &m->rank[r];
    k->threads++;
    k->first = l->first < k->first ? l->first : k->first;
    k->last = l->last > k->last ? l->last : k->last;
    k->work += l->cat_time[OTR_T_WORK];
    k->mpi += l->cat_time[OTR_T_MPI]; /* MPI calls, in parallel regions too */
    for (int c = 0; c < OTR_T_COUNT; c++)
      if (otr_cat_is_wait((otr_cat)c))
        k->wait += l->cat_time[c];
  }
}

/* The call site losing the most time of a kind, into the facts. */
static const char *worst(sm *s, int kind, uint64_t *ns) {
  sm_mpi *m = s->mpi;
  uint32_t best = OTR_NONE;
  for (uint32_t r = 0; r <= s->d->n_regions; r++)
    if (m->lost[kind][r].ticks &&
        (best == OTR_NONE || m->lost[kind][r].ticks > m->lost[kind][best].ticks))
      best = r;
  *ns = best == OTR_NONE ? 0 : sm_ns(s, m->lost[kind][best].ticks);
  if (best == OTR_NONE)
    return NULL;
  sm_mpi_site(s, best == m->none ? OTR_NONE : best, m->worst[kind], sizeof m->worst[kind]);
  return m->worst[kind];
}

static int by_ranks(const void *a, const void *b) {
  const sm_pair *x = a, *y = b;
  if (x->sender != y->sender)
    return x->sender < y->sender ? -1 : 1;
  return x->receiver < y->receiver ? -1 : x->receiver > y->receiver;
}

static void finish(sm *s) {
  sm_mpi *m = s->mpi;
  if (!m)
    return;
  finish_ranks(s);
  if (m->npairs)
    qsort(m->pairs, m->npairs, sizeof *m->pairs, by_ranks);
  m->unmatched = otr_mpi_unmatched(s->a, &m->problem);
  sm_facts *f = &s->facts;
  f->ranks = m->n;
  for (uint32_t r = 0; r < m->n; r++)
    f->rank_threads = m->rank[r].threads > f->rank_threads ? m->rank[r].threads : f->rank_threads;
  double busy_max = 0, busy_sum = 0, mpi_max = 0, mpi_sum = 0;
  for (uint32_t r = 0; r < m->n; r++) {
    double b = (double)m->rank[r].work, c = (double)m->rank[r].mpi;
    busy_max = b > busy_max ? b : busy_max, busy_sum += b;
    mpi_max = c > mpi_max ? c : mpi_max, mpi_sum += c;
  }
  f->busy_imbalance = busy_sum > 0 ? busy_max * m->n / busy_sum : 0;
  f->mpi_imbalance = mpi_sum > 0 ? mpi_max * m->n / mpi_sum : 0;
  f->mpi_ns = sm_ns(s, (uint64_t)mpi_sum);
  for (int k = 0; k < SM_NWAITS; k++) {
    f->mpi_wait_ns[k] = sm_ns(s, m->lost_total[k]);
    f->mpi_site[k] = worst(s, k, &f->mpi_site_ns[k]);
  }
}

static void free_mpi(sm *s) {
  sm_mpi *m = s->mpi;
  if (!m)
    return;
  free(m->rank);
  free(m->pairs), free(m->slot);
  free(m->comm_msgs), free(m->comm_bytes), free(m->comm_colls);
  for (int k = 0; k < SM_NWAITS; k++)
    free(m->lost[k]);
  free(m);
  s->mpi = NULL;
}

const sm_analysis sm_mpi_analysis = {
    .init = init,
    .hooks = {.mpi_message = message, .mpi_collective = collective},
    .finish = finish,
    .report = sm_mpi_report,
    .free = free_mpi};
