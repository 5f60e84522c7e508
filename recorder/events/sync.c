/* Barriers, taskwait, taskgroup: the region and the wait inside it. The
 * parallel barrier's end comes with parallel_data == NULL (recorded as 0);
 * finalize tells it from a work-sharing barrier. */
#include "events/emit.h"
#include "events/filter.h"
#include "events/handlers.h"
#include "events/throttle_scope.h"

/* libomp calls a sync region's begin and its wait's begin back to back,
 * and the wait's end and the region's end likewise (about 10 ns apart,
 * the callback itself). When nothing was recorded in between, the second
 * of such a pair reuses the first one's timestamp: one clock read less per
 * pair, which is most of the cost of these events. */
static inline uint64_t paired_ts(ot_thread *t, unsigned type, unsigned kind) {
  return (t->pair_rec == t->records && t->pair_kind == (kind | type << 8)) ? t->pair_ts : 0;
}

/* `next` is the only record type that may reuse ts. */
static inline void remember_ts(ot_thread *t, unsigned next, unsigned kind, uint64_t ts) {
  t->pair_ts = ts;
  t->pair_kind = kind | next << 8;
  t->pair_rec = t->records;
}

/* A wait follows its region; a region's end follows its begin. */
static inline __attribute__((always_inline)) int sync_filtered(unsigned begin_type, unsigned kind,
                                                               ompt_scope_endpoint_t endpoint,
                                                               const void *codeptr_ra) {
  if (begin_type == OT_SYNC_WAIT_BEGIN)
    return ot_filt_inside();
  if (endpoint == ompt_scope_beginend)
    return ot_filt_drop(OT_FC_SYNC, kind, codeptr_ra);
  return endpoint == ompt_scope_begin ? ot_filt_begin(OT_FC_SYNC, kind, codeptr_ra) : ot_filt_end();
}

/* Appends the record(s) of one sync callback (a: of a begin). */
static inline __attribute__((always_inline)) void
sync_record_a(ot_thread *t, unsigned begin_type, unsigned k, ompt_scope_endpoint_t endpoint,
              ompt_data_t *parallel_data, const void *codeptr_ra, uint32_t a) {
  uint64_t pid = ot_parallel_of(parallel_data);
  if (endpoint == ompt_scope_beginend) {
    ot_emit(t, begin_type, k, 0, (uint64_t)codeptr_ra, pid);
    ot_emit(t, begin_type + 1, k, 0, (uint64_t)codeptr_ra, pid);
    return;
  }
  unsigned type = endpoint == ompt_scope_begin ? begin_type : begin_type + 1;
  /* Pairs: region begin -> wait begin, wait end -> region end. */
  int second = type == OT_SYNC_WAIT_BEGIN || type == OT_SYNC_END;
  uint64_t ts = second ? paired_ts(t, type, k) : 0;
  if (!ts)
    ts = ot_clock_now();
  ot_emit_at(t, ts, type, k, a, (uint64_t)codeptr_ra, pid);
  if (!second)
    remember_ts(t, type == OT_SYNC_BEGIN ? OT_SYNC_WAIT_BEGIN : OT_SYNC_END, k, ts);
}

static int implicit_barrier(unsigned kind) {
  return kind == ompt_sync_region_barrier || kind == ompt_sync_region_barrier_implicit ||
         kind == ompt_sync_region_barrier_implicit_workshare ||
         kind == ompt_sync_region_barrier_implicit_parallel;
}

/* The recording paths, one per callback, with the callback's own
 * arguments and the thread last: the handlers reach them with a jump and
 * no argument moves. */
OT_LEAF void sync_region_record(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data, const ompt_data_t *task_data,
                                const void *codeptr_ra, ot_thread *t) {
  (void)task_data;
  sync_record_a(t, OT_SYNC_BEGIN, (unsigned)kind, endpoint, parallel_data, codeptr_ra, 0);
}

OT_LEAF void sync_wait_record(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                              ompt_data_t *parallel_data, const ompt_data_t *task_data,
                              const void *codeptr_ra, ot_thread *t) {
  (void)task_data;
  sync_record_a(t, OT_SYNC_WAIT_BEGIN, (unsigned)kind, endpoint, parallel_data, codeptr_ra, 0);
}

/* The full path with a filter file or throttling (what: kind | begin
 * type << 8). Throttling follows the waits (where a throttled task runs),
 * and an implicit barrier without code address right after a throttled
 * work-sharing construct gets the construct's. */
