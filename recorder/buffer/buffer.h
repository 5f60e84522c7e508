/* Buffer layer entry points for the tool life cycle, the emit helper and
 * the flusher (which sits above this layer and registers its wake-up). */
#ifndef OMPTRACE_BUFFER_H
#define OMPTRACE_BUFFER_H

#include "core/thread.h"

#include <stddef.h>
#include <stdint.h>

/* Bytes of a thread's buffer that thread_begin pre-faults; the rest is
 * faulted in by the thread as it writes. */
#define OT_BUFFER_HEAD (16u << 10)
/* Chunk size limit: one hand-off per this many bytes of records. */
#define OT_CHUNK_MAX (1u << 20)
/* Smallest buffer a thread gets once OMPTRACE_BUFFER_TOTAL is used up. */
#define OT_BUFFER_FLOOR (256u << 10)

/* Who drains the FULL chunks: called at a hand-off once half of a ring is
 * full and while an owner waits for a free chunk (log/flusher.c). */
void ot_buffer_set_kick(void (*kick)(void));
/* Chunk size and chunks of a buffer of `budget` bytes. */
void ot_buffer_geometry(uint64_t budget, size_t *chunk_size, uint32_t *nchunks);
/* thread_begin: maps t's share of the budget (min(OMPTRACE_BUFFER_SIZE,
 * what is left of OMPTRACE_BUFFER_TOTAL), at least OT_BUFFER_FLOOR),
 * pre-faults its first OT_BUFFER_HEAD bytes, sets t->cur/end/chunk.
 * Returns -1 (with a message) when memory is exhausted. */
int ot_buffer_thread_init(ot_thread *t);
/* Bytes of buffer mapped for all threads so far. */
uint64_t ot_buffer_total_mapped(void);
/* Slow path of the emit helper: hands the full chunk off and returns the
 * start of the next one (waiting for the flusher if none is free). NULL
 * once recording has stopped. */
uint8_t *ot_buffer_refill(ot_thread *t);
/* Finalize: no hand-off after this returns. Call after ot_recording = 0. */
void ot_buffer_stop(void);
/* In a fork child: the rings of the other threads are forgotten (their
 * memory is left alone), self's ring is emptied and becomes location 0's. */
void ot_buffer_fork_child(ot_thread *self);

#endif
