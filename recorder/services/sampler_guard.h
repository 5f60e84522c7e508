/* The sampler's re-entry guard (after HPCToolkit's hpcrun_safe_enter/exit).
 * A thread inside the tool's own stack walk (a fork/task context capture,
 * or the signal handler itself) must not take a sample: the handler would
 * re-enter libunwind, whose per-thread cache is not re-entrant, and write
 * into a capture that is still open. The flag belongs to one thread and
 * is only touched by that thread and by its own signal handler, so a
 * volatile sig_atomic_t and compiler fences suffice (no atomics). */
#ifndef OMPTRACE_SAMPLER_GUARD_H
#define OMPTRACE_SAMPLER_GUARD_H

#include "services/sampler_buf.h"

#include <stdatomic.h>

/* signal-safe: reachable from the sampling signal handler.
 * Enters the tool's own code on st's thread: 1, or 0 (nothing changed) if
 * the thread is inside already; then the caller must not call
 * ot_safe_exit. The fence keeps the flag store before the guarded work. */
static inline int ot_safe_enter(ot_sampler_thread *st) {
  if (st->busy)
    return 0;
  st->busy = 1;
  atomic_signal_fence(memory_order_seq_cst);
  return 1;
}

/* signal-safe: reachable from the sampling signal handler.
 * Leaves after a successful ot_safe_enter; the fence keeps the guarded
 * work before the flag is cleared. */
static inline void ot_safe_exit(ot_sampler_thread *st) {
  atomic_signal_fence(memory_order_seq_cst);
  st->busy = 0;
}

#endif
