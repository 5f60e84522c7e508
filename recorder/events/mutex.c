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

/* The recording paths, leaves too: the handlers only dispatch. */
OT_LEAF void acquire_record(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                            ompt_wait_id_t wait_id, const void *codeptr_ra, ot_thread *t) {
  (void)impl;
  ot_emit(t, OT_MUTEX_ACQUIRE, (unsigned)kind, hint, wait_id, (uint64_t)codeptr_ra);
}

OT_LEAF void acquired_record(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra,
                             ot_thread *t) {
  ot_emit(t, OT_MUTEX_ACQUIRED, (unsigned)kind, 0, wait_id, (uint64_t)codeptr_ra);
}

OT_LEAF void released_record(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra,
                             ot_thread *t) {
  ot_emit(t, OT_MUTEX_RELEASED, (unsigned)kind, 0, wait_id, (uint64_t)codeptr_ra);
}

/* The handlers' leaves, with the callback's arguments and the thread
 * last: the fast path (events/filter.h: an acquisition decided in its
 * home slot, its acquired and release from the thread's state) or the
 * full one. */
OT_LEAF void acquire_special(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                             ompt_wait_id_t wait_id, const void *codeptr_ra, ot_thread *t) {
  ot_filter_stack *f = &t->filt;
  unsigned s = OT_FILT_EMPTY;
  if (ot_filt_fast(t) && f->nheld < OT_FILTER_HELD)
    s = ot_filt_home(OT_FC_MUTEX, (unsigned)kind, codeptr_ra);
  if (s == OT_FILT_EMPTY)
    emit_acquire(t, OT_MUTEX_ACQUIRE, (unsigned)kind, hint, wait_id, codeptr_ra);
  else if (!ot_filt_acquire_of(f, wait_id, s == OT_FILT_DROP))
    acquire_record(kind, hint, impl, wait_id, codeptr_ra, t);
}

OT_LEAF void acquired_special(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra,
                              ot_thread *t) {
  if (!ot_filt_fast(t))
    emit_acquire(t, OT_MUTEX_ACQUIRED, (unsigned)kind, 0, wait_id, codeptr_ra);
  else if (!ot_filt_acquired_of(&t->filt, wait_id))
    acquired_record(kind, wait_id, codeptr_ra, t);
}

OT_LEAF void released_special(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra,
                              ot_thread *t) {
  if (!ot_filt_fast(t))
    emit_released(t, (unsigned)kind, wait_id, codeptr_ra);
  else if (!ot_filt_release_of(&t->filt, wait_id))
    released_record(kind, wait_id, codeptr_ra, t);
}

void on_ompt_callback_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                                    ompt_wait_id_t wait_id, const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (!t)
    return;
  if (ot_filt_special(t))
    acquire_special(kind, hint, impl, wait_id, codeptr_ra, t);
  else
    acquire_record(kind, hint, impl, wait_id, codeptr_ra, t);
}

void on_ompt_callback_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                     const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (!t)
    return;
  if (ot_filt_special(t))
    acquired_special(kind, wait_id, codeptr_ra, t);
  else
    acquired_record(kind, wait_id, codeptr_ra, t);
}

void on_ompt_callback_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                     const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (!t)
    return;
  if (ot_filt_special(t))
    released_special(kind, wait_id, codeptr_ra, t);
  else
    released_record(kind, wait_id, codeptr_ra, t);
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
