/* unit_intern: the finalize hash tables (recorder/finalize/intern.c).
 * ot_intern gives byte strings dense ids 0..n-1 in insertion order and
 * keeps a NUL-terminated copy of each; ot_u64map maps any 64-bit key (0
 * and UINT64_MAX included) to a value slot that starts at 0. Both start
 * zeroed, grow by doubling and probe linearly, so the cases below force
 * growth well past the initial capacity and keys sharing home slots.
 * ot_grow (finalize/grow.h), the arrays' doubling, is checked beside them. */
#include "check.h"
#include "finalize/grow.h"
#include "finalize/intern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Byte keys with exact lengths: prefixes, embedded and trailing NULs and
 * the empty key must all be told apart. Inserted in this order; want_id is
 * the id of the first insertion of an equal key. */
typedef struct {
  const char *what;
  const char *key;
  uint32_t len;
  uint32_t want_id;
  int want_new;
} intern_case;

static const intern_case intern_cases[] = {
    {"first key", "parallel", 8, 0, 1},
    {"same key again", "parallel", 8, 0, 0},
    {"prefix of a key", "para", 4, 1, 1},
    {"longer key", "parallel@a.c:12", 15, 2, 1},
    {"key with trailing NUL", "para\0", 5, 3, 1},
    {"embedded NUL", "pa\0ra", 5, 4, 1},
    {"empty key", "", 0, 5, 1},
    {"empty key again", "x", 0, 5, 0},
    {"prefix again", "para", 4, 1, 0},
    {"trailing NUL again", "para\0", 5, 3, 0},
    {"embedded NUL again", "pa\0ra", 5, 4, 0},
    {"case differs", "Parallel", 8, 6, 1},
    {"one byte", "p", 1, 7, 1},
    {"high bytes", "\xff\xfe\x80", 3, 8, 1},
    {"high bytes again", "\xff\xfe\x80", 3, 8, 0},
};

static void test_intern_cases(void) {
  ot_intern t = {0};
  for (size_t k = 0; k < sizeof intern_cases / sizeof intern_cases[0]; k++) {
    const intern_case *c = &intern_cases[k];
    int is_new = -1;
    CHECK_U64(c->what, ot_intern_get(&t, c->key, c->len, &is_new), c->want_id);
    CHECK_I64(c->what, is_new, c->want_new);
  }
  CHECK_U64("count of distinct keys", t.n, 9);
  /* The stored copies are the bytes given, NUL-terminated. */
  CHECK_TRUE("key 3 bytes", memcmp(ot_intern_key(&t, 3), "para\0", 6) == 0);
  CHECK_TRUE("key 4 bytes", memcmp(ot_intern_key(&t, 4), "pa\0ra", 6) == 0);
  CHECK_STR("key 0", ot_intern_key(&t, 0), "parallel");
  CHECK_STR("key 2", ot_intern_key(&t, 2), "parallel@a.c:12");
  CHECK_STR("empty key", ot_intern_key(&t, 5), "");
  CHECK_U64("is_new may be NULL", ot_intern_get(&t, "p", 1, NULL), 7);
  ot_intern_free(&t);
  CHECK_U64("free empties the table", t.n, 0);
  CHECK_TRUE("free clears the pointers", !t.slots && !t.keys && !t.lens && !t.hashes);
  int is_new = 0;
  CHECK_U64("reused after free", ot_intern_get(&t, "para", 4, &is_new), 0);
  CHECK_I64("reused after free: new", is_new, 1);
  ot_intern_free(&t);
  ot_intern_free(&t); /* twice is harmless */
}

/* Many keys: ids stay dense and in insertion order across every growth
 * (initial capacity 256 slots, grows at half load), and every key is
 * found again afterwards. */
