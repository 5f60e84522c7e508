/* Regions of MPI calls (paradigm MPI, docs/otf2-mapping.md section MPI). */
#ifndef OMPTRACE_MPI_REGIONS_H
#define OMPTRACE_MPI_REGIONS_H

#include <stdint.h>

/* The region "MPI_<call>" with its role, at the file and line of the call
 * site cp where known; OTF2_UNDEFINED_REGION for an index outside buffer/mpi_calls.h. */
uint32_t ot_mpi_region(uint32_t call, uint64_t cp);
/* The leave record of MPI_Init or MPI_Init_thread: its rank + 1 in c. */
void ot_mpi_note_init(uint64_t rank_plus1);
/* 1 when the run recorded MPI calls (the archive then defines the MPI
 * paradigm); *rank: the rank in MPI_COMM_WORLD when known (return 2). */
int ot_mpi_seen(uint32_t *rank);
/* Before the next archive (omptrace-recover writes several). */
void ot_mpi_regions_free(void);

#endif
