/* MPI jobs (more than one rank): the state shared by the collection
 * (mpistats.c) and the report tables (mpireport.c). */
#ifndef OMPTRACE_SUMMARY_MPISTATS_H
#define OMPTRACE_SUMMARY_MPISTATS_H

#include "summary.h"

typedef struct {
  uint32_t threads;
  uint64_t first, last;     /* ticks; first UINT64_MAX until seen */
  uint64_t mpi, work, wait; /* ticks */
} sm_rank;

/* Time lost at one MPI call site (region), per kind of wait. */
enum { SM_LATE_SENDER, SM_LATE_RECEIVER, SM_COLL_WAIT, SM_NWAITS };

typedef struct {
  uint64_t ticks, count;
} sm_lost;

typedef struct {
  uint64_t count, bytes, ticks;
} sm_ops;

/* Messages from one rank to another; only pairs that exchanged any. */
typedef struct {
  uint32_t sender, receiver;
  uint64_t msgs, bytes;
} sm_pair;

struct sm_mpi {
  uint32_t n;    /* ranks */
  uint32_t none; /* index of lost[kind][] for records outside any MPI call */
  sm_rank *rank;
  sm_pair *pairs; /* in rank order after finish */
  uint32_t npairs, cappairs;
  uint32_t *slot, nslots; /* hash of pairs: index + 1, 0 empty */
  uint64_t msgs, bytes;
  uint64_t *comm_msgs, *comm_bytes, *comm_colls; /* per comm */
  sm_ops ops[32];                                /* per OTF2_CollectiveOp */
  sm_ops nbc_ops[32];                            /* nonblocking, per op */
  sm_lost *lost[SM_NWAITS];                      /* per region */
  uint64_t lost_total[SM_NWAITS];
  uint64_t unmatched;
  const char *problem;
  char worst[SM_NWAITS][160]; /* the facts' call sites */
};

/* "MPI_Send @ job.c:20" for an MPI region, "(no MPI call)" for OTR_NONE. */
void sm_mpi_site(const sm *s, uint32_t region, char *buf, size_t n);
void sm_mpi_report(sm *s, report *r);

#endif
