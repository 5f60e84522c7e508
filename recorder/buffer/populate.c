/* Ahead-of-use population of the rings. thread_begin pre-faults only the
 * head of a thread's first chunk (fresh memory costs the thread being
 * started 0.7-3 ms per MiB on a VM, and most threads of a wide team record
 * little); the owner asks for more at its head mark and at each hand-off
 * of its first lap, one chunk ahead, and the flusher makes those pages
 * resident with MADV_POPULATE_WRITE, off the recording threads. The
 * madvise only faults pages in, so it is safe while the owner writes the
 * same pages (stores from the flusher would race with its records). */
#include "buffer/populate.h"
#include "buffer/buffer.h"
#include "core/threads.h"

#include <errno.h>
#include <stdatomic.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

static void (*_Atomic kick_fn)(void);
/* The kernel refused MADV_POPULATE_WRITE (EINVAL: older than 5.14): owners
 * stop asking and fault their pages in as they write them. */
static atomic_int unsupported;

void ot_populate_set_kick(void (*kick)(void)) {
  atomic_store(&kick_fn, kick);
}

/* Relaxed: pop_want carries no data, only a range of a mapping that was
 * published with the ring. */
void ot_populate_ask(ot_ring *r, size_t upto) {
  size_t len = (size_t)r->nchunks * r->chunk_size;
  if (upto > len)
    upto = len;
  if (upto <= atomic_load_explicit(&r->pop_want, memory_order_relaxed) ||
      atomic_load_explicit(&unsupported, memory_order_relaxed))
    return;
  atomic_store_explicit(&r->pop_want, upto, memory_order_relaxed);
  void (*k)(void) = atomic_load_explicit(&kick_fn, memory_order_acquire);
  if (k)
    k();
}

void ot_buffer_populate(void) {
  uint32_t n = ot_thread_count();
  for (uint32_t loc = 0; loc < n; loc++) {
    if (atomic_load_explicit(&unsupported, memory_order_relaxed))
      return;
    ot_ring *r = ot_ring_get(loc);
    if (!r)
      continue;
    size_t want = atomic_load_explicit(&r->pop_want, memory_order_relaxed);
    if (want <= r->pop_done)
      continue;
    /* Other failures (out of memory) leave the pages to the owner's own
     * faults, as without population. */
    if (madvise(r->mem + r->pop_done, want - r->pop_done, MADV_POPULATE_WRITE) != 0 &&
        errno == EINVAL)
      atomic_store(&unsupported, 1);
    r->pop_done = want;
  }
}