static void test_intern_many(void) {
  enum { N = 100000 };
  ot_intern t = {0};
  char key[32];
  int bad_ins = 0, bad_find = 0, bad_copy = 0, bad_lookup = 0;
  CHECK_U64("find in an empty table", ot_intern_find(&t, "region-0", 8), UINT32_MAX);
  for (uint32_t i = 0; i < N; i++) {
    int len = snprintf(key, sizeof key, "region-%u", i);
    int is_new = 0;
    if (ot_intern_get(&t, key, (uint32_t)len, &is_new) != i || !is_new)
      bad_ins++;
  }
  for (uint32_t i = N; i-- > 0;) {
    int len = snprintf(key, sizeof key, "region-%u", i);
    int is_new = 1;
    if (ot_intern_get(&t, key, (uint32_t)len, &is_new) != i || is_new)
      bad_find++;
    if (strcmp(ot_intern_key(&t, i), key) != 0)
      bad_copy++;
    if (ot_intern_find(&t, key, (uint32_t)len) != i)
      bad_lookup++;
  }
  CHECK_I64("100000 keys: ot_intern_find gives each id", bad_lookup, 0);
  CHECK_U64("find of an absent key", ot_intern_find(&t, "region-100000", 13), UINT32_MAX);
  CHECK_U64("find of a prefix", ot_intern_find(&t, "region-1", 7), UINT32_MAX);
  CHECK_U64("find inserts nothing", t.n, N);
  CHECK_I64("100000 keys: each new with the next id", bad_ins, 0);
  CHECK_I64("100000 keys: each found again with its id", bad_find, 0);
  CHECK_I64("100000 keys: stored copies", bad_copy, 0);
  CHECK_U64("100000 keys: count", t.n, N);
  CHECK_TRUE("capacity a power of two above twice the count",
             t.cap >= 2u * N && (t.cap & (t.cap - 1)) == 0);
  ot_intern_free(&t);
}

/* Keys whose hashes share the low 12 bits all start probing at one slot
 * for every capacity up to 4096, and the ones landing on the last slot
 * wrap around to slot 0. Found by search, so the case follows the hash. */
static void test_intern_collisions(void) {
  enum { K = 40 };
  char keys[K][24];
  uint32_t lens[K];
  int found = 0;
  for (uint32_t i = 0; found < K && i < 100000000u; i++) {
    int len = snprintf(keys[found], sizeof keys[found], "c%u", i);
    if ((ot_hash_bytes(keys[found], (size_t)len) & 0xfff) == 0xfff)
      lens[found++] = (uint32_t)len;
  }
  CHECK_I64("colliding keys found", found, K);
  ot_intern t = {0};
  char filler[32];
  int bad = 0;
  /* Interleaved with other keys so the table grows between collisions. */
  for (int k = 0; k < found; k++) {
    if (ot_intern_get(&t, keys[k], lens[k], NULL) != (uint32_t)k * 51u)
      bad++;
    for (int f = 0; f < 50; f++) {
      int len = snprintf(filler, sizeof filler, "f%d-%d", k, f);
      ot_intern_get(&t, filler, (uint32_t)len, NULL);
    }
  }
  for (int k = 0; k < found; k++) {
    int is_new = 1;
    if (ot_intern_get(&t, keys[k], lens[k], &is_new) != (uint32_t)k * 51u || is_new)
      bad++;
  }
  CHECK_I64("colliding keys: ids kept and found", bad, 0);
  CHECK_U64("colliding keys: count", t.n, (uint64_t)K * 51u);
  ot_intern_free(&t);
}

/* Long keys: 1 MiB keys that differ only in their last byte, or only in
 * length, are distinct; each is stored whole. */
static void test_intern_long(void) {
  enum { LEN = 1 << 20 };
  static char a[LEN + 1], b[LEN + 1];
  memset(a, 'k', LEN);
  memcpy(b, a, LEN);
  b[LEN - 1] = 'K';
  ot_intern t = {0};
  int is_new = 0;
  CHECK_U64("1 MiB key", ot_intern_get(&t, a, LEN, &is_new), 0);
  CHECK_U64("1 MiB key, last byte differs", ot_intern_get(&t, b, LEN, &is_new), 1);
  CHECK_I64("1 MiB key, last byte differs: new", is_new, 1);
  CHECK_U64("1 MiB key, one byte shorter", ot_intern_get(&t, a, LEN - 1, &is_new), 2);
  CHECK_U64("1 MiB key again", ot_intern_get(&t, a, LEN, &is_new), 0);
  CHECK_I64("1 MiB key again: not new", is_new, 0);
  CHECK_TRUE("1 MiB key stored whole", memcmp(ot_intern_key(&t, 1), b, LEN) == 0);
  CHECK_U64("1 MiB key NUL-terminated", strlen(ot_intern_key(&t, 0)), LEN);
  ot_intern_free(&t);
}

