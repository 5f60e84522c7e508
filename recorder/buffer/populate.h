/* The owner's half of ahead-of-use population (buffer/populate.c), called
 * by the hand-off in buffer/thread_buffer.c. */
#ifndef OMPTRACE_BUFFER_POPULATE_H
#define OMPTRACE_BUFFER_POPULATE_H

#include "buffer/chunk.h"

#include <stddef.h>

/* Who populates (log/flusher.c, through ot_buffer_set_kicks). */
void ot_populate_set_kick(void (*kick)(void));
/* Owner: asks for r's memory to be resident up to `upto` bytes from mem
 * (at most the ring); wakes the populator when that is more than before. */
void ot_populate_ask(ot_ring *r, size_t upto);

#endif
