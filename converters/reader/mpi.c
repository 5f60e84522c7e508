/* MPI event records: each point-to-point record and collective part waits
 * on its location until the MPI call around it leaves (so both its call's
 * times are known), then goes to the matching: a send to its channel's
 * queue (comm, sender, receiver, tag), where it meets the receive in FIFO
 * order as MPI matches them; a collective part to the k-th instance of its
 * comm, delivered once every rank of the comm has taken part (the k-th
 * nonblocking one apart, in the order the rank issued them: mpinbc.c). */
#include "mpi.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* One queue of unmatched halves: either sends or receives wait in it. */
struct otr_chan {
  uint32_t comm, tag, sender, receiver;
  otr_msg *q;
  uint32_t head, n, cap;
  char kind; /* of the waiting halves */
  otr_chan *next;
};

struct otr_inst {
  uint32_t comm, seen;
  bool nbc;
  uint64_t seq;
  otr_coll *m;
  otr_inst *next;
};

#define NCHANS 1024u

otr_mpi *otr_mpi_state(otr_archive *a) {
  otr_mpi *m = a->mpi;
  if (!m->pend) {
    uint32_t n = a->d.n_locations + 1;
    m->pend = otr_xcalloc(n, sizeof *m->pend);
    m->npend = otr_xcalloc(n, sizeof *m->npend);
    m->cappend = otr_xcalloc(n, sizeof *m->cappend);
    m->req = otr_xcalloc(n, sizeof *m->req);
    m->nreq = otr_xcalloc(n, sizeof *m->nreq);
    m->capreq = otr_xcalloc(n, sizeof *m->capreq);
    m->held = otr_xcalloc(n, sizeof *m->held);
    m->nheld = otr_xcalloc(n, sizeof *m->nheld);
    m->capheld = otr_xcalloc(n, sizeof *m->capheld);
    m->chans = otr_xcalloc(NCHANS, sizeof *m->chans);
    m->coll_seq = otr_xcalloc(a->d.n_comms + 1, sizeof *m->coll_seq);
    m->nbc_seq = otr_xcalloc(a->d.n_comms + 1, sizeof *m->nbc_seq);
    m->coll_begin = otr_xcalloc(n, sizeof *m->coll_begin);
  }
  return m;
}

static otr_chan *chan(otr_mpi *m, const otr_msg *k) {
  uint64_t h = ((uint64_t)k->comm * 0x9e3779b1u) ^ ((uint64_t)k->sender * 0x85ebca6bu) ^
               ((uint64_t)k->receiver * 0xc2b2ae35u) ^ ((uint64_t)k->tag * 0x27d4eb2fu);
  otr_chan **p = &m->chans[(h ^ h >> 17) % NCHANS];
  for (otr_chan *c = *p; c; c = c->next)
    if (c->comm == k->comm && c->tag == k->tag && c->sender == k->sender &&
        c->receiver == k->receiver)
      return c;
  otr_chan *c = otr_xcalloc(1, sizeof *c);
  c->comm = k->comm, c->tag = k->tag, c->sender = k->sender, c->receiver = k->receiver;
  c->next = *p;
  *p = c;
  m->nchans++;
  return c;
}

void otr_mpi_match(otr_archive *a, const otr_msg *h, char kind) {
  otr_chan *c = chan(a->mpi, h);
  if (c->n && c->kind != kind) {
    otr_msg q = c->q[c->head];
    c->head++, c->n--;
    const otr_msg *s = kind == 's' ? h : &q;
    otr_msg m = kind == 's' ? q : *h; /* the receive side, with the send side copied in */
    m.send_loc = s->send_loc, m.send_t = s->send_t, m.send_begin = s->send_begin;
    m.send_end = s->send_end, m.send_region = s->send_region, m.isend = s->isend;
    if (a->v->mpi_message)
      a->v->mpi_message(a->v->user, &m);
    return;
  }
  if (c->head + c->n == c->cap) {
    if (c->head) { /* reuse the consumed front */
      memmove(c->q, c->q + c->head, c->n * sizeof *c->q);
      c->head = 0;
    } else {
      c->cap = c->cap ? 2 * c->cap : 8;
      c->q = otr_xrealloc(c->q, c->cap * sizeof *c->q);
    }
  }
  c->kind = kind;
  c->q[c->head + c->n++] = *h;
}

