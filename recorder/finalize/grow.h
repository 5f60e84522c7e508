/* Growth by doubling for finalize's arrays, so each one is a single call
 * and a failed allocation leaves the array as it was. */
#ifndef OMPTRACE_GROW_H
#define OMPTRACE_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Returns p enlarged to hold at least `need` elements of `size` bytes
 * (capacity *cap, doubled from `first`; the new room is zeroed), or NULL
 * when memory runs out (p and *cap unchanged). */
static inline void *ot_grow(void *p, uint32_t *cap, uint64_t need, size_t size, uint32_t first) {
  if (need <= *cap)
    return p;
  uint64_t n = *cap ? *cap : first;
  while (n < need)
    n *= 2;
  if (n > UINT32_MAX)
    return NULL;
  char *q = realloc(p, n * size);
  if (!q)
    return NULL;
  memset(q + (size_t)*cap * size, 0, (size_t)(n - *cap) * size);
  *cap = (uint32_t)n;
  return q;
}

#endif
