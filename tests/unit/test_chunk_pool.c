/* unit_chunk_pool: OTF2's chunk memory (recorder/finalize/chunk_pool.c).
 * Chunks of a size dividing 2 MiB come from 2 MiB slabs, eight of 256 KiB
 * to a slab in address order; a chunk given back is the next one
 * handed out (its pages are warm); two sizes never share a list; other
 * sizes are refused; release keeps the slabs while a chunk is out and
 * unmaps them once all are back. */
#include "check.h"
#include "finalize/chunk_pool.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define KIB 1024u
#define SLAB ((uintptr_t)2 << 20)

/* 1 while [p, p + 4 KiB) is mapped (mincore fails with ENOMEM where not). */
static int mapped(void *p) {
  unsigned char v;
  return mincore(p, 4096, &v) == 0 ? 1 : (errno == ENOMEM ? 0 : -1);
}

int main(void) {
  uint8_t *c[9];
  for (int i = 0; i < 9; i++)
    c[i] = ot_chunk_pool_get(256 * KIB);
  CHECK_TRUE("chunks handed out", c[0] && c[8]);
  int same = 1;
  for (int i = 1; i < 8; i++)
    same &= c[i] == c[0] + (size_t)i * 256 * KIB;
  CHECK_TRUE("eight chunks of a slab in address order", same);
  CHECK_TRUE("the ninth from a new slab", c[8] < c[0] || c[8] >= c[0] + SLAB);
  for (int i = 0; i < 9; i++) /* OTF2 writes all of a chunk */
    memset(c[i], i + 1, 256 * KIB);
  ot_chunk_pool_put(c[3], 256 * KIB);
  CHECK_TRUE("a chunk given back is handed out next", ot_chunk_pool_get(256 * KIB) == c[3]);
  uint8_t *big = ot_chunk_pool_get(1024 * KIB);
  CHECK_TRUE("1 MiB chunks from their own slab",
             big && (big < c[0] || big >= c[0] + SLAB) && (big < c[8] || big >= c[8] + SLAB));
  ot_chunk_pool_put(c[5], 256 * KIB);
  CHECK_TRUE("sizes do not mix", ot_chunk_pool_get(1024 * KIB) == big + 1024 * KIB);
  CHECK_TRUE("the 256 KiB chunk is still there", ot_chunk_pool_get(256 * KIB) == c[5]);
  CHECK_TRUE("a size that does not divide 2 MiB", ot_chunk_pool_get(768 * KIB) == NULL);
  CHECK_TRUE("larger than a slab", ot_chunk_pool_get(4096 * KIB) == NULL);
  CHECK_TRUE("zero", ot_chunk_pool_get(0) == NULL);
  CHECK_U64("peak: nine 256 KiB and two 1 MiB chunks out", ot_chunk_pool_peak(),
            9 * 256 * KIB + 2 * 1024 * KIB);

  for (int i = 0; i < 8; i++)
    ot_chunk_pool_put(c[i], 256 * KIB);
  ot_chunk_pool_put(big, 1024 * KIB);
  ot_chunk_pool_put(big + 1024 * KIB, 1024 * KIB);
  ot_chunk_pool_release(); /* c[8] is still out */
  CHECK_I64("a chunk out keeps the slabs", mapped(c[0]), 1);
  CHECK_U64("and its content", c[8][256 * KIB - 1], 9);
  ot_chunk_pool_put(c[8], 256 * KIB);
  ot_chunk_pool_release();
  CHECK_I64("all back: the slabs are unmapped", mapped(c[0]), 0);
  CHECK_I64("all of them", mapped(c[8]) + mapped(big), 0);
  CHECK_U64("the peak starts over too", ot_chunk_pool_peak(), 0);
  uint8_t *again = ot_chunk_pool_get(256 * KIB);
  CHECK_TRUE("the pool starts over", again != NULL);
  CHECK_U64("peak: one chunk", ot_chunk_pool_peak(), 256 * KIB);
  ot_chunk_pool_put(again, 256 * KIB);
  ot_chunk_pool_release();
  return ut_done("unit_chunk_pool");
}
