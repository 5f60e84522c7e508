/* Causality after clock alignment (docs/mpi.md, "Clocks"): the measured
 * offsets leave errors up to their bounds, so a receive can still come
 * before its send, or a rank leave a collective before another entered it.
 * From the messages (send and receive records paired in the order they
 * were posted per communicator, sender, receiver and tag) and the blocking collectives
 * (the k-th on a communicator is the same call on every member), each
 * rank gets a correction: a receive record or a collective's Leave that
 * is early moves forward to what it waits for (no latency added), and so
 * does everything after it on that rank (its local intervals kept);
 * events since the rank's last send or collective Enter move by a share
 * growing linearly to that jump (backward amortisation, as in Scalasca's
 * controlled logical clock), so no one of them overtakes the next and no
 * send or Enter moves. Repeated until nothing is early: moving a rank
 * can make a later receive of another rank early. The corrections are
 * ClockOffset points added to the rank's measured ones, which OTF2's
 * readers interpolate linearly in the rank's own time: the event files
 * stay unchanged. */
#include "merge/merge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PASSES 10000

/* A rank's measured offsets (the clock points before this step). */
typedef struct measured {
  mg_clock *v;
  size_t n;
  uint64_t error; /* the largest bound applied */
} measured;

typedef struct cpoint {
  uint64_t t;
  int64_t c;
} cpoint;

static void push(mg_clock **v, size_t *n, size_t *cap, mg_clock c) {
  mg_grow((void **)v, cap, *n, sizeof **v);
  (*v)[(*n)++] = c;
}

/* The correction function of the rank's requirements: ramps from the last
 * anchor (or point) before each requirement that raises it. */
static cpoint *corrections(const mg_rank *r, uint64_t first, size_t *np) {
  cpoint *p = NULL;
  size_t n = 0, cap = 0;
  int64_t cur = 0;
  uint64_t anchor = first;
  for (size_t i = 0; i < r->ncev; i++) {
    const mg_cev *e = &r->cev[i];
    if (e->req > cur) {
      uint64_t a = anchor;
      if (n && p[n - 1].t > a)
        a = p[n - 1].t;
      if (a >= e->t)
        a = e->t - 1; /* a jump at e->t: an anchor at the same time moves along */
      if (!n || a > p[n - 1].t) {
        mg_grow((void **)&p, &cap, n, sizeof *p);
        p[n++] = (cpoint){a, cur};
      }
      if (p[n - 1].t == e->t) {
        p[n - 1].c = e->req;
      } else {
        mg_grow((void **)&p, &cap, n, sizeof *p);
        p[n++] = (cpoint){e->t, e->req};
      }
      cur = e->req;
    }
    if (e->anchor)
      anchor = e->t;
  }
  *np = n;
  return p;
}

/* The correction at t (rounded to ns): 0 before the first point, the last
 * value after the last, linear in between. */
static int64_t correction_at(const cpoint *p, size_t n, uint64_t t) {
  if (!n || t <= p[0].t)
    return n ? p[0].c : 0;
  size_t lo = 0, hi = n - 1;
  if (t >= p[hi].t)
    return p[hi].c;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (p[mid].t <= t)
      lo = mid;
    else
      hi = mid;
  }
  double f = (double)(t - p[lo].t) / (double)(p[hi].t - p[lo].t);
  return p[lo].c + (int64_t)rint(f * (double)(p[hi].c - p[lo].c));
}

