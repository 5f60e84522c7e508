/* CSV output: one block per table, "# section.table" then a header of
 * column ids then rows; blocks are separated by an empty line. Raw units
 * (ns, shares 0..1); lists are joined with ';'. */
#include "report.h"

#include <math.h>
#include <string.h>

static void cstr(FILE *f, const char *s) {
  s = s ? s : "";
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void ccell(FILE *f, const rcol *c, const rcell *v) {
  if (v->null)
    return;
  switch (c->type) {
  case RV_STR:
    cstr(f, v->s);
    break;
  case RV_INT:
  case RV_NS:
    fprintf(f, "%lld", (long long)v->i);
    break;
  case RV_PCT:
  case RV_REAL:
  case RV_COUNT:
    if (isfinite(v->d))
      fprintf(f, "%.12g", v->d);
    break;
  default: /* a value that does not apply is an empty list element */
    for (uint32_t k = 0; k < v->nlist; k++) {
      if (k)
        fputc(';', f);
      if (isfinite(v->list[k]))
        fprintf(f, c->type == RV_REALLIST ? "%.12g" : "%.0f", v->list[k]);
    }
  }
}

void out_csv(FILE *f, const report *r) {
  for (int i = 0; i < r->n; i++) {
    const rtable *t = r->t[i];
    if (i)
      fputc('\n', f);
    fprintf(f, "# %s.%s\n", t->section, t->id);
    for (int c = 0; c < t->ncols; c++) {
      if (c)
        fputc(',', f);
      cstr(f, t->cols[c].id);
    }
    fputc('\n', f);
    for (int k = 0; k < t->nrows; k++) {
      for (int c = 0; c < t->ncols; c++) {
        if (c)
          fputc(',', f);
        ccell(f, &t->cols[c], &t->cells[(size_t)k * (size_t)t->ncols + (size_t)c]);
      }
      fputc('\n', f);
    }
  }
}
