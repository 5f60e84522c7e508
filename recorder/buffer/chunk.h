/* Per-thread buffer layout (used by the buffer layer only). A thread's budget is one
 * pre-faulted mapping cut into equal chunks used strictly round-robin:
 * the owner fills chunk i, hands it off (FULL) and moves to i+1; the spill
 * thread writes FULL chunks to disk in the same order and frees them. So
 * the in-memory chunks, oldest first, always start at `spill_next`. */
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

  /* Spill thread only (read by streams after the spill thread stopped). */
  uint32_t spill_next;
  int fd;                 /* spill file, -1 until the first spill */
  uint64_t spilled_bytes; /* whole records in the spill file */
  uint64_t lost_first_ts, lost_last_ts;
  int damaged; /* a stream found the spill file damaged (said once, not per pass) */

  /* Snapshot taken when recording stops: what the streams read. */
  int frozen;
  uint32_t frozen_first; /* oldest in-memory chunk */
  uint8_t *frozen_cur;   /* end of the owner's published records */

  ot_chunk chunks[];
} ot_ring;

/* Ring of a location (NULL if it has none). */
ot_ring *ot_ring_get(uint32_t loc);

#endif
