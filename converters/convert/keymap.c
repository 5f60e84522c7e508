/* Pending flow starts (keymap.h): linear probing; deletion shifts the
 * following entries back so no tombstones accumulate. */
#include "keymap.h"

#include "xalloc.h"

#include <stdlib.h>

static uint32_t slot(const cv_keymap *m, uint64_t key) {
  uint64_t h = key * 0x9e3779b97f4a7c15u;
  return (uint32_t)(h >> 32) & (m->cap - 1);
}

static void grow(cv_keymap *m) {
  cv_keymap old = *m;
  m->cap = old.cap ? 2 * old.cap : 64;
  m->v = otr_xcalloc(m->cap, sizeof *m->v);
  m->n = 0;
  for (uint32_t i = 0; i < old.cap; i++)
    if (old.v[i].used)
      cv_keymap_put(m, old.v[i].key, old.v[i].loc, old.v[i].t);
  free(old.v);
}

void cv_keymap_put(cv_keymap *m, uint64_t key, uint32_t loc, uint64_t t) {
  if (2 * (m->n + 1) > m->cap)
    grow(m);
  uint32_t i = slot(m, key);
  while (m->v[i].used && m->v[i].key != key)
    i = (i + 1) & (m->cap - 1);
  if (!m->v[i].used)
    m->n++;
  m->v[i] = (cv_pending){key, t, loc, true};
}

bool cv_keymap_take(cv_keymap *m, uint64_t key, cv_pending *out) {
  if (!m->cap)
    return false;
  uint32_t i = slot(m, key);
  while (m->v[i].used && m->v[i].key != key)
    i = (i + 1) & (m->cap - 1);
  if (!m->v[i].used)
    return false;
  *out = m->v[i];
  m->v[i].used = false;
  m->n--;
  /* shift back entries whose home slot is not between the hole and them */
  for (uint32_t j = (i + 1) & (m->cap - 1); m->v[j].used; j = (j + 1) & (m->cap - 1)) {
    uint32_t h = slot(m, m->v[j].key);
    bool between = i <= j ? (i < h && h <= j) : (i < h || h <= j);
    if (!between) {
      m->v[i] = m->v[j];
      m->v[j].used = false;
      i = j;
    }
  }
  return true;
}

void cv_keymap_free(cv_keymap *m) {
  free(m->v);
  *m = (cv_keymap){0};
}