/* ot_u64map: keys in insertion order, the value stored after the put. */
typedef struct {
  const char *what;
  uint64_t key;
  uint64_t store; /* written into the slot after the put */
  int want_new;
  uint64_t want_before; /* slot value the put returns */
} map_case;

static const map_case map_cases[] = {
    {"key 0", 0, 100, 1, 0},
    {"key UINT64_MAX", UINT64_MAX, 200, 1, 0},
    {"key UINT64_MAX-1", UINT64_MAX - 1, 300, 1, 0},
    {"key 1", 1, 400, 1, 0},
    {"key 2^63", 1ull << 63, 500, 1, 0},
    {"key 0 again", 0, 101, 0, 100},
    {"key UINT64_MAX again", UINT64_MAX, 201, 0, 200},
    {"key 2^63 again", 1ull << 63, 501, 0, 500},
    {"key 1 again", 1, 401, 0, 400},
};

static void test_map_cases(void) {
  ot_u64map m = {0};
  CHECK_TRUE("find in a never-used map", ot_u64map_find(&m, 0) == NULL);
  CHECK_TRUE("find UINT64_MAX in a never-used map", ot_u64map_find(&m, UINT64_MAX) == NULL);
  for (size_t k = 0; k < sizeof map_cases / sizeof map_cases[0]; k++) {
    const map_case *c = &map_cases[k];
    int is_new = -1;
    uint64_t *v = ot_u64map_put(&m, c->key, &is_new);
    CHECK_TRUE(c->what, v != NULL);
    if (!v)
      continue;
    CHECK_I64(c->what, is_new, c->want_new);
    CHECK_U64(c->what, *v, c->want_before);
    *v = c->store;
  }
  CHECK_U64("count", m.n, 5);
  const uint64_t *v = ot_u64map_find(&m, 0);
  CHECK_U64("find 0", v ? *v : 0, 101);
  v = ot_u64map_find(&m, UINT64_MAX);
  CHECK_U64("find UINT64_MAX", v ? *v : 0, 201);
  v = ot_u64map_find(&m, UINT64_MAX - 1);
  CHECK_U64("find UINT64_MAX-1", v ? *v : 0, 300);
  CHECK_TRUE("find absent 2", ot_u64map_find(&m, 2) == NULL);
  CHECK_TRUE("find absent 2^63-1", ot_u64map_find(&m, (1ull << 63) - 1) == NULL);
  CHECK_TRUE("put accepts is_new NULL", ot_u64map_put(&m, 7, NULL) != NULL);
  CHECK_U64("count after NULL is_new", m.n, 6);
  ot_u64map_free(&m);
  CHECK_TRUE("free clears", m.n == 0 && m.cap == 0 && !m.keys && !m.vals && !m.used);
  CHECK_TRUE("find after free", ot_u64map_find(&m, 0) == NULL);
  ot_u64map_free(&m);
}

/* Many keys spread over the whole 64-bit range, past the initial 1024
 * slots many times; the keys of the odd i are never inserted. */
static uint64_t spread(uint64_t i) {
  return i * 0x9e3779b97f4a7c15ull;
}

static void test_map_many(void) {
  enum { N = 200000 };
  ot_u64map m = {0};
  int bad_put = 0, bad_find = 0, bad_absent = 0;
  for (uint64_t i = 0; i < 2 * N; i += 2) {
    int is_new = 0;
    uint64_t *v = ot_u64map_put(&m, spread(i), &is_new);
    if (!v || !is_new || *v != 0)
      bad_put++;
    else
      *v = i + 1;
  }
  for (uint64_t i = 0; i < 2 * N; i++) {
    const uint64_t *v = ot_u64map_find(&m, spread(i));
    if (i % 2 == 0 && (!v || *v != i + 1))
      bad_find++;
    if (i % 2 == 1 && v)
      bad_absent++;
  }
  CHECK_I64("200000 keys: each new with value 0", bad_put, 0);
  CHECK_I64("200000 keys: each found with its value", bad_find, 0);
  CHECK_I64("200000 keys: absent keys not found", bad_absent, 0);
  CHECK_U64("200000 keys: count", m.n, N);
  CHECK_TRUE("capacity a power of two above twice the count",
             m.cap >= 2u * N && (m.cap & (m.cap - 1)) == 0);
  ot_u64map_free(&m);
}

