/* Writer of small MPI + OpenMP job archives laid out as the MPI recorder
 * writes them (docs/otf2-mapping.md, "MPI"): a node per host, a PROCESS
 * location group "rank R" per rank, location ids (R << 32) | thread, an MPI
 * COMM_LOCATIONS group of the ranks' thread 0 and a COMM_GROUP of world
 * ranks per communicator. Times are ns; a location's must not decrease. */
#ifndef OMPTRACE_MPIGEN_H
#define OMPTRACE_MPIGEN_H

#include <otf2/otf2.h>
#include <stdint.h>

#define MG_RANKS 8
#define MG_THREADS 4

typedef struct mg mg;

mg *mg_open(const char *dir, int ranks, int threads, int ranks_per_node);
/* Writes the definitions and closes the archive. */
void mg_close(mg *g);

uint32_t mg_region(mg *g, const char *name, OTF2_RegionRole role, OTF2_Paradigm par,
                   const char *file, uint32_t line);
/* A communicator over world ranks (in comm rank order); n = 0: MPI_COMM_SELF.
 * group_missing: its Comm refers to a Group that is not defined. */
uint32_t mg_comm(mg *g, const char *name, int n, const uint32_t *world, uint32_t parent,
                 int group_missing);

void mg_enter(mg *g, int r, int t, uint64_t ns, uint32_t region);
void mg_leave(mg *g, int r, int t, uint64_t ns, uint32_t region);
void mg_fork(mg *g, int r, uint64_t ns, uint32_t n);
void mg_join(mg *g, int r, uint64_t ns);
void mg_team_begin(mg *g, int r, int t, uint64_t ns);
void mg_team_end(mg *g, int r, int t, uint64_t ns);
void mg_send(mg *g, int r, uint64_t ns, uint32_t to, uint32_t comm, uint32_t tag, uint64_t bytes);
void mg_isend(mg *g, int r, uint64_t ns, uint32_t to, uint32_t comm, uint32_t tag, uint64_t bytes,
              uint64_t req);
void mg_isend_complete(mg *g, int r, uint64_t ns, uint64_t req);
void mg_irecv_request(mg *g, int r, uint64_t ns, uint64_t req);
void mg_irecv(mg *g, int r, uint64_t ns, uint32_t from, uint32_t comm, uint32_t tag, uint64_t bytes,
              uint64_t req);
void mg_recv(mg *g, int r, uint64_t ns, uint32_t from, uint32_t comm, uint32_t tag, uint64_t bytes);
void mg_coll_begin(mg *g, int r, uint64_t ns);
void mg_coll_end(mg *g, int r, uint64_t ns, OTF2_CollectiveOp op, uint32_t comm, uint32_t root,
                 uint64_t sent, uint64_t received);

#endif
