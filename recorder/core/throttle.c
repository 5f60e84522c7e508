/* Throttling set-up (OMPTRACE_THROTTLE): T in clock ticks, the per-thread
 * tables, and what finalize reads of them. */
#define _GNU_SOURCE /* nanosleep */
#include "core/throttle.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "core/threads.h"

#include <time.h>

uint64_t ot_throttle_n, ot_throttle_ticks;
__thread ot_thread *ot_thr_hidden __attribute__((tls_model("initial-exec")));

/* TSC ticks per ns over 2 ms: T only needs to be roughly right. */
static double ticks_per_ns(void) {
  if (!ot_clock_use_tsc)
    return 1.0;
  uint64_t n0 = ot_monotonic_ns(), t0 = __rdtsc();
  struct timespec d = {0, 2000000};
  nanosleep(&d, NULL);
  uint64_t n1 = ot_monotonic_ns(), t1 = __rdtsc();
  return n1 > n0 && t1 > t0 ? (double)(t1 - t0) / (double)(n1 - n0) : 1.0;
}

void ot_throttle_init(void) {
  if (!ot_cfg.throttle_n)
    return;
  ot_throttle_ticks = (uint64_t)((double)ot_cfg.throttle_ns * ticks_per_ns() + 0.5);
  if (!ot_throttle_ticks)
    ot_throttle_ticks = 1;
  ot_throttle_n = ot_cfg.throttle_n;
  ot_verbose("throttle: after %llu instances below %llu ns (%llu ticks)",
             (unsigned long long)ot_throttle_n, (unsigned long long)ot_cfg.throttle_ns,
             (unsigned long long)ot_throttle_ticks);
}

ot_thr_table *ot_throttle_table_new(void) {
  return ot_throttle_n ? ot_thread_memory(sizeof(ot_thr_table)) : NULL;
}

void ot_throttle_unwritten(void (*f)(uint32_t loc, unsigned cls, uint64_t cp, uint64_t count,
                                     uint64_t ticks, void *ctx),
                           void *ctx) {
  for (uint32_t loc = 0; loc < ot_thread_count(); loc++) {
    const ot_thread *t = ot_thread_get(loc);
    ot_thr_table *tab = t ? t->throttle : NULL;
    for (uint32_t i = 0; tab && i < OT_THR_SLOTS; i++) {
      ot_thr_entry *e = &tab->e[i];
      uint64_t key = atomic_load_explicit(&e->key, memory_order_acquire);
      if (key && e->count > e->emitted_count)
        f(loc, OT_THR_KIND(key >> 56, (key >> 48) & 0xfu), e->cp, e->count - e->emitted_count,
          e->ticks - e->emitted_ticks, ctx);
    }
    for (unsigned k = 0; tab && k < OT_THR_NWAIT; k++)
      if (tab->wait_ticks[k] > tab->wait_emitted[k])
        f(loc, OT_THR_KIND(OT_THR_WAIT, k), 0, 0, tab->wait_ticks[k] - tab->wait_emitted[k], ctx);
  }
}
