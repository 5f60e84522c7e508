/* Receives in posting order: MPI matches a channel's receives in the order
 * they were posted, but an MPI_Irecv completes (and is recorded) whenever
 * its MPI_Wait* runs. A completed receive is held while an MPI_Irecv posted
 * before it on the same location is still open, so a later-posted receive
 * cannot take an earlier one's message; held receives go to the matching
 * in posting order once nothing earlier is open. */
#include "mpi.h"
#include "xalloc.h"

#include <stdlib.h>

void otr_mpi_post(otr_archive *a, uint32_t i, uint64_t req, uint64_t t) {
  otr_mpi *m = otr_mpi_state(a);
  if (m->nreq[i] == m->capreq[i]) {
    m->capreq[i] = m->capreq[i] ? 2 * m->capreq[i] : 8;
    m->req[i] = otr_xrealloc(m->req[i], 2 * m->capreq[i] * sizeof **m->req);
  }
  m->req[i][2 * m->nreq[i]] = req;
  m->req[i][2 * m->nreq[i]++ + 1] = t;
}

uint64_t otr_mpi_posted(otr_archive *a, uint32_t i, uint64_t req) {
  otr_mpi *m = otr_mpi_state(a);
  for (uint32_t k = 0; k < m->nreq[i]; k++)
    if (m->req[i][2 * k] == req) {
      uint64_t t = m->req[i][2 * k + 1];
      m->nreq[i]--;
      m->req[i][2 * k] = m->req[i][2 * m->nreq[i]];
      m->req[i][2 * k + 1] = m->req[i][2 * m->nreq[i] + 1];
      return t;
    }
  return UINT64_MAX;
}

/* Is an MPI_Irecv posted before t still open on location i? */
static bool earlier_open(const otr_mpi *m, uint32_t i, uint64_t t) {
  for (uint32_t k = 0; k < m->nreq[i]; k++)
    if (m->req[i][2 * k + 1] < t)
      return true;
  return false;
}

/* Matches the held receives of location i that nothing earlier blocks,
 * earliest posted first (all of them when force). */
static void release(otr_archive *a, uint32_t i, bool force) {
  otr_mpi *m = a->mpi;
  for (;;) {
    uint32_t best = OTR_NONE;
    for (uint32_t k = 0; k < m->nheld[i]; k++)
      if (best == OTR_NONE || m->held[i][k].posted < m->held[i][best].posted)
        best = k;
    if (best == OTR_NONE || (!force && earlier_open(m, i, m->held[i][best].posted)))
      return;
    otr_msg h = m->held[i][best];
    m->held[i][best] = m->held[i][--m->nheld[i]];
    otr_mpi_match(a, &h, 'r');
  }
}

void otr_mpi_received(otr_archive *a, const otr_msg *h) {
  otr_mpi *m = a->mpi;
  uint32_t i = h->recv_loc;
  if (m->nheld[i] == m->capheld[i]) {
    m->capheld[i] = m->capheld[i] ? 2 * m->capheld[i] : 8;
    m->held[i] = otr_xrealloc(m->held[i], m->capheld[i] * sizeof **m->held);
  }
  m->held[i][m->nheld[i]++] = *h;
  release(a, i, false);
}

void otr_mpi_unpost(otr_archive *a, uint32_t i, uint64_t req) {
  if (otr_mpi_posted(a, i, req) != UINT64_MAX)
    release(a, i, false); /* receives held behind it go on */
}

void otr_mpi_release_all(otr_archive *a) {
  for (uint32_t i = 0; i < a->d.n_locations; i++)
    release(a, i, true); /* an MPI_Irecv never completed (cancelled) blocks no more */
}

void otr_mpi_order_free(otr_archive *a) {
  otr_mpi *m = a->mpi;
  for (uint32_t i = 0; i < a->d.n_locations; i++) {
    free(m->req[i]);
    free(m->held[i]);
  }
  free(m->req), free(m->nreq), free(m->capreq);
  free(m->held), free(m->nheld), free(m->capheld);
}
