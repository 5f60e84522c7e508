/* The construct names and the mapping from a record's kind to its
 * constructs (core/constructs.h). */
#include "core/constructs.h"

#include <omp-tools.h>

static const char *const names[OC_COUNT] = {
    [OC_PARALLEL] = "parallel",
    [OC_TEAMS] = "teams",
    [OC_IBARRIER] = "implicit barrier",
    [OC_IBARRIER_WAIT] = "implicit barrier wait",
    [OC_BARRIER] = "barrier",
    [OC_BARRIER_WAIT] = "barrier wait",
    [OC_IMPL_BARRIER] = "implementation barrier",
    [OC_IMPL_BARRIER_WAIT] = "implementation barrier wait",
    [OC_TASKWAIT] = "taskwait",
    [OC_TASKWAIT_WAIT] = "taskwait wait",
    [OC_TASKGROUP] = "taskgroup",
    [OC_TASKGROUP_WAIT] = "taskgroup wait",
    [OC_SYNC_REDUCTION] = "reduction",
    [OC_SYNC_REDUCTION_WAIT] = "reduction wait",
    [OC_LOOP] = "loop",
    [OC_TASKLOOP] = "taskloop",
    [OC_SECTIONS] = "sections",
    [OC_SINGLE] = "single",
    [OC_SINGLE_SBLOCK] = "single sblock",
    [OC_WORKSHARE] = "workshare",
    [OC_DISTRIBUTE] = "distribute",
    [OC_SCOPE] = "scope",
    [OC_MASKED] = "masked",
    [OC_CRITICAL] = "critical",
    [OC_CRITICAL_WAIT] = "critical wait",
    [OC_CRITICAL_SBLOCK] = "critical sblock",
    [OC_ORDERED] = "ordered",
    [OC_ORDERED_WAIT] = "ordered wait",
    [OC_ORDERED_SBLOCK] = "ordered sblock",
    [OC_ATOMIC] = "atomic",
    [OC_ATOMIC_WAIT] = "atomic wait",
    [OC_ATOMIC_SBLOCK] = "atomic sblock",
    [OC_SET_LOCK] = "omp_set_lock",
    [OC_SET_NEST_LOCK] = "omp_set_nest_lock",
    [OC_LOCK_WAIT] = "lock wait",
    [OC_REDUCTION] = "reduction",
    [OC_FLUSH] = "flush",
    [OC_TASK_CREATE] = "task create",
    [OC_TASK] = "task",
    [OC_UNTIED_TASK] = "untied task",
    [OC_CONTROL_TOOL] = "omp_control_tool",
    [OC_ERROR] = "error",
    [OC_CANCEL_FIRST + 0] = "cancel parallel activated",
    [OC_CANCEL_FIRST + 1] = "cancel parallel detected",
    [OC_CANCEL_FIRST + 2] = "cancel parallel discarded",
    [OC_CANCEL_FIRST + 3] = "cancel sections activated",
    [OC_CANCEL_FIRST + 4] = "cancel sections detected",
    [OC_CANCEL_FIRST + 5] = "cancel sections discarded",
    [OC_CANCEL_FIRST + 6] = "cancel loop activated",
    [OC_CANCEL_FIRST + 7] = "cancel loop detected",
    [OC_CANCEL_FIRST + 8] = "cancel loop discarded",
    [OC_CANCEL_FIRST + 9] = "cancel taskgroup activated",
    [OC_CANCEL_FIRST + 10] = "cancel taskgroup detected",
    [OC_CANCEL_FIRST + 11] = "cancel taskgroup discarded",
};

const char *ot_construct_name(enum ot_construct c) {
  return (unsigned)c < OC_COUNT ? names[c] : NULL;
}

enum ot_construct ot_cancel_construct(uint32_t flags) {
  int what = flags & ompt_cancel_parallel   ? 0
             : flags & ompt_cancel_sections ? 1
             : flags & ompt_cancel_loop     ? 2
                                            : 3; /* taskgroup */
  int how = flags & ompt_cancel_activated ? 0 : flags & ompt_cancel_detected ? 1 : 2;
  return (enum ot_construct)(OC_CANCEL_FIRST + what * 3 + how);
}

void ot_sync_constructs(unsigned kind, enum ot_construct *c, enum ot_construct *wait) {
  switch (kind) {
  case ompt_sync_region_barrier_explicit:
  case ompt_sync_region_barrier:
    *c = OC_BARRIER, *wait = OC_BARRIER_WAIT;
    break;
  case ompt_sync_region_barrier_implementation:
    *c = OC_IMPL_BARRIER, *wait = OC_IMPL_BARRIER_WAIT;
    break;
  case ompt_sync_region_taskwait:
    *c = OC_TASKWAIT, *wait = OC_TASKWAIT_WAIT;
    break;
  case ompt_sync_region_taskgroup:
    *c = OC_TASKGROUP, *wait = OC_TASKGROUP_WAIT;
    break;
  case ompt_sync_region_reduction:
    *c = OC_SYNC_REDUCTION, *wait = OC_SYNC_REDUCTION_WAIT;
    break;
  default: /* implicit barriers of every flavour */
    *c = OC_IBARRIER, *wait = OC_IBARRIER_WAIT;
    break;
  }
}

enum ot_construct ot_work_construct(unsigned kind) {
  switch (kind) {
  case ompt_work_sections:
    return OC_SECTIONS;
  case ompt_work_single_executor:
  case ompt_work_single_other:
    return OC_SINGLE;
  case ompt_work_workshare:
    return OC_WORKSHARE;
  case ompt_work_distribute:
    return OC_DISTRIBUTE;
  case ompt_work_taskloop:
    return OC_TASKLOOP;
  case ompt_work_scope:
    return OC_SCOPE;
  default:
    return OC_LOOP;
  }
}

void ot_mutex_constructs(unsigned kind, enum ot_construct *c, enum ot_construct *wait,
                         enum ot_construct *sblock) {
  switch (kind) {
  case ompt_mutex_critical:
    *c = OC_CRITICAL, *wait = OC_CRITICAL_WAIT, *sblock = OC_CRITICAL_SBLOCK;
    break;
  case ompt_mutex_ordered:
    *c = OC_ORDERED, *wait = OC_ORDERED_WAIT, *sblock = OC_ORDERED_SBLOCK;
    break;
  case ompt_mutex_atomic:
    *c = OC_ATOMIC, *wait = OC_ATOMIC_WAIT, *sblock = OC_ATOMIC_SBLOCK;
    break;
  case ompt_mutex_nest_lock:
  case ompt_mutex_test_nest_lock:
    *c = OC_SET_NEST_LOCK, *wait = OC_LOCK_WAIT, *sblock = OC_COUNT;
    break;
  default:
    *c = OC_SET_LOCK, *wait = OC_LOCK_WAIT, *sblock = OC_COUNT;
    break;
  }
}
