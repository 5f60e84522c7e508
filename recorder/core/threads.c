/* Thread registry: a fixed array of slots claimed with one atomic
 * increment, so thread_begin never locks and finalize can walk every
 * location by index. */
#include "core/threads.h"

#include <stddef.h>

__thread ot_thread *ot_self __attribute__((tls_model("initial-exec")));
atomic_int ot_recording;

static ot_thread *_Atomic slots[OT_MAX_THREADS];
static atomic_uint claimed;

int ot_thread_register(ot_thread *t) {
  unsigned loc = atomic_fetch_add_explicit(&claimed, 1, memory_order_relaxed);
  if (loc >= OT_MAX_THREADS) {
    atomic_fetch_sub_explicit(&claimed, 1, memory_order_relaxed);
    return -1;
  }
  t->loc = loc;
  atomic_store_explicit(&slots[loc], t, memory_order_release);
  return 0;
}

uint32_t ot_thread_count(void) {
  unsigned n = atomic_load_explicit(&claimed, memory_order_acquire);
  return n < OT_MAX_THREADS ? n : OT_MAX_THREADS;
}

ot_thread *ot_thread_get(uint32_t loc) {
  if (loc >= OT_MAX_THREADS)
    return NULL;
  return atomic_load_explicit(&slots[loc], memory_order_acquire);
}
