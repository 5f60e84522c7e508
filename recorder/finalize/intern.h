/* Small hash tables for finalize (single-threaded, grow by doubling):
 * ot_intern maps byte strings to dense ids 0..n-1 in insertion order, so
 * definitions can be written by id; ot_u64map maps 64-bit keys to 64-bit
 * values. */
#ifndef OMPTRACE_INTERN_H
#define OMPTRACE_INTERN_H

#include <stddef.h>
#include <stdint.h>

typedef struct ot_intern {
  uint32_t *slots; /* id + 1, 0 = empty */
  uint32_t cap;    /* power of two */
  uint32_t n;
  uint32_t keys_cap;
  char **keys; /* copies of the keys, by id */
  uint32_t *lens;
  uint64_t *hashes;
} ot_intern;

/* Id of key (len bytes), inserting it if new; *is_new (may be NULL) tells.
 * UINT32_MAX when memory runs out. */
uint32_t ot_intern_get(ot_intern *t, const void *key, uint32_t len, int *is_new);
/* Id of key, or UINT32_MAX when it was never inserted. */
uint32_t ot_intern_find(const ot_intern *t, const void *key, uint32_t len);
static inline const void *ot_intern_key(const ot_intern *t, uint32_t id) {
  return t->keys[id];
}
void ot_intern_free(ot_intern *t);

typedef struct ot_u64map {
  uint64_t *keys; /* key + 1 would overflow: a separate used flag array */
  uint64_t *vals;
  uint8_t *used;
  uint64_t cap;
  uint64_t n;
} ot_u64map;

/* Pointer to the value slot of key, inserted as 0 when new (NULL on OOM). */
uint64_t *ot_u64map_put(ot_u64map *m, uint64_t key, int *is_new);
/* Pointer to the value slot or NULL when absent. */
uint64_t *ot_u64map_find(const ot_u64map *m, uint64_t key);
void ot_u64map_free(ot_u64map *m);

uint64_t ot_hash_bytes(const void *p, size_t len);
static inline uint64_t ot_hash_u64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

#endif
