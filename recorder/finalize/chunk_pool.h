/* Memory of OTF2's buffer chunks while an archive is written
 * (finalize/chunk_pool.c): 2 MiB slabs cut into chunks, and the chunks of
 * a closed writer reused by the next. */
#ifndef OMPTRACE_CHUNK_POOL_H
#define OMPTRACE_CHUNK_POOL_H

#include <stdint.h>

/* A chunk of `size` bytes (a divisor of 2 MiB), or NULL when size is not
 * one or memory is short. Thread-safe. */
void *ot_chunk_pool_get(uint64_t size);
/* Gives back a chunk of ot_chunk_pool_get(size). */
void ot_chunk_pool_put(void *chunk, uint64_t size);
/* The most bytes of chunks out at once since the slabs were last released. */
uint64_t ot_chunk_pool_peak(void);
/* Unmaps the slabs once every chunk is back (a writer left open keeps its
 * memory, and so the pool, until the process ends). */
void ot_chunk_pool_release(void);

#endif
