/* Thread registry: a fixed array of slots claimed with one atomic
 * increment, so thread_begin never locks and finalize can walk every
 * location by index. */
#include "core/threads.h"

#include <stddef.h>
#include <sys/mman.h>

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

void ot_thread_registry_reset(ot_thread *self) {
  unsigned n = ot_thread_count();
  for (unsigned i = 0; i < n; i++)
    atomic_store_explicit(&slots[i], NULL, memory_order_relaxed);
  if (self) {
    self->loc = 0;
    atomic_store_explicit(&slots[0], self, memory_order_relaxed);
  }
  atomic_store_explicit(&claimed, self ? 1u : 0u, memory_order_release);
}

void *ot_thread_memory(size_t size) {
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}
