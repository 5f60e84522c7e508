/* Suspended explicit tasks: an open-addressing table (linear probing,
 * backward-shift deletion) so that suspending and resuming cost O(1)
 * whatever the number of tasks, and an untied task resumed on another
 * location leaves no stale entry behind. */
#include "finalize/suspended.h"
#include "finalize/blocks.h"
#include "finalize/intern.h"

#include <stdlib.h>

static ot_susp *slots;
static uint64_t cap, count, probes; /* cap: power of two or 0 */

static uint64_t home(uint64_t task) {
  return ot_hash_u64(task) & (cap - 1);
}

/* Rare (the table doubles): out of line, so that put keeps a short
 * prologue. */
__attribute__((noinline, cold)) static int grow(void) {
  uint64_t ncap = cap ? cap * 2 : 1024;
  ot_susp *n = calloc(ncap, sizeof *n);
  if (!n)
    return -1;
  ot_susp *old = slots;
  uint64_t ocap = cap;
  slots = n;
  cap = ncap;
  for (uint64_t i = 0; i < ocap; i++) {
    if (!old[i].task)
      continue;
    uint64_t j = home(old[i].task);
    while (slots[j].task)
      j = (j + 1) & (cap - 1);
    slots[j] = old[i];
  }
  free(old);
  return 0;
}

static int64_t lookup(uint64_t task) {
  if (!cap)
    return -1;
  for (uint64_t j = home(task);; j = (j + 1) & (cap - 1)) {
    probes++;
    if (slots[j].task == task)
      return (int64_t)j;
    if (!slots[j].task)
      return -1;
  }
}

void *ot_susp_put(uint64_t task, uint32_t loc, uint32_t n, size_t size) {
  void *copy = ot_block_get(n * size);
  if (!copy)
    return NULL;
  if ((count + 1) * 2 > cap && grow() != 0) {
    ot_block_put(copy);
    return NULL;
  }
  ot_susp e = {task, copy, n, loc};
  uint64_t j = home(task);
  for (;; j = (j + 1) & (cap - 1)) { /* one probe sequence: its entry or a free slot */
    probes++;
    if (slots[j].task == task) {
      ot_block_put(slots[j].frames);
      slots[j] = e;
      return copy;
    }
    if (!slots[j].task)
      break;
  }
  slots[j] = e;
  count++;
  return copy;
}

int ot_susp_take(uint64_t task, ot_susp *out) {
  int64_t found = lookup(task);
  if (found < 0)
    return 0;
  uint64_t i = (uint64_t)found;
  *out = slots[i];
  /* Backward shift: move later entries of the cluster into the hole when
   * their home position does not lie cyclically in (hole, their slot]. */
  for (uint64_t j = (i + 1) & (cap - 1); slots[j].task; j = (j + 1) & (cap - 1)) {
    probes++;
    uint64_t h = home(slots[j].task);
    int stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
    if (!stays) {
      slots[i] = slots[j];
      i = j;
    }
  }
  slots[i].task = 0;
  slots[i].frames = NULL;
  count--;
  return 1;
}

int ot_susp_take_at(uint32_t loc, ot_susp *out) {
  for (uint64_t i = 0; i < cap; i++)
    if (slots[i].task && slots[i].loc == loc)
      return ot_susp_take(slots[i].task, out);
  return 0;
}

uint64_t ot_susp_count(void) {
  return count;
}

uint64_t ot_susp_probes(void) {
  return probes;
}

void ot_susp_done(ot_susp *s) {
  ot_block_put(s->frames);
  s->frames = NULL;
}

void ot_susp_free(void) {
  for (uint64_t i = 0; i < cap; i++)
    if (slots[i].task)
      ot_block_put(slots[i].frames);
  ot_blocks_free();
  free(slots);
  slots = NULL;
  cap = count = probes = 0;
}
