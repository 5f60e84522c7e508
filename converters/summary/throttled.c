/* What OMPTRACE_THROTTLE counted instead of recording: per construct and
 * thread, the instances and their time. That time lies in the region the
 * instances ran in (a throttled task's in the barrier or taskwait that ran
 * it), and the report says how much of it was throttled work. */
#include "summary.h"

void sm_throttled_report(sm *s, report *r) {
  const otr_defs *d = s->d;
  if (!d->n_throttled)
    return;
  rtable *t = rt_new(r, "overview", "throttled", "Throttled constructs (OMPTRACE_THROTTLE)", false);
  rt_col(t, "region", "Region", RV_STR);
  rt_col(t, "thread", "Thread", RV_INT);
  rt_col(t, "instances", "Throttled", RV_INT);
  rt_col(t, "time_ns", "Time", RV_NS);
  rt_col(t, "mean_ns", "Mean", RV_NS);
  for (uint32_t i = 0; i < d->n_throttled; i++) {
    const otr_throttled *x = &d->throttled[i];
    rt_row(t);
    rt_str(t, d->regions[x->region].name);
    rt_int(t, x->loc);
    rt_int(t, (int64_t)x->count);
    rt_ns(t, x->ns);
    rt_ns(t, x->count ? x->ns / x->count : 0);
  }
  rt_note(t, "instances run by this thread after the construct was throttled: counted, not "
             "recorded. Their time is in the region they ran in (a task's in the barrier or "
             "taskwait that ran it): this much of it was throttled work, no idle time and no "
             "runtime overhead");
}
