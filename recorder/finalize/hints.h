/* Advice printed after the exit line, from what the replay saw: sites
 * that created so many tiny explicit tasks, or flushed so often (a spin-wait
 * with a flush per spin), that recording every one costs more than the
 * program, where OMPTRACE_THROTTLE records counts instead (docs/control.md,
 * "Throttling tiny constructs"). */
#ifndef OMPTRACE_HINTS_H
#define OMPTRACE_HINTS_H

#include <stdint.h>

/* A site's tasks need at least this many instances, with a mean below
 * OT_HINT_TASK_NS from first start to completion, for the hint. */
#define OT_HINT_TASKS 100000u
#define OT_HINT_TASK_NS 10000u

/* An explicit task of task region `region` completed after ns. */
void ot_hint_task_done(uint32_t region, uint64_t ns);
/* A flush of flush region `region` written at time t (ns). A site gets the
 * hint with at least OT_HINT_TASKS flushes, more than one per
 * OT_HINT_TASK_NS on average from its first to its last (all threads). */
void ot_hint_flush(uint32_t region, uint64_t t);
/* The hint line, when a site qualifies (ot_info: not with OMPTRACE_QUIET). */
void ot_hints_report(void);
void ot_hints_free(void);

#endif
