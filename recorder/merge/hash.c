/* The merge's tables from byte-string keys to 64-bit values (the local ->
 * global id maps of each rank and the content -> id tables that unify
 * equal definitions, merge/unify.c): finalize's ot_intern gives each key a
 * dense id, a value array by that id holds the values. Out of memory ends
 * the merge with one line, like every allocation here. */
#include "finalize/intern.h"
#include "merge/merge.h"

#include <stdlib.h>

struct mg_hash {
  ot_intern keys;
  uint64_t *vals;
  uint32_t cap;
};

mg_hash *mg_hash_new(void) {
  return mg_xalloc(sizeof(mg_hash));
}

void mg_hash_free(mg_hash *h) {
  if (!h)
    return;
  ot_intern_free(&h->keys);
  free(h->vals);
  free(h);
}

uint64_t *mg_hash_get(mg_hash *h, const void *key, size_t len) {
  uint32_t id = len <= UINT32_MAX ? ot_intern_find(&h->keys, key, (uint32_t)len) : UINT32_MAX;
  return id == UINT32_MAX ? NULL : &h->vals[id];
}

uint64_t mg_hash_put(mg_hash *h, const void *key, size_t len, uint64_t val) {
  int is_new = 0;
  uint32_t id =
      len < UINT32_MAX ? ot_intern_get(&h->keys, key, (uint32_t)len, &is_new) : UINT32_MAX;
  if (id == UINT32_MAX) {
    mg_error("out of memory");
    exit(1);
  }
  if (!is_new)
    return h->vals[id];
  if (id >= h->cap) {
    uint32_t cap = h->cap ? h->cap * 2 : 64;
    uint64_t *v = realloc(h->vals, cap * sizeof *v);
    if (!v) {
      mg_error("out of memory");
      exit(1);
    }
    h->vals = v;
    h->cap = cap;
  }
  h->vals[id] = val;
  return val;
}
