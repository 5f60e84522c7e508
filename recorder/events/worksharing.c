/* Work-sharing constructs, masked and reductions (the first two may be
 * throttled: events/throttle_scope.h). */
#include "events/emit.h"
#include "events/filter.h"
#include "events/handlers.h"
#include "events/throttle_scope.h"

static __attribute__((noinline)) void emit_kept(ot_thread *t, uint32_t what, uint32_t a,
                                                const void *codeptr_ra,
                                                ompt_data_t *parallel_data) {
  ot_emit(t, (what >> 8) & 0xffu, (what >> 16) & 0xffu, a, (uint64_t)codeptr_ra,
          ot_parallel_of(parallel_data));
}

/* With a filter file: an end follows its begin (their code addresses
 * differ). Out of line, with few arguments, so the recording path saves
 * no registers for it; a dropped record saves none either (emit_kept).
 * what: class | type << 8 | kind << 16 | begin << 24. */
static __attribute__((noinline)) void emit_filtered_full(ot_thread *t, uint32_t what, uint32_t a,
                                                         const void *codeptr_ra,
                                                         ompt_data_t *parallel_data) {
  unsigned kind = (what >> 16) & 0xffu;
  int drop = (what >> 24) ? ot_filt_begin(what & 0xffu, kind, codeptr_ra) : ot_filt_end();
  if (!drop)
    emit_kept(t, what, a, codeptr_ra, parallel_data);
}

/* The common case first (a current thread state, a begin's key decided in
 * its home slot): no loop, so no register saves; the rest goes the full way. */
static __attribute__((noinline)) void emit_filtered(ot_thread *t, uint32_t what, uint32_t a,
                                                    const void *codeptr_ra,
                                                    ompt_data_t *parallel_data) {
  ot_filter_tls *f = &ot_filter_self;
  int drop = -1;
  if (ot_filt_current(f))
    drop = (what >> 24) ? ot_filt_begin_home(f, what & 0xffu, (what >> 16) & 0xffu, codeptr_ra)
                        : ot_filt_end_of(f);
  if (drop < 0)
    emit_filtered_full(t, what, a, codeptr_ra, parallel_data);
  else if (!drop)
    emit_kept(t, what, a, codeptr_ra, parallel_data);
}

/* Work sharing and masked with throttling (and maybe a filter file):
 * a construct the filter drops is not seen by the throttle either. */
static __attribute__((noinline)) void emit_throttled(ot_thread *t, uint32_t what, uint32_t a,
                                                     const void *codeptr_ra,
                                                     ompt_data_t *parallel_data) {
  unsigned fclass = what & 0xffu, kind = (what >> 16) & 0xffu;
  int begin = (int)(what >> 24);
  if (ot_filter_on && (begin ? ot_filt_begin(fclass, kind, codeptr_ra) : ot_filt_end()))
    return;
  uint64_t now = ot_clock_now();
  int work = fclass == OT_FC_WORK;
  /* single: the executor and the others of one construct are one entry */
  unsigned tkind = work && kind == ompt_work_single_other ? ompt_work_single_executor : kind;
  int drop = begin ? ot_thr_scope_begin(t, work ? OT_THR_WORK : OT_THR_MASKED, tkind, codeptr_ra,
                                        kind != ompt_work_taskloop || !work, now)
                   : ot_thr_scope_end(t, now);
  if (!drop)
    ot_emit_at(t, now, (what >> 8) & 0xffu, kind, a, (uint64_t)codeptr_ra,
               ot_parallel_of(parallel_data));
}

static inline uint32_t what(unsigned fclass, unsigned type, unsigned kind,
                            ompt_scope_endpoint_t endpoint) {
  return fclass | type << 8 | (kind & 0xffu) << 16 | (uint32_t)(endpoint == ompt_scope_begin) << 24;
}

void on_ompt_callback_work(ompt_work_t wstype, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data, uint64_t count,
                           const void *codeptr_ra) {
  (void)task_data;
  ot_thread *t = ot_enter();
  if (!t)
    return;
  unsigned type = endpoint == ompt_scope_begin ? OT_WORK_BEGIN : OT_WORK_END;
  if (__builtin_expect(t->throttle != NULL, 0))
    emit_throttled(t, what(OT_FC_WORK, type, (unsigned)wstype, endpoint), ot_sat32(count),
                   codeptr_ra, parallel_data);
  else if (__builtin_expect(ot_filter_on, 0))
    emit_filtered(t, what(OT_FC_WORK, type, (unsigned)wstype, endpoint), ot_sat32(count),
                  codeptr_ra, parallel_data);
  else
    ot_emit(t, type, (unsigned)wstype, ot_sat32(count), (uint64_t)codeptr_ra,
            ot_parallel_of(parallel_data));
}

void on_ompt_callback_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, const void *codeptr_ra) {
  (void)task_data;
  ot_thread *t = ot_enter();
  if (!t)
    return;
  unsigned type = endpoint == ompt_scope_begin ? OT_MASKED_BEGIN : OT_MASKED_END;
  if (__builtin_expect(t->throttle != NULL, 0))
    emit_throttled(t, what(OT_FC_MASKED, type, 0, endpoint), 0, codeptr_ra, parallel_data);
  else if (__builtin_expect(ot_filter_on, 0))
    emit_filtered(t, what(OT_FC_MASKED, type, 0, endpoint), 0, codeptr_ra, parallel_data);
  else
    ot_emit(t, type, 0, 0, (uint64_t)codeptr_ra, ot_parallel_of(parallel_data));
}

void on_ompt_callback_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data, ompt_data_t *task_data,
                                const void *codeptr_ra) {
  (void)task_data;
  ot_thread *t = ot_enter();
  if (!t)
    return;
  unsigned type = endpoint == ompt_scope_begin ? OT_REDUCTION_BEGIN : OT_REDUCTION_END;
  if (__builtin_expect(ot_filter_on, 0))
    emit_filtered(t, what(OT_FC_REDUCTION, type, (unsigned)kind, endpoint), 0, codeptr_ra,
                  parallel_data);
  else
    ot_emit(t, type, (unsigned)kind, 0, (uint64_t)codeptr_ra, ot_parallel_of(parallel_data));
}
