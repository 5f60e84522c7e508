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

/* The recording paths: leaves with the callback's arguments (the work
 * callback has six, so its leaves find the thread themselves), and the
 * handlers only dispatch. */
OT_LEAF void work_record(ompt_work_t wstype, ompt_scope_endpoint_t endpoint,
                         ompt_data_t *parallel_data, const ompt_data_t *task_data, uint64_t count,
                         const void *codeptr_ra) {
  (void)task_data;
  ot_emit(ot_self, endpoint == ompt_scope_begin ? OT_WORK_BEGIN : OT_WORK_END, (unsigned)wstype,
          ot_sat32(count), (uint64_t)codeptr_ra, ot_parallel_of(parallel_data));
}

OT_LEAF void masked_record(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                           const ompt_data_t *task_data, const void *codeptr_ra, ot_thread *t) {
  (void)task_data;
  ot_emit(t, endpoint == ompt_scope_begin ? OT_MASKED_BEGIN : OT_MASKED_END, 0, 0,
          (uint64_t)codeptr_ra, ot_parallel_of(parallel_data));
}

OT_LEAF void reduction_record(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                              ompt_data_t *parallel_data, const ompt_data_t *task_data,
                              const void *codeptr_ra, ot_thread *t) {
  (void)task_data;
  ot_emit(t, endpoint == ompt_scope_begin ? OT_REDUCTION_BEGIN : OT_REDUCTION_END, (unsigned)kind,
          0, (uint64_t)codeptr_ra, ot_parallel_of(parallel_data));
}

/* What the fast path did not drop (how: 1 not decided there, | 2 may be
 * throttled): recorded, or the full way. */
static __attribute__((noinline)) void emit_rest(ot_thread *t, uint32_t what, uint32_t a,
                                                const void *codeptr_ra, ompt_data_t *parallel_data,
                                                unsigned how) {
  if (how == 3 && t->throttle)
    emit_throttled(t, what, a, codeptr_ra, parallel_data);
  else if ((how & 1) && ot_filter_on)
    emit_filtered_full(t, what, a, codeptr_ra, parallel_data);
  else
    emit_kept(t, what, a, codeptr_ra, parallel_data);
}

/* The fast path (events/filter.h: a begin's key decided in its home
 * slot, an end from the bit stack): 1 dropped, 0 recorded, -1 not
 * decided here. Only a drop returns before the record's fields are built. */
static inline __attribute__((always_inline)) int
scope_fast(ot_thread *t, unsigned fclass, unsigned kind, int begin, const void *codeptr_ra) {
  if (!ot_filt_fast(t))
    return -1;
  return begin ? ot_filt_begin_home(&t->filt, fclass, kind, codeptr_ra) : ot_filt_end_of(&t->filt);
}

/* The handlers' leaves take the callback's own arguments, so the handlers
 * reach them with a jump and build no record fields first. */
OT_LEAF void work_special(ompt_work_t wstype, ompt_scope_endpoint_t endpoint,
                          ompt_data_t *parallel_data, const ompt_data_t *task_data, uint64_t count,
                          const void *codeptr_ra) {
  (void)task_data;
  ot_thread *t = ot_self;
  int begin = endpoint == ompt_scope_begin;
  int drop = scope_fast(t, OT_FC_WORK, (unsigned)wstype, begin, codeptr_ra);
  if (__builtin_expect(drop > 0, 1))
    return;
  emit_rest(t, what(OT_FC_WORK, begin ? OT_WORK_BEGIN : OT_WORK_END, (unsigned)wstype, endpoint),
            ot_sat32(count), codeptr_ra, parallel_data, 2u | (drop < 0));
}

OT_LEAF void masked_special(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                            const ompt_data_t *task_data, const void *codeptr_ra, ot_thread *t) {
  (void)task_data;
  int begin = endpoint == ompt_scope_begin;
  int drop = scope_fast(t, OT_FC_MASKED, 0, begin, codeptr_ra);
  if (__builtin_expect(drop > 0, 1))
    return;
  emit_rest(t, what(OT_FC_MASKED, begin ? OT_MASKED_BEGIN : OT_MASKED_END, 0, endpoint), 0,
            codeptr_ra, parallel_data, 2u | (drop < 0));
}

OT_LEAF void reduction_special(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                               ompt_data_t *parallel_data, const ompt_data_t *task_data,
                               const void *codeptr_ra, ot_thread *t) {
  (void)task_data;
  int begin = endpoint == ompt_scope_begin;
  int drop = scope_fast(t, OT_FC_REDUCTION, (unsigned)kind, begin, codeptr_ra);
  if (__builtin_expect(drop > 0, 1))
    return;
  /* never throttled */
  emit_rest(t,
            what(OT_FC_REDUCTION, begin ? OT_REDUCTION_BEGIN : OT_REDUCTION_END, (unsigned)kind,
                 endpoint),
            0, codeptr_ra, parallel_data, drop < 0);
}

void on_ompt_callback_work(ompt_work_t wstype, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data, uint64_t count,
                           const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (!t)
    return;
  if (ot_filt_special(t))
    work_special(wstype, endpoint, parallel_data, task_data, count, codeptr_ra);
  else
    work_record(wstype, endpoint, parallel_data, task_data, count, codeptr_ra);
}

void on_ompt_callback_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (!t)
    return;
  if (ot_filt_special(t))
    masked_special(endpoint, parallel_data, task_data, codeptr_ra, t);
  else
    masked_record(endpoint, parallel_data, task_data, codeptr_ra, t);
}

void on_ompt_callback_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data, ompt_data_t *task_data,
                                const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (!t)
    return;
  if (ot_filt_special(t))
    reduction_special(kind, endpoint, parallel_data, task_data, codeptr_ra, t);
  else
    reduction_record(kind, endpoint, parallel_data, task_data, codeptr_ra, t);
}