static __attribute__((noinline)) void sync_event_slow(unsigned what, ompt_scope_endpoint_t endpoint,
                                                      ompt_data_t *parallel_data,
                                                      const ompt_data_t *task_data,
                                                      const void *codeptr_ra, ot_thread *t) {
  unsigned k = what & 0xffu, begin_type = what >> 8;
  if (t->throttle && begin_type == OT_SYNC_WAIT_BEGIN && endpoint != ompt_scope_beginend)
    ot_thr_wait(t, k, endpoint == ompt_scope_begin, ot_task_of(task_data));
  if (ot_filter_on && sync_filtered(begin_type, k, endpoint, codeptr_ra))
    return;
  uint32_t a = 0;
  if (t->throttle && !codeptr_ra && begin_type == OT_SYNC_BEGIN && endpoint == ompt_scope_begin &&
      implicit_barrier(k)) {
    codeptr_ra = (const void *)ot_thr_barrier_cp(t);
    a = codeptr_ra ? OT_SYNC_AFTER_THROTTLED : 0;
  }
  sync_record_a(t, begin_type, k, endpoint, parallel_data, codeptr_ra, a);
}

/* The fast path (events/filter.h): a region's begin decided in its home
 * slot, its end and its wait from the bit stack; an excluded construct
 * returns after a few loads, a kept one jumps to its recording path.
 * Anything else goes the full way. */
OT_LEAF void sync_region_special(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                 ompt_data_t *parallel_data, const ompt_data_t *task_data,
                                 const void *codeptr_ra, ot_thread *t) {
  ot_filter_stack *f = &t->filt;
  if (!ot_filt_fast(t) || endpoint == ompt_scope_beginend)
    goto full;
  if (endpoint == ompt_scope_begin) {
    int drop = ot_filt_begin_home(f, OT_FC_SYNC, (unsigned)kind, codeptr_ra);
    if (drop < 0)
      goto full;
    if (drop)
      return;
  } else if (ot_filt_end_of(f)) {
    return;
  }
  sync_region_record(kind, endpoint, parallel_data, task_data, codeptr_ra, t);
  return;
full:
  sync_event_slow((unsigned)kind | OT_SYNC_BEGIN << 8, endpoint, parallel_data, task_data,
                  codeptr_ra, t);
}

OT_LEAF void sync_wait_special(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                               ompt_data_t *parallel_data, const ompt_data_t *task_data,
                               const void *codeptr_ra, ot_thread *t) {
  if (!ot_filt_fast(t) || endpoint == ompt_scope_beginend) {
    sync_event_slow((unsigned)kind | OT_SYNC_WAIT_BEGIN << 8, endpoint, parallel_data, task_data,
                    codeptr_ra, t);
    return;
  }
  if (!ot_filt_inside_of(&t->filt))
    sync_wait_record(kind, endpoint, parallel_data, task_data, codeptr_ra, t);
}

/* gcc-built code on libomp: GOMP_loop_end reports a loop's closing barrier
 * as an implementation barrier without a code address (libomp stores none
 * for it), where a clang build's loop reports its implicit barrier; no
 * clang-built construct gives an implementation barrier without one
 * (libomp 14-19). Recorded as the loop's implicit barrier: finalize names
 * it after the loop that just ended, as for clang builds. */
static inline ompt_sync_region_t gomp_loop_end(ompt_sync_region_t kind, const void *codeptr_ra) {
  return kind == ompt_sync_region_barrier_implementation && !codeptr_ra
             ? ompt_sync_region_barrier_implicit_workshare
             : kind;
}

void on_ompt_callback_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                  ompt_data_t *parallel_data, ompt_data_t *task_data,
                                  const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (!t)
    return;
  kind = gomp_loop_end(kind, codeptr_ra);
  if (ot_filt_special(t))
    sync_region_special(kind, endpoint, parallel_data, task_data, codeptr_ra, t);
  else
    sync_region_record(kind, endpoint, parallel_data, task_data, codeptr_ra, t);
}

void on_ompt_callback_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                       ompt_data_t *parallel_data, ompt_data_t *task_data,
                                       const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (!t)
    return;
  kind = gomp_loop_end(kind, codeptr_ra);
  if (ot_filt_special(t))
    sync_wait_special(kind, endpoint, parallel_data, task_data, codeptr_ra, t);
  else
    sync_wait_record(kind, endpoint, parallel_data, task_data, codeptr_ra, t);
}

_Static_assert(OT_SYNC_END == OT_SYNC_BEGIN + 1 && OT_SYNC_WAIT_END == OT_SYNC_WAIT_BEGIN + 1,
               "end record follows its begin record");
