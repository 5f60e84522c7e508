/* Buffer layer entry points for the tool life cycle and the emit helper. */
#ifndef OMPTRACE_BUFFER_H
#define OMPTRACE_BUFFER_H

#include "core/thread.h"

#include <stddef.h>
#include <stdint.h>

/* Chunk size limit: one hand-off per this many bytes of records. */
#define OT_CHUNK_MAX (1u << 20)

/* Remembers where spill files go (<dir>/.spill/). Returns -1 if the
 * directory cannot be created. */
int ot_buffer_init(const char *out_dir);
/* Chunk size and chunks per thread for the configured budget. */
void ot_buffer_geometry(size_t *chunk_size, uint32_t *nchunks);
/* thread_begin: maps and pre-faults t's budget, sets t->cur/end/chunk.
 * Returns -1 (with a message) when memory is exhausted. */
int ot_buffer_thread_init(ot_thread *t);
/* Slow path of the emit helper: hands the full chunk off and returns the
 * start of the next one (waiting for the spill thread if none is free).
 * NULL once recording has stopped. */
uint8_t *ot_buffer_refill(ot_thread *t);
/* Finalize: no hand-off after this returns; drains and stops the spill
 * thread, then freezes every ring for the streams. Call after
 * ot_recording = 0. */
void ot_buffer_stop(void);
/* After a successful archive write: removes <dir>/.spill/. */
void ot_buffer_cleanup(void);

/* Spill thread (buffer/spill.c). */
void ot_spill_kick(void); /* wakes (and at first starts) the spill thread */
/* Finalize: stops and joins the spill thread without a last pass (FULL
 * chunks stay in memory for the streams) and closes the spill files. */
void ot_spill_stop(void);
const char *ot_spill_dir(void); /* <out>/.spill */

#endif
