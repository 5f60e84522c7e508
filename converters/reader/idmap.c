#include "idmap.h"

#include "otr.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

static void hash_put(otr_idmap *m, uint64_t id, uint32_t v) {
  if (2 * (m->n + 1) > m->cap) {
    uint32_t oc = m->cap, nc = oc ? 2 * oc : 64;
    uint64_t *ok = m->keys;
    uint32_t *ov = m->vals;
    m->keys = otr_xmalloc(nc * sizeof *m->keys);
    m->vals = otr_xmalloc(nc * sizeof *m->vals);
    memset(m->vals, 0xff, nc * sizeof *m->vals);
    m->cap = nc;
    m->n = 0;
    for (uint32_t i = 0; i < oc; i++)
      if (ov[i] != OTR_NONE)
        hash_put(m, ok[i], ov[i]);
    free(ok);
    free(ov);
  }
  uint32_t i = (uint32_t)mix(id) & (m->cap - 1);
  while (m->vals[i] != OTR_NONE && m->keys[i] != id)
    i = (i + 1) & (m->cap - 1);
  if (m->vals[i] == OTR_NONE)
    m->n++;
  m->keys[i] = id;
  m->vals[i] = v;
}

void otr_idmap_put(otr_idmap *m, uint64_t id, uint32_t v) {
  if (id < OTR_IDMAP_DIRECT) {
    if (id >= m->ndirect) {
      uint32_t nn = m->ndirect ? m->ndirect : 64;
      while (nn <= id)
        nn *= 2;
      m->direct = otr_xrealloc(m->direct, nn * sizeof *m->direct);
      memset(m->direct + m->ndirect, 0xff, (nn - m->ndirect) * sizeof *m->direct);
      m->ndirect = nn;
    }
    m->direct[id] = v;
    return;
  }
  hash_put(m, id, v);
}

uint32_t otr_idmap_slow(const otr_idmap *m, uint64_t id) {
  if (id < OTR_IDMAP_DIRECT || !m->cap)
    return OTR_NONE;
  uint32_t i = (uint32_t)mix(id) & (m->cap - 1);
  while (m->vals[i] != OTR_NONE) {
    if (m->keys[i] == id)
      return m->vals[i];
    i = (i + 1) & (m->cap - 1);
  }
  return OTR_NONE;
}

void otr_idmap_free(otr_idmap *m) {
  free(m->direct);
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}
