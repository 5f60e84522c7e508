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
#include <sys/resource.h>
#include <time.h>

static ot_ring *_Atomic rings[OT_MAX_THREADS];
static void (*_Atomic kick_fn)(void);
/* Bytes handed out of OMPTRACE_BUFFER_TOTAL. */
static _Atomic uint64_t reserved;

/* Hand-offs in progress and the flag that refuses new ones: finalize sets
 * the flag, then waits for the count to drop to 0 (both seq_cst, so one
 * side always sees the other). */
static atomic_int handoffs_active;
static atomic_int buffers_closed;

ot_ring *ot_ring_get(uint32_t loc) {
  return loc < OT_MAX_THREADS ? atomic_load_explicit(&rings[loc], memory_order_acquire) : NULL;
}

void ot_buffer_set_kick(void (*kick)(void)) {
  atomic_store(&kick_fn, kick);
}

static void kick(void) {
  void (*k)(void) = atomic_load_explicit(&kick_fn, memory_order_acquire);
  if (k)
    k();
}

/* Chunks of at most 1 MiB, at least four per thread so the owner keeps
 * writing while the flusher empties the others. */
void ot_buffer_geometry(uint64_t budget, size_t *chunk_size, uint32_t *nchunks) {
  size_t c = OT_CHUNK_MAX;
  while (c > 4096 && (uint64_t)c * 4 > budget)
    c /= 2;
  uint64_t n = budget / c;
  *chunk_size = c;
  *nchunks = n < 2 ? 2 : (uint32_t)n;
}

uint64_t ot_buffer_total_mapped(void) {
  return atomic_load(&reserved);
}

/* The total, but at most a quarter of the address-space limit (ulimit -v):
 * the program's own thread stacks and heap must still fit. */
static uint64_t total_budget(void) {
  static _Atomic uint64_t cached;
  uint64_t total = atomic_load(&cached);
  if (total)
    return total;
  total = ot_cfg.buffer_total;
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 4 < total)
    total = rl.rlim_cur / 4;
  atomic_store(&cached, total);
  return total;
}

/* min(BUFFER_SIZE, what is left of the total), never below the floor:
 * thousands of threads share one budget instead of each taking 16 MiB. */
static uint64_t claim_budget(void) {
  uint64_t want = ot_cfg.buffer_size, total = total_budget();
  uint64_t old = atomic_load(&reserved), give;
  do {
    uint64_t left = old < total ? total - old : 0;
    give = want < left ? want : left;
    if (give < OT_BUFFER_FLOOR)
      give = want < OT_BUFFER_FLOOR ? want : OT_BUFFER_FLOOR;
  } while (!atomic_compare_exchange_weak(&reserved, &old, old + give));
  return give;
}

/* Huge pages for the chunks past the first OT_HUGE bytes: a thread that
 * records that much takes one page fault per 2 MiB instead of 512 (a
 * first-touch fault costs more than a hundred events on a VM), while the
 * many threads that record little still touch 4 KiB pages only. */
#define OT_HUGE ((size_t)2 << 20)

static void advise_pages(uint8_t *mem, size_t len) {
  size_t small = len < OT_HUGE ? len : OT_HUGE;
  /* Failure only costs speed (a kernel without THP). */
  (void)madvise(mem, small, MADV_NOHUGEPAGE);
  if (len > OT_HUGE)
    (void)madvise(mem + OT_HUGE, len - OT_HUGE, MADV_HUGEPAGE);
}

/* One mapping for the ring header and its chunks (no malloc on the new
 * thread: glibc would reserve a 64 MiB arena for it). The chunks start
 * on a huge-page boundary: the header sits in the page below it. */
