/* Hash tables for finalize: open addressing with linear probing. */
#include "finalize/intern.h"

#include <stdlib.h>
#include <string.h>

uint64_t ot_hash_bytes(const void *p, size_t len) {
  const unsigned char *s = p;
  uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
  for (size_t i = 0; i < len; i++)
    h = (h ^ s[i]) * 0x100000001b3ull;
  return ot_hash_u64(h);
}

static int intern_grow(ot_intern *t) {
  uint32_t cap = t->cap ? t->cap * 2 : 256;
  uint32_t *slots = calloc(cap, sizeof *slots);
  if (!slots)
    return -1;
  for (uint32_t id = 0; id < t->n; id++) {
    uint32_t i = (uint32_t)t->hashes[id] & (cap - 1);
    while (slots[i])
      i = (i + 1) & (cap - 1);
    slots[i] = id + 1;
  }
  free(t->slots);
  t->slots = slots;
  t->cap = cap;
  return 0;
}

uint32_t ot_intern_find(const ot_intern *t, const void *key, uint32_t len) {
  if (!t->cap)
    return UINT32_MAX;
  uint64_t h = ot_hash_bytes(key, len);
  for (uint32_t i = (uint32_t)h & (t->cap - 1); t->slots[i]; i = (i + 1) & (t->cap - 1)) {
    uint32_t id = t->slots[i] - 1;
    if (t->hashes[id] == h && t->lens[id] == len && memcmp(t->keys[id], key, len) == 0)
      return id;
  }
  return UINT32_MAX;
}

uint32_t ot_intern_get(ot_intern *t, const void *key, uint32_t len, int *is_new) {
  if (is_new)
    *is_new = 0;
  if ((t->n + 1) * 2 > t->cap && intern_grow(t) != 0)
    return UINT32_MAX;
  uint64_t h = ot_hash_bytes(key, len);
  uint32_t i = (uint32_t)h & (t->cap - 1);
  for (; t->slots[i]; i = (i + 1) & (t->cap - 1)) {
    uint32_t id = t->slots[i] - 1;
    if (t->hashes[id] == h && t->lens[id] == len && memcmp(t->keys[id], key, len) == 0)
      return id;
  }
  if (t->n == t->keys_cap) {
    uint32_t kc = t->keys_cap ? t->keys_cap * 2 : 256;
    char **keys = realloc(t->keys, kc * sizeof *keys);
    if (!keys)
      return UINT32_MAX;
    t->keys = keys;
    uint32_t *lens = realloc(t->lens, kc * sizeof *lens);
    if (!lens)
      return UINT32_MAX;
    t->lens = lens;
    uint64_t *hashes = realloc(t->hashes, kc * sizeof *hashes);
    if (!hashes)
      return UINT32_MAX;
    t->hashes = hashes;
    t->keys_cap = kc;
  }
  char *copy = malloc(len + 1u); /* NUL-terminated so string keys print directly */
  if (!copy)
    return UINT32_MAX;
  memcpy(copy, key, len);
  copy[len] = 0;
  uint32_t id = t->n++;
  t->keys[id] = copy;
  t->lens[id] = len;
  t->hashes[id] = h;
  t->slots[i] = id + 1;
  if (is_new)
    *is_new = 1;
  return id;
}

void ot_intern_free(ot_intern *t) {
  for (uint32_t i = 0; i < t->n; i++)
    free(t->keys[i]);
  free(t->keys);
  free(t->lens);
  free(t->hashes);
  free(t->slots);
  memset(t, 0, sizeof *t);
}

static int map_grow(ot_u64map *m) {
  uint64_t cap = m->cap ? m->cap * 2 : 1024;
  uint64_t *keys = malloc(cap * sizeof *keys);
  uint64_t *vals = malloc(cap * sizeof *vals);
  uint8_t *used = calloc(cap, 1);
  if (!keys || !vals || !used) {
    free(keys);
    free(vals);
    free(used);
    return -1;
  }
  for (uint64_t j = 0; j < m->cap; j++) {
    if (!m->used[j])
      continue;
    uint64_t i = ot_hash_u64(m->keys[j]) & (cap - 1);
    while (used[i])
      i = (i + 1) & (cap - 1);
    used[i] = 1;
    keys[i] = m->keys[j];
    vals[i] = m->vals[j];
  }
  free(m->keys);
  free(m->vals);
  free(m->used);
  m->keys = keys;
  m->vals = vals;
  m->used = used;
  m->cap = cap;
  return 0;
}

uint64_t *ot_u64map_find(const ot_u64map *m, uint64_t key) {
  if (!m->cap)
    return NULL;
  for (uint64_t i = ot_hash_u64(key) & (m->cap - 1); m->used[i]; i = (i + 1) & (m->cap - 1))
    if (m->keys[i] == key)
      return &m->vals[i];
  return NULL;
}

uint64_t *ot_u64map_put(ot_u64map *m, uint64_t key, int *is_new) {
  if (is_new)
    *is_new = 0;
  uint64_t *v = ot_u64map_find(m, key);
  if (v)
    return v;
  if ((m->n + 1) * 2 > m->cap && map_grow(m) != 0)
    return NULL;
  uint64_t i = ot_hash_u64(key) & (m->cap - 1);
  while (m->used[i])
    i = (i + 1) & (m->cap - 1);
  m->used[i] = 1;
  m->keys[i] = key;
  m->vals[i] = 0;
  m->n++;
  if (is_new)
    *is_new = 1;
  return &m->vals[i];
}

void ot_u64map_free(ot_u64map *m) {
  free(m->keys);
  free(m->vals);
  free(m->used);
  memset(m, 0, sizeof *m);
}
