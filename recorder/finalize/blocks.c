/* Free lists of memory blocks by power-of-two size class. A block keeps
 * its class in a header in front of it; a free block links to the next
 * one through its first bytes. The lists hold at most as many blocks of a
 * class as were out at once, so memory stays bounded by the peak of what
 * was stored. */
#include "finalize/blocks.h"

#include <stdint.h>
#include <stdlib.h>

enum { MIN_SHIFT = 6, NCLASS = 48 };

typedef union header {
  uint32_t cls;
  max_align_t align; /* the block after it stays aligned for anything */
} header;

static void *free_list[NCLASS];

/* The smallest class whose blocks hold `bytes`: a count of leading zeros,
 * not a loop (it is asked at every suspension). */
static unsigned class_of(size_t bytes) {
  if (bytes <= ((size_t)1 << MIN_SHIFT))
    return 0;
  return (unsigned)(64 - __builtin_clzll((unsigned long long)bytes - 1)) - MIN_SHIFT;
}

void *ot_block_get(size_t bytes) {
  unsigned c = class_of(bytes);
  if (c >= NCLASS)
    return NULL;
  void *b = free_list[c];
  if (b) {
    free_list[c] = *(void **)b;
    return b;
  }
  header *h = malloc(sizeof *h + ((size_t)1 << (c + MIN_SHIFT)));
  if (!h)
    return NULL;
  h->cls = c;
  return h + 1;
}

void ot_block_put(void *block) {
  if (!block)
    return;
  unsigned c = ((header *)block - 1)->cls;
  *(void **)block = free_list[c];
  free_list[c] = block;
}

void ot_blocks_free(void) {
  for (unsigned c = 0; c < NCLASS; c++) {
    while (free_list[c]) {
      void *b = free_list[c];
      free_list[c] = *(void **)b;
      free((header *)b - 1);
    }
  }
}
