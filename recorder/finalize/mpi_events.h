/* The messages and collectives inside MPI calls as OTF2 events
 * (docs/otf2-mapping.md, section MPI). */
#ifndef OMPTRACE_MPI_EVENTS_H
#define OMPTRACE_MPI_EVENTS_H

#include "buffer/record.h"

#include <otf2/otf2.h>
#include <stdint.h>

/* What one location carries from one record to the next. */
typedef struct ot_mpi_loc {
  uint64_t request; /* of the MPI_MSG that follows an OT_MSG_REQUEST */
  uint64_t nbc;     /* of the MPI_COLL_END after an OT_MSG_NBC_COMPLETE */
  uint32_t root;    /* of the open collective */
  int in_nbc;       /* an OT_MSG_NBC_COMPLETE awaits its MPI_COLL_END */
} ot_mpi_loc;

/* An MPI_MSG, MPI_REQ, MPI_COLL_BEGIN or MPI_COLL_END record of location
 * loc at time t (written through finalize/evt_out.h). */
OTF2_ErrorCode ot_mpi_replay(uint32_t loc, ot_mpi_loc *m, const ot_rec *r, uint64_t t);

#endif
