/* Growing arrays of definitions, allocation that cannot fail quietly, and
 * the tool's one-line errors. */
#include "merge/merge.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mg_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs(ME ": ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* OTF2's own error reports: the last one goes into our one line. */
static char otf2_message[512];

static OTF2_ErrorCode on_otf2_error(void *u, const char *file, uint64_t line, const char *func,
                                    OTF2_ErrorCode code, const char *msg, va_list va) {
  (void)u, (void)file, (void)line, (void)func;
  vsnprintf(otf2_message, sizeof otf2_message, msg, va);
  return code;
}

void mg_quiet_otf2(void) {
  OTF2_Error_RegisterCallback(on_otf2_error, NULL);
}

const char *mg_otf2_message(OTF2_ErrorCode e) {
  return otf2_message[0] ? otf2_message : OTF2_Error_GetDescription(e);
}

void *mg_xalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) {
    mg_error("out of memory");
    exit(1);
  }
  return p;
}

char *mg_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = mg_xalloc(n);
  memcpy(p, s, n);
  return p;
}

mg_def *mg_defs_add(mg_defs *d) {
  if (d->n == d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 64;
    mg_def *v = mg_xalloc(cap * sizeof *v);
    if (d->n)
      memcpy(v, d->v, d->n * sizeof *v);
    free(d->v);
    d->v = v, d->cap = cap;
  }
  mg_def *x = &d->v[d->n++];
  memset(x, 0, sizeof *x);
  return x;
}

void mg_defs_free(mg_defs *d) {
  for (size_t i = 0; i < d->n; i++)
    free(d->v[i].members), free(d->v[i].text);
  free(d->v);
  memset(d, 0, sizeof *d);
}

void mg_grow(void **v, size_t *cap, size_t n, size_t sz) {
  if (n < *cap)
    return;
  size_t c = *cap ? 2 * *cap : 64;
  void *p = mg_xalloc(c * sz);
  if (n)
    memcpy(p, *v, n * sz);
  free(*v);
  *v = p, *cap = c;
}
