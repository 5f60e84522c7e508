/* Per-thread buffers: allocation at thread_begin and the chunk hand-off.
 * Per-event cost lives in events/emit.h; this file runs once per chunk. */
#include "buffer/buffer.h"
#include "buffer/chunk.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "core/threads.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static ot_ring *_Atomic rings[OT_MAX_THREADS];

/* Hand-offs in progress and the flag that refuses new ones: finalize sets
 * the flag, then waits for the count to drop to 0 (both seq_cst, so one
 * side always sees the other). */
static atomic_int handoffs_active;
static atomic_int buffers_closed;

ot_ring *ot_ring_get(uint32_t loc) {
  return loc < OT_MAX_THREADS ? atomic_load_explicit(&rings[loc], memory_order_acquire) : NULL;
}

/* Chunks of at most 1 MiB, at least four per thread so the owner keeps
 * writing while the spill thread empties the others. */
static size_t chunk_size_for(uint64_t budget) {
  size_t c = OT_CHUNK_MAX;
  while (c > 4096 && (uint64_t)c * 4 > budget)
    c /= 2;
  return c;
}

void ot_buffer_geometry(size_t *chunk_size, uint32_t *nchunks) {
  size_t csize = chunk_size_for(ot_cfg.buffer_size);
  uint64_t n = ot_cfg.buffer_size / csize;
  *chunk_size = csize;
  *nchunks = n < 2 ? 2 : (uint32_t)n;
}

int ot_buffer_thread_init(ot_thread *t) {
  size_t csize;
  uint32_t n;
  ot_buffer_geometry(&csize, &n);
  ot_ring *r = calloc(1, sizeof *r + n * sizeof(ot_chunk));
  if (!r) {
    ot_warn("out of memory for the buffer of thread %u: it is not recorded", t->loc);
    return -1;
  }
  /* MAP_POPULATE pre-faults now: first-touch faults cost more than the
   * events themselves. */
  r->mem = mmap(NULL, (size_t)n * csize, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (r->mem == MAP_FAILED) {
    ot_warn("cannot map %zu bytes for thread %u: %s; it is not recorded", (size_t)n * csize, t->loc,
            strerror(errno));
    free(r);
    return -1;
  }
  r->owner = t;
  r->chunk_size = csize;
  r->nchunks = n;
  r->fd = -1;
  for (uint32_t i = 0; i < n; i++) {
    r->chunks[i].base = r->mem + (size_t)i * csize;
    r->chunks[i].index = i;
  }
  atomic_store_explicit(&r->chunks[0].state, OT_CHUNK_ACTIVE, memory_order_relaxed);
  t->chunk = &r->chunks[0];
  t->end = r->mem + csize;
  atomic_store_explicit(&t->cur, r->mem, memory_order_release);
  atomic_store_explicit(&rings[t->loc], r, memory_order_release);
  return 0;
}

uint8_t *ot_buffer_refill(ot_thread *t) {
  atomic_fetch_add(&handoffs_active, 1);
  if (atomic_load(&buffers_closed)) {
    atomic_fetch_sub(&handoffs_active, 1);
    return NULL;
  }
  ot_chunk *c = t->chunk;
  ot_ring *r = ot_ring_get(t->loc);
  c->used = (uint64_t)(atomic_load_explicit(&t->cur, memory_order_relaxed) - c->base);
  atomic_store_explicit(&c->state, OT_CHUNK_FULL, memory_order_release);
  /* Spill on demand: only once half of the ring holds unspilled chunks.
   * Runs that fit the budget never write to disk before finalize, and the
   * spill thread does not compete with the OpenMP threads for a CPU. */
  const ot_chunk *half = &r->chunks[(c->index + r->nchunks / 2) % r->nchunks];
  if (atomic_load_explicit(&half->state, memory_order_acquire) == OT_CHUNK_FULL)
    ot_spill_kick();

  ot_chunk *next = &r->chunks[(c->index + 1) % r->nchunks];
  if (atomic_load_explicit(&next->state, memory_order_acquire) != OT_CHUNK_FREE) {
    /* Budget exhausted: wait for the spill thread rather than drop. */
    uint64_t t0 = ot_monotonic_ns();
    while (atomic_load_explicit(&next->state, memory_order_acquire) != OT_CHUNK_FREE) {
      ot_spill_kick();
      struct timespec nap = {0, 50000};
      nanosleep(&nap, NULL);
    }
    t->stall_ns += ot_monotonic_ns() - t0;
  }
  atomic_store_explicit(&next->state, OT_CHUNK_ACTIVE, memory_order_relaxed);
  t->chunk = next;
  t->end = next->base + r->chunk_size;
  atomic_store_explicit(&t->cur, next->base, memory_order_release);
  atomic_fetch_sub(&handoffs_active, 1);
  return next->base;
}

void ot_buffer_stop(void) {
  atomic_store(&buffers_closed, 1);
  while (atomic_load(&handoffs_active) != 0) {
    struct timespec nap = {0, 100000};
    nanosleep(&nap, NULL);
  }
  ot_spill_stop();
  /* Threads still inside a handler (exit() in a parallel region) may add
   * a record or two above the snapshot; the streams never look there. */
  uint32_t n = ot_thread_count();
  for (uint32_t loc = 0; loc < n; loc++) {
    ot_ring *r = ot_ring_get(loc);
    if (!r || r->frozen)
      continue;
    r->frozen_first = r->spill_next;
    r->frozen_cur = atomic_load_explicit(&r->owner->cur, memory_order_acquire);
    r->frozen = 1;
  }
}
