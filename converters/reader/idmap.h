/* OTF2 id -> dense index. Small ids (the common case) use a direct table so
 * the per-event lookup is one load; large ids go to an open-addressing hash. */
#ifndef OMPTRACE_OTR_IDMAP_H
#define OMPTRACE_OTR_IDMAP_H

#include <stdint.h>

#define OTR_IDMAP_DIRECT (1u << 20)

typedef struct {
  uint32_t *direct;
  uint32_t ndirect;
  uint64_t *keys;
  uint32_t *vals;
  uint32_t cap, n;
} otr_idmap;

void otr_idmap_put(otr_idmap *m, uint64_t id, uint32_t v);
uint32_t otr_idmap_slow(const otr_idmap *m, uint64_t id);
void otr_idmap_free(otr_idmap *m);

static inline uint32_t otr_idmap_get(const otr_idmap *m, uint64_t id) {
  if (id < m->ndirect)
    return m->direct[id];
  return otr_idmap_slow(m, id);
}

#endif