static int by_t(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The rank's points: its measured ones where it needs no correction, else
 * breakpoints at its first and last event, its measured points and its
 * corrections' points, each with the measured offset plus the correction.
 * Sets every mg_cev's correction and merged time. */
static void build(mg_rank *r, const measured *m) {
  uint64_t first = r->first, last = r->last; /* every cev lies within */
  size_t ncp = 0;
  cpoint *cp = corrections(r, first, &ncp);
  r->corrected = ncp > 0;
  free(r->clock);
  r->clock = NULL, r->nclock = 0;
  size_t cap = 0;
  if (!ncp) {
    for (size_t i = 0; i < m->n; i++)
      push(&r->clock, &r->nclock, &cap, m->v[i]);
  } else {
    size_t nb = 0;
    uint64_t *b = mg_xalloc((2 + m->n + ncp) * sizeof *b);
    b[nb++] = first, b[nb++] = last;
    for (size_t i = 0; i < m->n; i++)
      b[nb++] = m->v[i].time;
    for (size_t i = 0; i < ncp; i++)
      b[nb++] = cp[i].t;
    qsort(b, nb, sizeof *b, by_t);
    for (size_t i = 0; i < nb; i++) {
      if (i && b[i] == b[i - 1])
        continue;
      int64_t s = (int64_t)(mg_clock_apply_pts(m->v, m->n, b[i]) - b[i]);
      push(&r->clock, &r->nclock, &cap,
           (mg_clock){b[i], s + correction_at(cp, ncp, b[i]), m->error});
    }
    free(b);
  }
  for (size_t i = 0; i < r->ncev; i++) {
    mg_cev *e = &r->cev[i];
    e->c = correction_at(cp, ncp, e->t);
    e->at = mg_clock_apply_pts(r->clock, r->nclock, e->t);
  }
  free(cp);
}

static int msg_cmp(const void *a, const void *b) {
  const mg_msg *x = a, *y = b;
  uint64_t kx[6] = {x->comm, x->from, x->to, x->tag, x->posted, x->ev};
  uint64_t ky[6] = {y->comm, y->from, y->to, y->tag, y->posted, y->ev};
  for (int i = 0; i < 6; i++)
    if (kx[i] != ky[i])
      return kx[i] < ky[i] ? -1 : 1;
  return 0;
}

static int same_key(const mg_msg *x, const mg_msg *y) {
  return x->comm == y->comm && x->from == y->from && x->to == y->to && x->tag == y->tag;
}

static int coll_cmp(const void *a, const void *b) {
  const mg_coll *x = a, *y = b;
  if (x->comm != y->comm)
    return x->comm < y->comm ? -1 : 1;
  if (x->seq != y->seq)
    return x->seq < y->seq ? -1 : 1;
  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Which ranks' Enters a collective's Leave waits for, by its operation:
 * 1 all (N-to-N), 2 the root's (1-to-N: on the others), 3 all, on the
 * root only (N-to-1); 0 none (scans, handle operations). */
static int kind(uint32_t op) {
  switch (op) {
  case OTF2_COLLECTIVE_OP_BARRIER:
  case OTF2_COLLECTIVE_OP_ALLGATHER:
  case OTF2_COLLECTIVE_OP_ALLGATHERV:
  case OTF2_COLLECTIVE_OP_ALLTOALL:
  case OTF2_COLLECTIVE_OP_ALLTOALLV:
  case OTF2_COLLECTIVE_OP_ALLTOALLW:
  case OTF2_COLLECTIVE_OP_ALLREDUCE:
  case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
  case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
    return 1;
  case OTF2_COLLECTIVE_OP_BCAST:
  case OTF2_COLLECTIVE_OP_SCATTER:
  case OTF2_COLLECTIVE_OP_SCATTERV:
    return 2;
  case OTF2_COLLECTIVE_OP_REDUCE:
  case OTF2_COLLECTIVE_OP_GATHER:
  case OTF2_COLLECTIVE_OP_GATHERV:
    return 3;
  default:
    return 0;
  }
}

/* World rank -> its mg_rank (every rank that has events in a pair or a
 * collective is one of the job's: its records were read from it). */
static mg_rank **by_world;

static mg_rank *rank_of(mg_job *j, uint32_t world) {
  (void)j;
  return by_world[world];
}

static void index_ranks(mg_job *j) {
  uint32_t n = 0;
  for (size_t i = 0; i < j->nranks; i++)
    n = (uint32_t)j->ranks[i].rank + 1 > n ? (uint32_t)j->ranks[i].rank + 1 : n;
  by_world = mg_xalloc((n ? n : 1) * sizeof *by_world);
  for (size_t i = 0; i < j->nranks; i++)
    by_world[j->ranks[i].rank] = &j->ranks[i];
}

/* Raises e's requirement so that its merged time reaches t; 1 if it did. */
static int need(mg_cev *e, uint64_t t) {
  if (e->at >= t)
    return 0;
  int64_t want = e->c + (int64_t)(t - e->at);
  if (want > e->req)
    e->req = want;
  return 1;
}

/* One collective on every member present: [a, b) of j->colls. */
static size_t collective(mg_job *j, size_t a, size_t b) {
  int k = kind(j->colls[a].op);
  uint64_t last = 0, root_enter = 0;
  int have_root = 0;
  for (size_t i = a; i < b; i++) {
    mg_rank *r = rank_of(j, j->colls[i].rank);
    uint64_t t = r->cev[j->colls[i].enter].at;
    last = t > last ? t : last;
    if (j->colls[i].rank == j->colls[i].root)
      root_enter = t, have_root = 1;
  }
  size_t late = 0;
  for (size_t i = a; i < b; i++) {
    const mg_coll *c = &j->colls[i];
    mg_cev *leave = &rank_of(j, c->rank)->cev[c->leave];
    if (k == 1 || (k == 3 && c->rank == c->root))
      late += (size_t)need(leave, last);
    else if (k == 2 && have_root && c->rank != c->root)
      late += (size_t)need(leave, root_enter);
  }
  return late;
}

/* One pass: every rank's points from its requirements, then every
 * constraint checked; the number of early events. */
static size_t pass(mg_job *j, const measured *m) {
  for (size_t i = 0; i < j->nranks; i++)
    build(&j->ranks[i], &m[i]);
  size_t late = 0;
  for (size_t s = 0, r = 0; s < j->nsends && r < j->nrecvs;) {
    int c = msg_cmp(&j->sends[s], &j->recvs[r]);
    if (!same_key(&j->sends[s], &j->recvs[r])) { /* unmatched: skip the smaller key */
      if (c < 0)
        s++;
      else
        r++;
      continue;
    }
    const mg_msg *x = &j->sends[s++], *y = &j->recvs[r++];
    uint64_t sent = rank_of(j, x->rank)->cev[x->ev].at;
    late += (size_t)need(&rank_of(j, y->rank)->cev[y->ev], sent);
  }
  for (size_t a = 0; a < j->ncolls;) {
    size_t b = a + 1;
    while (b < j->ncolls && j->colls[b].comm == j->colls[a].comm &&
           j->colls[b].seq == j->colls[a].seq)
      b++;
    late += collective(j, a, b);
    a = b;
  }
  return late;
}

/* How many events the corrections moved, and the most: the ranks they
 * moved read again. */
static int moved(mg_job *j, const measured *m) {
  for (size_t i = 0; i < j->nranks; i++)
    if (j->ranks[i].corrected && mg_read_events(j, &j->ranks[i], m[i].v, m[i].n) != 0)
      return -1;
  return 0;
}

int mg_causal(mg_job *j) {
  for (size_t i = 0; i < j->nranks; i++)
    if (mg_read_events(j, &j->ranks[i], NULL, 0) != 0)
      return -1;
  if (j->nsends) /* qsort takes no NULL, even for none */
    qsort(j->sends, j->nsends, sizeof *j->sends, msg_cmp);
  if (j->nrecvs)
    qsort(j->recvs, j->nrecvs, sizeof *j->recvs, msg_cmp);
  if (j->ncolls)
    qsort(j->colls, j->ncolls, sizeof *j->colls, coll_cmp);
  index_ranks(j);
  measured *m = mg_xalloc((j->nranks ? j->nranks : 1) * sizeof *m);
  for (size_t i = 0; i < j->nranks; i++) {
    mg_rank *r = &j->ranks[i];
    m[i].v = mg_xalloc((r->nclock ? r->nclock : 1) * sizeof *m[i].v);
    if (r->nclock)
      memcpy(m[i].v, r->clock, r->nclock * sizeof *m[i].v);
    m[i].n = r->nclock;
    for (size_t k = 0; k < r->nclock; k++)
      if (r->clock[k].offset && r->clock[k].error > m[i].error)
        m[i].error = r->clock[k].error;
  }
  size_t late = 1;
  while (late && j->passes < MAX_PASSES) {
    late = pass(j, m);
    j->passes++;
  }
  if (late)
    mg_error("causality: %zu events still early after %d passes: the messages or "
             "collectives do not pair as recorded",
             late, MAX_PASSES);
  int rc = moved(j, m);
  for (size_t i = 0; i < j->nranks; i++)
    free(m[i].v);
  free(m);
  free(by_world);
  by_world = NULL;
  return rc;
}
