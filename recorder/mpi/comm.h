/* The communicators a rank knows, numbered in the order it learnt them
 * (mpi/comm.c): the comm ids of its MPI_MSG and MPI_COLL_END records. */
#ifndef OMPTRACE_MPI_COMM_H
#define OMPTRACE_MPI_COMM_H

#include <mpi.h>
#include <stdint.h>

/* After PMPI_Init*: defines MPI_COMM_WORLD (id 0) and MPI_COMM_SELF (1). */
void ot_mpi_comms_init(void);
/* The id of c, or OT_COMM_NONE when the table does not know it (an
 * intercommunicator, a call not wrapped, a full table): its calls are
 * then recorded without message or collective records. */
uint32_t ot_mpi_comm_id(MPI_Comm c);

#endif