/* Keys sharing their home slot in a 1024-slot table (and beyond, the low
 * 12 bits of the hash), including ones homed on the last slot so probing
 * wraps. */
static void test_map_collisions(void) {
  enum { K = 600 };
  static uint64_t keys[K];
  int found = 0;
  for (uint64_t k = 0; found < K && k < 100000000u; k++)
    if ((ot_hash_u64(k) & 0xfff) == 0xfff)
      keys[found++] = k;
  CHECK_I64("colliding u64 keys found", found, K);
  ot_u64map m = {0};
  int bad = 0;
  for (int k = 0; k < found; k++) {
    uint64_t *v = ot_u64map_put(&m, keys[k], NULL);
    if (!v)
      bad++;
    else
      *v = (uint64_t)k + 1;
  }
  for (int k = 0; k < found; k++) {
    const uint64_t *v = ot_u64map_find(&m, keys[k]);
    if (!v || *v != (uint64_t)k + 1)
      bad++;
  }
  CHECK_I64("colliding u64 keys: values kept", bad, 0);
  CHECK_U64("colliding u64 keys: count", m.n, K);
  ot_u64map_free(&m);
}

/* The byte hash covers every byte given, trailing NULs included. */
static void test_hashes(void) {
  CHECK_TRUE("hash of 'a' and 'a\\0' differ", ot_hash_bytes("a", 1) != ot_hash_bytes("a\0", 2));
  CHECK_TRUE("hash of '' and '\\0' differ", ot_hash_bytes("", 0) != ot_hash_bytes("\0", 1));
  CHECK_TRUE("hash of 'ab' and 'ba' differ", ot_hash_bytes("ab", 2) != ot_hash_bytes("ba", 2));
}

/* ot_grow: first allocation at `first`, doubling until `need` fits, new
 * room zeroed, old contents kept, no change when it fits, and a capacity
 * past 32 bits refused with the array untouched. */
static void test_grow(void) {
  uint32_t cap = 0;
  uint64_t *a = ot_grow(NULL, &cap, 1, sizeof *a, 8);
  CHECK_TRUE("first allocation", a != NULL);
  CHECK_U64("first capacity", cap, 8);
  for (uint32_t i = 0; i < cap; i++)
    CHECK_U64("zeroed at first", a[i], 0);
  a[7] = 77;
  uint64_t *same = ot_grow(a, &cap, 8, sizeof *a, 8);
  CHECK_TRUE("fits: same array", same == a);
  CHECK_U64("fits: same capacity", cap, 8);
  a = ot_grow(a, &cap, 9, sizeof *a, 8);
  CHECK_U64("one more doubles", cap, 16);
  CHECK_U64("contents kept", a[7], 77);
  for (uint32_t i = 8; i < cap; i++)
    CHECK_U64("new room zeroed", a[i], 0);
  a = ot_grow(a, &cap, 100, sizeof *a, 8);
  CHECK_U64("doubling to the need", cap, 128);
  CHECK_U64("contents kept after two doublings", a[7], 77);
  uint32_t before = cap;
  CHECK_TRUE("past 32 bits refused", ot_grow(a, &cap, (uint64_t)UINT32_MAX + 1, 1, 8) == NULL);
  CHECK_U64("capacity unchanged when refused", cap, before);
  CHECK_U64("contents kept when refused", a[7], 77);
  free(a);
}

int main(void) {
  test_grow();
  test_intern_cases();
  test_intern_many();
  test_intern_collisions();
  test_intern_long();
  test_map_cases();
  test_map_many();
  test_map_collisions();
  test_hashes();
  return ut_done("unit_intern");
}