void otr_mpi_collective(otr_archive *a, const otr_coll *p) {
  otr_mpi *m = a->mpi;
  const otr_comm *k = &a->d.comms[p->comm];
  uint32_t r = otr_mpi_local(a, p->comm, p->rank);
  if (r == OTR_NONE) {
    m->unmatched++;
    otr_mpi_note(a, "rank %u takes part in a collective on %s without being a member", p->rank,
                 k->name);
    return;
  }
  uint32_t **seqs = p->nbc ? m->nbc_seq : m->coll_seq;
  if (!seqs[p->comm])
    seqs[p->comm] = otr_xcalloc(k->size, sizeof **seqs);
  uint64_t seq = seqs[p->comm][r]++;
  otr_inst **q = &m->insts;
  while (*q && !((*q)->comm == p->comm && (*q)->seq == seq && (*q)->nbc == p->nbc))
    q = &(*q)->next;
  otr_inst *in = *q;
  if (!in) {
    in = *q = otr_xcalloc(1, sizeof *in);
    in->comm = p->comm, in->seq = seq, in->nbc = p->nbc;
    in->m = otr_xcalloc(k->size, sizeof *in->m);
  }
  in->m[r] = *p;
  if (++in->seen < k->size)
    return;
  if (a->v->mpi_collective)
    a->v->mpi_collective(a->v->user, in->m, k->size);
  *q = in->next;
  free(in->m);
  free(in);
}

static void complete(otr_archive *a, otr_pend *p, uint64_t end) {
  if (p->kind == 's') {
    p->m.send_end = end;
    otr_mpi_match(a, &p->m, 's');
  } else if (p->kind == 'r') {
    p->m.recv_end = end;
    otr_mpi_received(a, &p->m);
  } else {
    otr_mpi_collective(a, &p->c);
  }
}

otr_pend *otr_mpi_pend(otr_archive *a, otr_locstate *ls, char kind, uint64_t *begin,
                       uint32_t *region) {
  otr_mpi *m = otr_mpi_state(a);
  uint32_t i = ls->pub.index, k = ls->depth;
  while (k-- > 0)
    if (a->d.regions[ls->stack[k].region].paradigm == OTF2_PARADIGM_MPI)
      break;
  if (m->npend[i] == m->cappend[i]) {
    m->cappend[i] = m->cappend[i] ? 2 * m->cappend[i] : 8;
    m->pend[i] = otr_xrealloc(m->pend[i], m->cappend[i] * sizeof **m->pend);
  }
  otr_pend *p = &m->pend[i][m->npend[i]++];
  memset(p, 0, sizeof *p);
  p->kind = kind;
  p->depth = k == UINT32_MAX ? OTR_NONE : k;
  *begin = k == UINT32_MAX ? now(ls) : ls->stack[k].enter;
  *region = k == UINT32_MAX ? OTR_NONE : ls->stack[k].region;
  return p;
}

void otr_mpi_settle(otr_archive *a, otr_locstate *ls) {
  otr_mpi *m = a->mpi;
  uint32_t i = ls->pub.index;
  if (m->npend[i] && m->pend[i][m->npend[i] - 1].depth == OTR_NONE) {
    otr_pend p = m->pend[i][--m->npend[i]];
    complete(a, &p, now(ls));
  }
}

void otr_mpi_leave(otr_archive *a, otr_locstate *ls, uint32_t region) {
  otr_mpi *m = a->mpi;
  uint32_t i = ls->pub.index, k = ls->depth;
  if (!m || !m->pend || !m->npend[i] || a->d.regions[region].paradigm != OTF2_PARADIGM_MPI)
    return;
  while (k-- > 0 && ls->stack[k].region != region)
    ;
  if (k == UINT32_MAX)
    return;
  uint32_t keep = 0, n = m->npend[i];
  otr_pend *done = otr_xmalloc(n * sizeof *done);
  uint32_t ndone = 0;
  for (uint32_t j = 0; j < n; j++) {
    if (m->pend[i][j].depth >= k)
      done[ndone++] = m->pend[i][j];
    else
      m->pend[i][keep++] = m->pend[i][j];
  }
  m->npend[i] = keep;
  for (uint32_t j = 0; j < ndone; j++)
    complete(a, &done[j], now(ls));
  free(done);
}

/* Which world ranks have threads in the archive: one rank's own archive
 * (or a job missing a rank) holds only half of its messages. */
