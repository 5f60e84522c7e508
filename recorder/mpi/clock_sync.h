/* Clock offsets of the ranks to rank 0 (mpi/clock_sync.c). */
#ifndef OMPTRACE_MPI_CLOCK_SYNC_H
#define OMPTRACE_MPI_CLOCK_SYNC_H

/* Collective over MPI_COMM_WORLD: every rank calls it at the same point
 * (right after PMPI_Init*, right before PMPI_Finalize). */
void ot_clock_sync(void);

#endif
