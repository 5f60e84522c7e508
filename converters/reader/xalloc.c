#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *check(void *p) {
  if (!p) {
    fputs("omptrace: out of memory\n", stderr);
    exit(1);
  }
  return p;
}

void *otr_xmalloc(size_t n) {
  return check(malloc(n ? n : 1));
}
void *otr_xcalloc(size_t n, size_t size) {
  return check(calloc(n ? n : 1, size ? size : 1));
}
void *otr_xrealloc(void *p, size_t n) {
  return check(realloc(p, n ? n : 1));
}
char *otr_xstrdup(const char *s) {
  return check(strdup(s ? s : ""));
}
