/* MPI communicators of a rank's archive (docs/otf2-mapping.md, section
 * MPI): its COMM_LOCATIONS group, one Group and Comm per communicator the
 * MPI_COMM/MPI_MEMBER records define, with job-wide unique names. */
#ifndef OMPTRACE_MPI_COMMS_H
#define OMPTRACE_MPI_COMMS_H

#include "buffer/record.h"

#include <otf2/otf2.h>
#include <stdint.h>

/* An MPI_COMM or MPI_MEMBER record (any location, any order). */
void ot_mpi_comm_note(const ot_rec *r);
/* The location that called MPI_Init / MPI_Init_thread. */
void ot_mpi_init_location(uint32_t loc);
/* The Comm id of the rank's communicator id (after OpenMP's teams). */
OTF2_CommRef ot_mpi_comm_ref(uint32_t id);
/* Before the strings are written: the names. */
void ot_mpi_comms_prepare(void);
/* After the locations and ot_teams_write. */
OTF2_ErrorCode ot_mpi_comms_write(OTF2_GlobalDefWriter *w);
void ot_mpi_comms_free(void);

#endif