static ot_ring *map_ring(uint64_t budget) {
  size_t csize;
  uint32_t n;
  ot_buffer_geometry(budget, &csize, &n);
  size_t head = (sizeof(ot_ring) + n * sizeof(ot_chunk) + 4095) & ~(size_t)4095;
  size_t len = (size_t)n * csize, slack = len > OT_HUGE ? OT_HUGE : 0;
  uint8_t *m = mmap(NULL, head + len + slack, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return NULL;
  uint8_t *mem = m + head;
  if (slack) {
    uintptr_t aligned = ((uintptr_t)mem + OT_HUGE - 1) & ~(uintptr_t)(OT_HUGE - 1);
    size_t below = aligned - (uintptr_t)mem;
    if (below)
      munmap(m, below);
    m += below;
    mem += below;
    if (slack - below)
      munmap(mem + len, slack - below);
  }
  advise_pages(mem, len);
  ot_ring *r = (ot_ring *)m;
  r->mem = mem;
  r->chunk_size = csize;
  r->nchunks = n;
  return r;
}

int ot_buffer_thread_init(ot_thread *t) {
  uint64_t budget = claim_budget();
  /* Pages are touched as they are used (no MAP_POPULATE of the whole
   * budget: 256 threads would fault in 4 GiB). Only the head is
   * pre-faulted, so the first events take no page fault: a whole chunk per
   * thread doubled the start of a team of 256. Populating further ahead
   * from the flusher did not pay (docs/recording.md). */
  ot_ring *r = map_ring(budget);
  if (!r && budget > OT_BUFFER_FLOOR) /* address space is short: the floor may fit */
    r = map_ring(OT_BUFFER_FLOOR);
  if (!r) {
    ot_warn("cannot map the buffer of thread %u: %s; it is not recorded", t->loc, strerror(errno));
    return -1;
  }
  size_t csize = r->chunk_size;
  uint32_t n = r->nchunks;
  size_t head = csize < OT_BUFFER_HEAD ? csize : OT_BUFFER_HEAD;
  for (size_t off = 0; off < head; off += 4096)
    ((volatile uint8_t *)r->mem)[off] = 0;
  r->owner = t;
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
  /* Flush on demand: once half of the ring holds unwritten chunks (the
   * periodic flush writes the rest), so the flusher does not compete with
   * the OpenMP threads for a CPU at every chunk. */
  const ot_chunk *half = &r->chunks[(c->index + r->nchunks / 2) % r->nchunks];
  if (atomic_load_explicit(&half->state, memory_order_acquire) == OT_CHUNK_FULL)
    kick();

  ot_chunk *next = &r->chunks[(c->index + 1) % r->nchunks];
  if (atomic_load_explicit(&next->state, memory_order_acquire) != OT_CHUNK_FREE) {
    /* Budget exhausted: wait for the flusher rather than drop; it
     * discards the oldest chunk (counted) only when it cannot write. */
    uint64_t t0 = ot_monotonic_ns();
    atomic_store(&r->waiting, 1);
    while (atomic_load_explicit(&next->state, memory_order_acquire) != OT_CHUNK_FREE) {
      kick();
      struct timespec nap = {0, 50000};
      nanosleep(&nap, NULL);
    }
    atomic_store(&r->waiting, 0);
    /* Atomic: the flusher reports it while the program runs. */
    __atomic_store_n(&t->stall_ns, t->stall_ns + (ot_monotonic_ns() - t0), __ATOMIC_RELAXED);
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
}

void ot_buffer_fork_child(ot_thread *self) {
  ot_ring *mine = NULL;
  for (uint32_t loc = 0; loc < OT_MAX_THREADS; loc++) {
    ot_ring *r = atomic_load_explicit(&rings[loc], memory_order_relaxed);
    if (r && self && r->owner == self)
      mine = r;
    atomic_store_explicit(&rings[loc], NULL, memory_order_relaxed);
  }
  atomic_store(&handoffs_active, 0);
  if (!mine)
    return;
  for (uint32_t i = 0; i < mine->nchunks; i++)
    atomic_store_explicit(&mine->chunks[i].state, OT_CHUNK_FREE, memory_order_relaxed);
  atomic_store_explicit(&mine->chunks[0].state, OT_CHUNK_ACTIVE, memory_order_relaxed);
  atomic_store(&mine->waiting, 0);
  mine->flush_next = 0;
  mine->flushed = 0;
  self->chunk = &mine->chunks[0];
  self->end = mine->mem + mine->chunk_size;
  self->records = 0;
  self->lost = 0;
  self->stall_ns = 0;
  atomic_store_explicit(&self->cur, mine->mem, memory_order_release);
  atomic_store_explicit(&rings[0], mine, memory_order_release);
  atomic_store(&reserved, (uint64_t)mine->nchunks * mine->chunk_size);
}
