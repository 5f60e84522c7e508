/* Explicit tasks: creation (id with creator, site and generation),
 * scheduling points and dependences (of tasks, of the runtime's pseudo
 * task of a dependent taskwait, and of doacross loops on the implicit
 * task). Throttled tasks: events/throttle.h. */
#define _GNU_SOURCE /* dladdr */
#include "core/config.h"
#include "core/sites.h"
#include "events/emit.h"
#include "events/handlers.h"
#include "events/throttle.h"
#include "services/sampler.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <string.h>

/* libomp 16 and later report the pseudo task of `taskwait depend` and
 * `task if(0) depend` with a code address inside libomp itself when the
 * program calls the old entry __kmpc_omp_wait_deps (clang 15 and older
 * build so), which calls __kmpc_omp_taskwait_deps_51 and that takes its own
 * return address; libomp 14 and 15, and clang 16 and later programs (which
 * call the _51 entry), give the program's call site. Finalize would name the
 * wait after the enclosing construct. When codeptr_ra lies in a __kmpc_
 * entry of the object that called this handler (the runtime; a libomp linked
 * statically has no such dynamic symbol), the program's call site is the
 * first return address after it outside that object. Rare (one per
 * dependent wait), so a backtrace is affordable. */
static __attribute__((noinline)) const void *pseudo_call_site(const void *codeptr_ra,
                                                              const void *runtime_pc) {
  Dl_info cp, rt;
  if (!codeptr_ra || !dladdr(codeptr_ra, &cp) || !dladdr(runtime_pc, &rt) ||
      cp.dli_fbase != rt.dli_fbase || !cp.dli_sname || strncmp(cp.dli_sname, "__kmpc_", 7) != 0)
    return codeptr_ra;
  void *frames[32];
  int n = backtrace(frames, 32), i = 0;
  while (i < n && frames[i] != codeptr_ra)
    i++;
  for (i++; i < n; i++) {
    Dl_info f;
    if (dladdr(frames[i], &f) && f.dli_fbase != rt.dli_fbase)
      return frames[i];
  }
  return codeptr_ra;
}

void on_ompt_callback_task_create(ompt_data_t *encountering_task_data,
                                  const ompt_frame_t *encountering_task_frame,
                                  ompt_data_t *new_task_data, int flags, int has_dependences,
                                  const void *codeptr_ra) {
  (void)encountering_task_data;
  (void)encountering_task_frame;
  ot_thread *t = ot_enter_structural();
  if (!t)
    return;
  if (flags & ompt_task_taskwait) {
    codeptr_ra = pseudo_call_site(codeptr_ra, __builtin_return_address(0));
    /* The runtime's pseudo task of `taskwait depend` / `task if(0) depend`
     * is no task of the program: it takes no generation (generations stay
     * dense), but an id of its own with bit 31 of the generation set, from
     * a count kept in the upper half of task_gen. */
    t->task_gen += 1ull << 32;
    uint32_t gen = 0x80000000u | (uint32_t)((t->task_gen >> 32) & 0x7fffffffu);
    uint64_t id = OT_TASK_ID(t->loc, ot_site_id(codeptr_ra), gen);
    new_task_data->value = id;
    ot_emit(t, OT_TASK_CREATE, 0, (uint32_t)flags, (uint64_t)codeptr_ra, id);
    return;
  }
  if (__builtin_expect(t->throttle != NULL, 0) &&
      ot_thr_task_create(t, flags, has_dependences, ot_site_id(codeptr_ra), codeptr_ra,
                         new_task_data))
    return;
  /* Generation 0 means "implicit task" (record.h): skip it when the 32-bit
   * generation wraps. */
  if ((uint32_t)++t->task_gen == 0)
    ++t->task_gen;
  uint64_t id = OT_TASK_ID(t->loc, ot_site_id(codeptr_ra), (uint32_t)t->task_gen);
  new_task_data->value = id;
  ot_emit(t, OT_TASK_CREATE, 0, (uint32_t)flags, (uint64_t)codeptr_ra, id);
  if (ot_cfg.sample_contexts == 1)
    ot_sampler_task_context(t, id, codeptr_ra);
}

void on_ompt_callback_task_schedule(ompt_data_t *prior_task_data,
                                    ompt_task_status_t prior_task_status,
                                    ompt_data_t *next_task_data) {
  ot_thread *t = ot_enter_structural();
  if (!t)
    return;
  if (__builtin_expect(t->throttle != NULL, 0)) {
    ot_thr_schedule(t, ot_task_of(prior_task_data), (unsigned)prior_task_status,
                    ot_task_of(next_task_data));
    return;
  }
  ot_emit(t, OT_TASK_SCHEDULE, (unsigned)prior_task_status, 0, ot_task_of(prior_task_data),
          ot_task_of(next_task_data));
}

void on_ompt_callback_dependences(ompt_data_t *task_data, const ompt_dependence_t *deps,
                                  int ndeps) {
  ot_thread *t = ot_enter();
  if (!t)
    return;
  uint64_t id = ot_task_of(task_data);
  for (int i = 0; i < ndeps; i++)
    ot_emit(t, OT_DEPENDENCE, (unsigned)deps[i].dependence_type, 0, (uint64_t)deps[i].variable.ptr,
            id);
}

void on_ompt_callback_task_dependence(ompt_data_t *src_task_data, ompt_data_t *sink_task_data) {
  ot_thread *t = ot_enter();
  if (!t)
    return;
  ot_emit(t, OT_TASK_DEPENDENCE, 0, 0, ot_task_of(src_task_data), ot_task_of(sink_task_data));
}
