/* Spill streams (spill.h): blocks of a stream are appended to the shared
 * temporary file in the order they fill; each stream keeps the offsets of
 * its blocks. */
#include "spill.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define BUF 8192

typedef struct {
  char *buf; /* allocated at the first write */
  size_t len;
  uint64_t *blocks; /* offsets of spilled blocks of BUF bytes */
  uint32_t nblocks, cap;
} stream;

struct cv_spill {
  FILE *tmp;
  uint64_t tmp_size;
  stream *s;
  uint32_t n;
  bool failed;
};

cv_spill *cv_spill_new(void) {
  FILE *tmp = tmpfile();
  if (!tmp)
    return NULL;
  cv_spill *s = otr_xcalloc(1, sizeof *s);
  s->tmp = tmp;
  return s;
}

static stream *get(cv_spill *s, uint32_t i) {
  if (i >= s->n) {
    uint32_t n = i + 1 > 2 * s->n ? i + 1 : 2 * s->n;
    s->s = otr_xrealloc(s->s, n * sizeof *s->s);
    memset(s->s + s->n, 0, (n - s->n) * sizeof *s->s);
    s->n = n;
  }
  return &s->s[i];
}

static void spill_block(cv_spill *s, stream *st) {
  if (st->nblocks == st->cap) {
    st->cap = st->cap ? 2 * st->cap : 16;
    st->blocks = otr_xrealloc(st->blocks, st->cap * sizeof *st->blocks);
  }
  if (fseeko(s->tmp, (off_t)s->tmp_size, SEEK_SET) || fwrite(st->buf, 1, BUF, s->tmp) != BUF)
    s->failed = true;
  st->blocks[st->nblocks++] = s->tmp_size;
  s->tmp_size += BUF;
  st->len = 0;
}

static void put(cv_spill *s, stream *st, const char *p, size_t n) {
  while (n) {
    size_t k = BUF - st->len < n ? BUF - st->len : n;
    memcpy(st->buf + st->len, p, k);
    st->len += k, p += k, n -= k;
    if (st->len == BUF)
      spill_block(s, st);
  }
}

void cv_spill_printf(cv_spill *s, uint32_t i, const char *fmt, ...) {
  stream *st = get(s, i);
  if (!st->buf)
    st->buf = otr_xmalloc(BUF);
  char line[8192];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
  put(s, st, line, len);
}

bool cv_spill_copy(cv_spill *s, uint32_t i, cv_out *o) {
  if (i >= s->n)
    return !s->failed;
  stream *st = &s->s[i];
  char buf[BUF];
  for (uint32_t b = 0; b < st->nblocks && !s->failed; b++) {
    if (fseeko(s->tmp, (off_t)st->blocks[b], SEEK_SET) || fread(buf, 1, BUF, s->tmp) != BUF)
      s->failed = true;
    else
      cv_write(o, buf, BUF);
  }
  if (st->len)
    cv_write(o, st->buf, st->len);
  return !s->failed;
}

void cv_spill_free(cv_spill *s) {
  if (!s)
    return;
  for (uint32_t i = 0; i < s->n; i++) {
    free(s->s[i].buf);
    free(s->s[i].blocks);
  }
  free(s->s);
  fclose(s->tmp);
  free(s);
}
