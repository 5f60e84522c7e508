/* JSON output: {"tool", "version", "archive", <section>: {<table>: rows}}.
 * A key/value table is one object, other tables are arrays of objects keyed
 * by column id; times are integer nanoseconds, shares 0..1. Documented in
 * docs/summary-schema.json. */
#include "report.h"

#include <math.h>
#include <string.h>

static void jstr(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

static void jreal(FILE *f, double d) {
  if (isfinite(d))
    fprintf(f, "%.12g", d);
  else
    fputs("null", f);
}

static void jcell(FILE *f, const rcol *c, const rcell *v) {
  if (v->null) {
    fputs("null", f);
    return;
  }
  switch (c->type) {
  case RV_STR:
    jstr(f, v->s);
    break;
  case RV_INT:
  case RV_NS:
    fprintf(f, "%lld", (long long)v->i);
    break;
  case RV_PCT:
  case RV_REAL:
  case RV_COUNT:
    jreal(f, v->d);
    break;
  default:
    fputc('[', f);
    for (uint32_t k = 0; k < v->nlist; k++) {
      if (k)
        fputc(',', f);
      if (c->type == RV_REALLIST)
        jreal(f, v->list[k]);
      else
        fprintf(f, "%.0f", v->list[k]);
    }
    fputc(']', f);
  }
}

static void jrow(FILE *f, const rtable *t, int r, const char *ind) {
  fputc('{', f);
  for (int c = 0; c < t->ncols; c++) {
    fprintf(f, "%s\n%s  ", c ? "," : "", ind);
    jstr(f, t->cols[c].id);
    fputs(": ", f);
    jcell(f, &t->cols[c], &t->cells[(size_t)r * (size_t)t->ncols + (size_t)c]);
  }
  fprintf(f, "\n%s}", ind);
}

void out_json(FILE *f, const report *r) {
  fputs("{\n  \"tool\": \"omptrace-summary\",\n  \"version\": ", f);
  jstr(f, r->version);
  fputs(",\n  \"archive\": ", f);
  jstr(f, r->archive);
  const char *section = NULL;
  for (int i = 0; i < r->n; i++) {
    const rtable *t = r->t[i];
    if (!section || strcmp(section, t->section)) {
      if (section)
        fputs("\n  }", f);
      fputs(",\n  ", f);
      jstr(f, t->section);
      fputs(": {", f);
      section = t->section;
    } else {
      fputc(',', f);
    }
    fputs("\n    ", f);
    jstr(f, t->id);
    fputs(": ", f);
    if (t->kv) {
      if (t->nrows)
        jrow(f, t, 0, "    ");
      else
        fputs("{}", f);
    } else {
      fputc('[', f);
      for (int k = 0; k < t->nrows; k++) {
        fputs(k ? ",\n      " : "\n      ", f);
        jrow(f, t, k, "      ");
      }
      fputs(t->nrows ? "\n    ]" : "]", f);
    }
  }
  if (section)
    fputs("\n  }", f);
  fputs("\n}\n", f);
}
