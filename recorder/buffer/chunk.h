/* Per-thread buffer layout, shared by the buffer layer (owner side) and
 * the flusher (log/flusher.c, the only reader while the program runs). A
 * thread's budget is one mapping cut into equal chunks used strictly
 * round-robin: the owner fills chunk i, hands it off (FULL) and moves to
 * i+1; the flusher writes chunks to the log in the same order and frees
 * them. So the in-memory chunks, oldest first, always start at
 * `flush_next`; the flusher may also write the ACTIVE chunk up to the
 * owner's published `cur` and remembers how far it got (`flushed`). */
#ifndef OMPTRACE_CHUNK_H
#define OMPTRACE_CHUNK_H

#include "core/thread.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum { OT_CHUNK_FREE = 0, OT_CHUNK_ACTIVE, OT_CHUNK_FULL };

typedef struct ot_chunk {
  uint8_t *base;
  atomic_uint state;
  uint32_t index;
  uint64_t used; /* bytes of whole records; written before state becomes FULL */
} ot_chunk;

typedef struct ot_ring {
  ot_thread *owner;
  uint8_t *mem;
  size_t chunk_size;
  uint32_t nchunks;
  /* 1 while the owner waits for a free chunk: the flusher may then discard
   * the oldest chunk if it cannot be written. */
  atomic_int waiting;

  /* Flusher only. */
  uint32_t flush_next; /* oldest chunk not completely written */
  uint64_t flushed;    /* bytes of chunk flush_next already in the log */

  ot_chunk chunks[];
} ot_ring;

/* Ring of a location (NULL if it has none). */
ot_ring *ot_ring_get(uint32_t loc);

#endif
