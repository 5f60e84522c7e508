#define _GNU_SOURCE /* gettid */
/* thread_begin / thread_end: the only handlers allowed to allocate (once
 * per thread): registry slot, buffer, services. */
#include "buffer/buffer.h"
#include "core/filter.h"
#include "core/log.h"
#include "core/threads.h"
#include "events/control.h"
#include "events/emit.h"
#include "events/handlers.h"
#include "events/throttle.h"
#include "services/counters.h"
#include "services/sampler.h"

#include <sys/mman.h>
#include <unistd.h>

void on_ompt_callback_thread_begin(ompt_thread_t thread_type, ompt_data_t *thread_data) {
  if (!atomic_load_explicit(&ot_recording, memory_order_acquire) || ot_self)
    return;
  ot_thread *t = ot_thread_memory(sizeof(ot_thread)); /* page aligned */
  if (!t)
    return;
  *t = (ot_thread){.thread_type = (int)thread_type, .tid = gettid()};
  if (ot_thread_register(t) != 0) {
    static atomic_int warned;
    if (!atomic_exchange(&warned, 1))
      ot_warn("more than %u threads: later threads are not recorded", OT_MAX_THREADS);
    munmap(t, sizeof(ot_thread));
    return;
  }
  if (ot_buffer_thread_init(t) != 0)
    return; /* registered without records: finalize sees an empty location */
  ot_counters_thread_begin(t);
  t->throttle = ot_throttle_table_new();
  /* or: keeps a pause's OT_SP_STALE set since the registration */
  atomic_fetch_or(&t->special,
                  (ot_filter_on ? OT_SP_FILTER : 0u) | (t->throttle ? OT_SP_THROTTLE : 0u));
  ot_filter_thread_begin(t);
  t->begin_ts = ot_clock_now();
  ot_self = t;
  thread_data->ptr = t;
  ot_emit(t, OT_THREAD_BEGIN, (unsigned)thread_type, 0, 0, 0);
  ot_control_thread_begin(t);
  ot_sampler_thread_begin(t);
}

void on_ompt_callback_thread_end(ompt_data_t *thread_data) {
  (void)thread_data;
  ot_thread *t = ot_enter_structural();
  if (!t)
    return;
  ot_sampler_thread_end(t);
  if (t->throttle)
    ot_thr_thread_end(t);
  ot_emit(t, OT_THREAD_END, 0, 0, 0, 0);
  t->end_ts = ot_clock_now();
  ot_counters_thread_end(t);
  atomic_store_explicit(&t->ended, 1, memory_order_release);
  ot_self = NULL;
}
