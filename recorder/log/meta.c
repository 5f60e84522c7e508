/* META text of the log (meta.h): "key=value\n" lines. The value is the rest
 * of the line after the first '=', so it may hold '=' and blanks. Lines
 * without '=', with an empty or over-long key, and keys past
 * OT_META_MAX_KEYS are ignored: a corrupt frame cannot make it grow
 * without bound beyond its own text. */
#include "log/meta.h"

#include <stdlib.h>
#include <string.h>

#define OT_META_MAX_KEY 255
#define OT_META_MAX_KEYS 4096

typedef struct meta_kv {
  char *key, *value;
} meta_kv;

struct ot_meta {
  meta_kv *kv;
  size_t n, cap;
};

int ot_meta_put(char *buf, size_t cap, size_t *len, const char *key, const char *value) {
  size_t kl = strlen(key), vl = strlen(value);
  if (!kl || kl > OT_META_MAX_KEY || strpbrk(key, "=\n"))
    return -1;
  if (*len > cap || cap - *len < kl + vl + 2)
    return -1;
  char *o = buf + *len;
  for (size_t i = 0; i < kl; i++) /* no NUL: the text is length-bounded */
    o[i] = key[i];
  o[kl] = '=';
  for (size_t i = 0; i < vl; i++)
    o[kl + 1 + i] = value[i] == '\n' || value[i] == '\r' ? ' ' : value[i];
  o[kl + 1 + vl] = '\n';
  *len += kl + vl + 2;
  return 0;
}

ot_meta *ot_meta_new(void) {
  return calloc(1, sizeof(ot_meta));
}

static char *dup_n(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

/* Sets key (kl bytes) to value (vl bytes). */
static int set(ot_meta *m, const char *key, size_t kl, const char *value, size_t vl) {
  char *v = dup_n(value, vl);
  if (!v)
    return -1;
  for (size_t i = 0; i < m->n; i++)
    if (strlen(m->kv[i].key) == kl && !memcmp(m->kv[i].key, key, kl)) {
      free(m->kv[i].value);
      m->kv[i].value = v;
      return 0;
    }
  if (m->n == OT_META_MAX_KEYS) {
    free(v);
    return 0;
  }
  if (m->n == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 32;
    meta_kv *kv = realloc(m->kv, cap * sizeof *kv);
    if (!kv) {
      free(v);
      return -1;
    }
    m->kv = kv;
    m->cap = cap;
  }
  char *k = dup_n(key, kl);
  if (!k) {
    free(v);
    return -1;
  }
  m->kv[m->n++] = (meta_kv){k, v};
  return 0;
}

int ot_meta_add(ot_meta *m, const char *text, size_t len) {
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *eol = nl ? nl : end;
    const char *eq = memchr(p, '=', (size_t)(eol - p));
    size_t kl = eq ? (size_t)(eq - p) : 0;
    if (kl && kl <= OT_META_MAX_KEY && !memchr(p, '\0', (size_t)(eol - p)) &&
        set(m, p, kl, eq + 1, (size_t)(eol - eq - 1)) < 0)
      return -1;
    p = nl ? nl + 1 : end;
  }
  return 0;
}

const char *ot_meta_get(const ot_meta *m, const char *key) {
  for (size_t i = 0; i < m->n; i++)
    if (!strcmp(m->kv[i].key, key))
      return m->kv[i].value;
  return NULL;
}

void ot_meta_free(ot_meta *m) {
  if (!m)
    return;
  for (size_t i = 0; i < m->n; i++) {
    free(m->kv[i].key);
    free(m->kv[i].value);
  }
  free(m->kv);
  free(m);
}
