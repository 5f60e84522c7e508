/* Message records shared by the point-to-point wrappers (mpi/p2p.c). */
#ifndef OMPTRACE_MPI_P2P_H
#define OMPTRACE_MPI_P2P_H

#include <mpi.h>

/* The MPI_MSG record of a receive that completed with status s. */
void ot_mpi_recv_done(MPI_Comm c, const MPI_Status *s);

#endif
