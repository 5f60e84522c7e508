/* OTF2 chunk memory (chunk_pool.h). OTF2 writes into every chunk it takes,
 * so each chunk's pages fault in at first use; on a VM a 4 KiB fault costs
 * about 2 us, and 256 locations took 16 384 of them for their first event
 * chunks, then as many again for their definition writers. Slabs of one
 * huge page fault in once per 2 MiB where the kernel allows it
 * (MADV_HUGEPAGE), and a chunk handed back goes to the next writer that asks
 * (last in, first out: its pages are still mapped and warm). */
#include "finalize/chunk_pool.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define SLAB ((size_t)2 << 20)
#define SIZES 4 /* chunk sizes in use at once: OTF2 asks for two */

typedef struct free_chunk {
  struct free_chunk *next;
} free_chunk;

typedef struct slab {
  struct slab *next;
  void *map; /* what to unmap: map_len bytes */
  size_t map_len;
} slab;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  uint64_t size;
  free_chunk *free;
} lists[SIZES];
static slab *slabs;
static uint64_t out; /* chunks handed out and not back */

/* A new slab aligned to its size (so that it can be one huge page), cut
 * into chunks of `size` on list k. */
static int grow(int k, uint64_t size) {
  slab *s = malloc(sizeof *s);
  if (!s)
    return -1;
  size_t len = 2 * SLAB;
  uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) {
    free(s);
    return -1;
  }
  uint8_t *base = (uint8_t *)(((uintptr_t)m + SLAB - 1) & ~(uintptr_t)(SLAB - 1));
  /* Keep only the aligned slab: the rest goes back at once. */
  if (base > m)
    munmap(m, (size_t)(base - m));
  if (m + len > base + SLAB)
    munmap(base + SLAB, (size_t)(m + len - (base + SLAB)));
  (void)madvise(base, SLAB, MADV_HUGEPAGE); /* failure costs speed only */
  s->map = base;
  s->map_len = SLAB;
  s->next = slabs;
  slabs = s;
  /* In address order from the head: the first chunks taken share pages. */
  for (size_t off = SLAB; off >= size; off -= size) {
    free_chunk *c = (free_chunk *)(void *)(base + off - size);
    c->next = lists[k].free;
    lists[k].free = c;
  }
  return 0;
}

static int list_of(uint64_t size) {
  for (int k = 0; k < SIZES; k++)
    if (lists[k].size == size || !lists[k].size) {
      lists[k].size = size;
      return k;
    }
  return -1;
}

void *ot_chunk_pool_get(uint64_t size) {
  if (!size || size > SLAB || SLAB % size)
    return NULL;
  pthread_mutex_lock(&lock);
  void *c = NULL;
  int k = list_of(size);
  if (k >= 0 && (lists[k].free || grow(k, size) == 0)) {
    free_chunk *f = lists[k].free;
    lists[k].free = f->next;
    out++;
    c = f;
  }
  pthread_mutex_unlock(&lock);
  return c;
}

void ot_chunk_pool_put(void *chunk, uint64_t size) {
  pthread_mutex_lock(&lock);
  int k = list_of(size);
  if (k >= 0) {
    free_chunk *f = chunk;
    f->next = lists[k].free;
    lists[k].free = f;
    out--;
  }
  pthread_mutex_unlock(&lock);
}

void ot_chunk_pool_release(void) {
  pthread_mutex_lock(&lock);
  if (out == 0) {
    while (slabs) {
      slab *s = slabs;
      slabs = s->next;
      munmap(s->map, s->map_len);
      free(s);
    }
    for (int k = 0; k < SIZES; k++)
      lists[k].size = 0, lists[k].free = NULL;
  }
  pthread_mutex_unlock(&lock);
}
