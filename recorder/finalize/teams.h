/* OpenMP teams as OTF2 groups and communicators (finalize/teams.c), built
 * from the scan's parallel table. */
#ifndef OMPTRACE_TEAMS_H
#define OMPTRACE_TEAMS_H

#include <otf2/otf2.h>
#include <stdint.h>

/* One Comm per distinct (members, parent team). */
int ot_teams_build(void);                         /* after ot_scan_run; 0 on success */
OTF2_CommRef ot_teams_comm(uint64_t parallel_id); /* OTF2_UNDEFINED_COMM if unknown */
/* Groups (COMM_LOCATIONS id 0, then one COMM_GROUP per team) and Comms. */
OTF2_ErrorCode ot_teams_write(OTF2_GlobalDefWriter *w, uint32_t nlocations);
/* How many Comms (ids 0..n-1) and Groups (0..n) ot_teams_write writes:
 * MPI's communicators take the ids after them (finalize/mpi_comms.h). */
uint32_t ot_teams_count(void);
void ot_teams_free(void);

#endif
