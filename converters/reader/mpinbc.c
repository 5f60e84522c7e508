/* Nonblocking collectives (NonBlockingCollectiveRequest in the initiating
 * call, NonBlockingCollectiveComplete in the call that completed it): MPI
 * has every rank initiate the collectives of a communicator in one order,
 * but a rank may complete them in any. So each rank's parts are held in
 * the order it issued them (request records) and go to the matching (k-th
 * nonblocking collective of each rank on a comm) once every one issued
 * before is complete. Request ids are unique per process, so the queue is
 * per rank: a request may complete on another thread than its issuer. */
#include "mpi.h"
#include "xalloc.h"

#include <stdlib.h>

typedef struct {
  uint64_t req, issued;
  bool done;
  otr_coll c;
} nbc;

struct otr_nbcq {
  nbc *q;
  uint32_t head, n, cap; /* open or held: q[head..n) */
};

static otr_nbcq *queue(otr_archive *a, uint32_t i) {
  otr_mpi *m = otr_mpi_state(a);
  uint32_t r = a->d.location_rank[i];
  if (r == OTR_NONE || r >= a->d.n_ranks)
    return NULL;
  if (!m->nbcq)
    m->nbcq = otr_xcalloc(a->d.n_ranks, sizeof *m->nbcq);
  return &m->nbcq[r];
}

void otr_mpi_nbc_issue(otr_archive *a, uint32_t i, uint64_t req, uint64_t t) {
  otr_nbcq *q = queue(a, i);
  if (!q)
    return;
  if (q->n == q->cap) {
    if (q->head) { /* reuse the delivered front */
      for (uint32_t k = q->head; k < q->n; k++)
        q->q[k - q->head] = q->q[k];
      q->n -= q->head, q->head = 0;
    } else {
      q->cap = q->cap ? 2 * q->cap : 8;
      q->q = otr_xrealloc(q->q, q->cap * sizeof *q->q);
    }
  }
  q->q[q->n++] = (nbc){.req = req, .issued = t};
}

/* Delivers the front's completed parts, up to the first still open (past
 * it when force: it never completed). */
static void deliver(otr_archive *a, otr_nbcq *q, bool force) {
  while (q->head < q->n && (q->q[q->head].done || force)) {
    if (q->q[q->head].done)
      otr_mpi_collective(a, &q->q[q->head].c);
    q->head++;
  }
}

void otr_mpi_nbc_done(otr_archive *a, uint32_t i, uint64_t req, const otr_coll *p) {
  otr_nbcq *q = queue(a, i);
  uint32_t k = q ? q->head : 0;
  while (q && k < q->n && (q->q[k].done || q->q[k].req != req))
    k++;
  if (!q || k == q->n) {
    a->mpi->unmatched++;
    otr_mpi_note(a, "%s completes nonblocking collective request %llu, never issued",
                 a->d.location_names[i], (unsigned long long)req);
    return;
  }
  q->q[k].done = true;
  q->q[k].c = *p;
  q->q[k].c.begin = q->q[k].issued;
  deliver(a, q, false);
}

void otr_mpi_nbc_finish(otr_archive *a) {
  otr_mpi *m = a->mpi;
  for (uint32_t r = 0; m->nbcq && r < a->d.n_ranks; r++)
    deliver(a, &m->nbcq[r], true);
}

void otr_mpi_nbc_free(otr_archive *a) {
  otr_mpi *m = a->mpi;
  for (uint32_t r = 0; m->nbcq && r < a->d.n_ranks; r++)
    free(m->nbcq[r].q);
  free(m->nbcq);
  m->nbcq = NULL;
}
