/* Reused memory blocks (finalize/blocks.c): free lists by power-of-two
 * size, so that what is stored and taken back over and over (the frames
 * of suspended tasks) costs no malloc and free each time. */
#ifndef OMPTRACE_BLOCKS_H
#define OMPTRACE_BLOCKS_H

#include <stddef.h>

/* A block of at least `bytes` (from its size's free list, else malloc);
 * NULL when memory runs out. */
void *ot_block_get(size_t bytes);
/* Back to its free list (NULL: nothing). */
void ot_block_put(void *block);
/* Frees every block on the free lists (blocks still out stay valid). */
void ot_blocks_free(void);

#endif
