/* Regions of MPI calls (paradigm MPI, docs/otf2-mapping.md section MPI). */
#ifndef OMPTRACE_MPI_REGIONS_H
#define OMPTRACE_MPI_REGIONS_H

#include <stdint.h>

/* The region "MPI_<call>" with its role, at the file and line of the call
 * site cp where known; OTF2_UNDEFINED_REGION for an index outside buffer/mpi_calls.h. */
uint32_t ot_mpi_region(uint32_t call, uint64_t cp);

#endif
