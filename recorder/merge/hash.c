/* A small open-addressing hash table from byte strings to 64-bit values:
 * the local -> global id maps of each rank and the content -> id tables
 * that unify equal definitions (merge/unify.c). */
#include "merge/merge.h"

#include <stdlib.h>
#include <string.h>

typedef struct slot {
  uint64_t hash, val;
  unsigned char *key; /* NULL: empty */
  size_t len;
} slot;

struct mg_hash {
  slot *s;
  size_t cap, n;
};

static uint64_t fnv(const void *key, size_t len) {
  const unsigned char *p = key;
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < len; i++)
    h = (h ^ p[i]) * 1099511628211u;
  return h;
}

mg_hash *mg_hash_new(void) {
  mg_hash *h = mg_xalloc(sizeof *h);
  h->cap = 64;
  h->s = mg_xalloc(h->cap * sizeof *h->s);
  return h;
}

void mg_hash_free(mg_hash *h) {
  if (!h)
    return;
  for (size_t i = 0; i < h->cap; i++)
    free(h->s[i].key);
  free(h->s);
  free(h);
}

static slot *find(slot *s, size_t cap, uint64_t hash, const void *key, size_t len) {
  size_t i = hash & (cap - 1);
  while (s[i].key && !(s[i].hash == hash && s[i].len == len && memcmp(s[i].key, key, len) == 0))
    i = (i + 1) & (cap - 1);
  return &s[i];
}

static void grow(mg_hash *h) {
  size_t cap = h->cap * 2;
  slot *s = mg_xalloc(cap * sizeof *s);
  for (size_t i = 0; i < h->cap; i++)
    if (h->s[i].key)
      *find(s, cap, h->s[i].hash, h->s[i].key, h->s[i].len) = h->s[i];
  free(h->s);
  h->s = s, h->cap = cap;
}

uint64_t *mg_hash_get(mg_hash *h, const void *key, size_t len) {
  slot *s = find(h->s, h->cap, fnv(key, len), key, len);
  return s->key ? &s->val : NULL;
}

uint64_t mg_hash_put(mg_hash *h, const void *key, size_t len, uint64_t val) {
  uint64_t hash = fnv(key, len);
  slot *s = find(h->s, h->cap, hash, key, len);
  if (s->key)
    return s->val;
  s->key = mg_xalloc(len ? len : 1);
  memcpy(s->key, key, len);
  s->hash = hash, s->len = len, s->val = val;
  if (++h->n * 2 > h->cap)
    grow(h);
  return val;
}