static bool *ranks_present(const otr_archive *a) {
  bool *in = otr_xcalloc(a->d.n_ranks + 1, sizeof *in);
  for (uint32_t i = 0; i < a->d.n_locations; i++)
    if (a->d.location_rank[i] < a->d.n_ranks)
      in[a->d.location_rank[i]] = true;
  return in;
}

static bool comm_present(const otr_archive *a, const bool *in, uint32_t comm) {
  const otr_comm *c = &a->d.comms[comm];
  for (uint32_t r = 0; c->world && r < c->size; r++)
    if (c->world[r] >= a->d.n_ranks || !in[c->world[r]])
      return false;
  return true;
}

/* What never met its other half: a receive without its send, a send never
 * received, a collective some rank of its comm never entered. Halves whose
 * other side is on a rank the archive does not hold are not counted. */
void otr_mpi_finish(otr_archive *a) {
  otr_mpi *m = a->mpi;
  if (!m || !m->pend)
    return;
  bool *in = ranks_present(a);
  for (uint32_t i = 0; i < a->d.n_locations; i++) {
    otr_locstate *ls = &a->ls[i];
    for (uint32_t j = 0; j < m->npend[i]; j++)
      complete(a, &m->pend[i][j], now(ls));
    m->npend[i] = 0;
  }
  otr_mpi_release_all(a);
  otr_mpi_nbc_finish(a);
  for (uint32_t h = 0; h < NCHANS; h++)
    for (otr_chan *c = m->chans[h]; c; c = c->next) {
      if (!c->n || c->sender >= a->d.n_ranks || c->receiver >= a->d.n_ranks || !in[c->sender] ||
          !in[c->receiver])
        continue;
      m->unmatched += c->n;
      otr_mpi_note(a, "%u %s from rank %u to rank %u (tag %u on %s) %s", c->n,
                   c->kind == 'r' ? "receive(s)" : "send(s)", c->sender, c->receiver, c->tag,
                   a->d.comms[c->comm].name,
                   c->kind == 'r' ? "have no matching send" : "were never received");
    }
  for (otr_inst *it = m->insts; it; it = it->next) {
    if (!comm_present(a, in, it->comm))
      continue;
    m->unmatched++;
    otr_mpi_note(a, "a %scollective on %s was entered by %u of its %u ranks",
                 it->nbc ? "nonblocking " : "", a->d.comms[it->comm].name, it->seen,
                 a->d.comms[it->comm].size);
  }
  free(in);
}

void otr_mpi_events_free(otr_archive *a) {
  otr_mpi *m = a->mpi;
  if (!m || !m->pend)
    return;
  for (uint32_t i = 0; i < a->d.n_locations; i++)
    free(m->pend[i]);
  free(m->pend), free(m->npend), free(m->cappend);
  otr_mpi_order_free(a);
  for (uint32_t h = 0; h < NCHANS; h++)
    for (otr_chan *c = m->chans[h], *n; c; c = n) {
      n = c->next;
      free(c->q);
      free(c);
    }
  free(m->chans);
  for (otr_inst *in = m->insts, *n; in; in = n) {
    n = in->next;
    free(in->m);
    free(in);
  }
  for (uint32_t c = 0; c < a->d.n_comms; c++)
    free(m->coll_seq[c]), free(m->nbc_seq[c]);
  free(m->coll_seq), free(m->nbc_seq);
  otr_mpi_nbc_free(a);
  free(m->coll_begin);
  m->pend = NULL;
  m->insts = NULL;
}

uint64_t otr_mpi_unmatched(const otr_archive *a, const char **problem) {
  *problem = a->mpi && a->mpi->problem[0] ? a->mpi->problem : NULL;
  return a->mpi ? a->mpi->unmatched : 0;
}

static const char *const op_names[] = {"barrier",
                                       "bcast",
                                       "gather",
                                       "gatherv",
                                       "scatter",
                                       "scatterv",
                                       "allgather",
                                       "allgatherv",
                                       "alltoall",
                                       "alltoallv",
                                       "alltoallw",
                                       "allreduce",
                                       "reduce",
                                       "reduce_scatter",
                                       "scan",
                                       "exscan",
                                       "reduce_scatter_block"};

const char *otr_coll_op_name(OTF2_CollectiveOp op) {
  return op < sizeof op_names / sizeof *op_names ? op_names[op] : "other";
}
