/* OpenMP constructs as the archive names them ("barrier", "critical
 * wait", ...): the one table of names for the recorder's filter (core)
 * and finalize's regions, and the constructs a record's kind stands for. */
#ifndef OMPTRACE_CONSTRUCTS_H
#define OMPTRACE_CONSTRUCTS_H

#include <stdint.h>

enum ot_construct {
  OC_PARALLEL,
  OC_TEAMS, /* a host teams league, on each team's initial thread */
  OC_IBARRIER,
  OC_IBARRIER_WAIT,
  OC_BARRIER,
  OC_BARRIER_WAIT,
  OC_IMPL_BARRIER,
  OC_IMPL_BARRIER_WAIT,
  OC_TASKWAIT,
  OC_TASKWAIT_WAIT,
  OC_TASKGROUP,
  OC_TASKGROUP_WAIT,
  OC_SYNC_REDUCTION,
  OC_SYNC_REDUCTION_WAIT,
  OC_LOOP,
  OC_TASKLOOP,
  OC_SECTIONS,
  OC_SINGLE,
  OC_SINGLE_SBLOCK,
  OC_WORKSHARE,
  OC_DISTRIBUTE,
  OC_SCOPE,
  OC_MASKED,
  OC_CRITICAL,
  OC_CRITICAL_WAIT,
  OC_CRITICAL_SBLOCK,
  OC_ORDERED,
  OC_ORDERED_WAIT,
  OC_ORDERED_SBLOCK,
  OC_ATOMIC,
  OC_ATOMIC_WAIT,
  OC_ATOMIC_SBLOCK,
  OC_SET_LOCK,
  OC_SET_NEST_LOCK,
  OC_LOCK_WAIT,
  OC_REDUCTION,
  OC_FLUSH,
  OC_TASK_CREATE,
  OC_TASK,
  OC_UNTIED_TASK,
  OC_CONTROL_TOOL,
  OC_ERROR,
  OC_CANCEL_FIRST, /* 4 kinds x 3 actions, see ot_cancel_construct */
  OC_COUNT = OC_CANCEL_FIRST + 12
};

/* The construct's name ("implicit barrier wait"); NULL past OC_COUNT. */
const char *ot_construct_name(enum ot_construct c);
/* The constructs of a record's kind (ompt_sync_region_t, ompt_work_t,
 * ompt_mutex_t): the region, its wait and, for a mutex, its sblock
 * (OC_COUNT: none). One mapping for the replay and the filter. */
void ot_sync_constructs(unsigned kind, enum ot_construct *c, enum ot_construct *wait);
enum ot_construct ot_work_construct(unsigned kind);
void ot_mutex_constructs(unsigned kind, enum ot_construct *c, enum ot_construct *wait,
                         enum ot_construct *sblock);
/* Cancel construct from ompt_cancel_flag_t bits. */
enum ot_construct ot_cancel_construct(uint32_t flags);

#endif
