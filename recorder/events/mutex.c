/* Locks, nest locks, critical, ordered, atomic: acquisition protocol and
 * lock life cycle. wait_id identifies the lock. */
#include "events/emit.h"
#include "events/filter.h"
#include "events/handlers.h"
#include "events/throttle.h"

/* With a filter file or throttling (out of line, so the recording path
 * saves no registers for them): a lock acquired at an excluded or
 * throttled site goes whole. */
static __attribute__((noinline)) void emit_acquire(ot_thread *t, unsigned type, unsigned kind,
                                                   uint32_t hint, ompt_wait_id_t wait_id,
                                                   const void *codeptr_ra) {
  int acquired = type == OT_MUTEX_ACQUIRED;
  if (ot_filter_on && ot_filt_acquire(kind, wait_id, codeptr_ra, acquired))
    return;
  if (t->throttle && ot_thr_acquire(t, kind, wait_id, codeptr_ra, acquired))
    return;
  ot_emit(t, type, kind, hint, wait_id, (uint64_t)codeptr_ra);
}

static __attribute__((noinline)) void
emit_released(ot_thread *t, unsigned kind, ompt_wait_id_t wait_id, const void *codeptr_ra) {
  if (ot_filter_on && ot_filt_release(wait_id))
    return;
  if (t->throttle && ot_thr_release(t, wait_id))
    return;
  ot_emit(t, OT_MUTEX_RELEASED, kind, 0, wait_id, (uint64_t)codeptr_ra);
}

void on_ompt_callback_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                                    ompt_wait_id_t wait_id, const void *codeptr_ra) {
  (void)impl;
  ot_thread *t = ot_enter();
  if (t && __builtin_expect(ot_filter_on || t->throttle, 0))
    emit_acquire(t, OT_MUTEX_ACQUIRE, (unsigned)kind, hint, wait_id, codeptr_ra);
  else if (t)
    ot_emit(t, OT_MUTEX_ACQUIRE, (unsigned)kind, hint, wait_id, (uint64_t)codeptr_ra);
}

void on_ompt_callback_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                     const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (t && __builtin_expect(ot_filter_on || t->throttle, 0))
    emit_acquire(t, OT_MUTEX_ACQUIRED, (unsigned)kind, 0, wait_id, codeptr_ra);
  else if (t)
    ot_emit(t, OT_MUTEX_ACQUIRED, (unsigned)kind, 0, wait_id, (uint64_t)codeptr_ra);
}

void on_ompt_callback_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                     const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (t && __builtin_expect(ot_filter_on || t->throttle, 0))
    emit_released(t, (unsigned)kind, wait_id, codeptr_ra);
  else if (t)
    ot_emit(t, OT_MUTEX_RELEASED, (unsigned)kind, 0, wait_id, (uint64_t)codeptr_ra);
}

void on_ompt_callback_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id,
                                const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, OT_NEST_LOCK, (unsigned)endpoint, 0, wait_id, (uint64_t)codeptr_ra);
}

void on_ompt_callback_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                                ompt_wait_id_t wait_id, const void *codeptr_ra) {
  (void)impl;
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, OT_LOCK_INIT, (unsigned)kind, hint, wait_id, (uint64_t)codeptr_ra);
}

void on_ompt_callback_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                   const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, OT_LOCK_DESTROY, (unsigned)kind, 0, wait_id, (uint64_t)codeptr_ra);
}
