#include "report.h"

#include "xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

report *rp_new(const char *archive) {
  report *r = otr_xcalloc(1, sizeof *r);
  r->archive = otr_xstrdup(archive);
  return r;
}

void rp_free(report *r) {
  if (!r)
    return;
  for (int i = 0; i < r->n; i++) {
    rtable *t = r->t[i];
    for (int k = 0; k < t->nrows * t->ncols; k++) {
      free(t->cells[k].s);
      free(t->cells[k].list);
    }
    for (int c = 0; c < t->ncols; c++) {
      free(t->cols[c].id);
      free(t->cols[c].title);
    }
    free(t->cols);
    free(t->cells);
    free(t->section);
    free(t->id);
    free(t->title);
    free(t->note);
    free(t);
  }
  free(r->t);
  free(r->archive);
  free(r);
}

rtable *rt_new(report *r, const char *section, const char *id, const char *title, bool kv) {
  rtable *t = otr_xcalloc(1, sizeof *t);
  t->section = otr_xstrdup(section);
  t->id = otr_xstrdup(id);
  t->title = otr_xstrdup(title);
  t->kv = kv;
  r->t = otr_xrealloc(r->t, (size_t)(r->n + 1) * sizeof *r->t);
  r->t[r->n++] = t;
  return t;
}

void rt_col(rtable *t, const char *id, const char *title, rv_type type) {
  t->cols = otr_xrealloc(t->cols, (size_t)(t->ncols + 1) * sizeof *t->cols);
  t->cols[t->ncols].id = otr_xstrdup(id);
  t->cols[t->ncols].title = otr_xstrdup(title);
  t->cols[t->ncols].type = type;
  t->ncols++;
}

void rt_row(rtable *t) {
  if (t->nrows == t->caprows) {
    t->caprows = t->caprows ? 2 * t->caprows : 16;
    t->cells = otr_xrealloc(t->cells, (size_t)t->caprows * (size_t)t->ncols * sizeof *t->cells);
  }
  memset(t->cells + (size_t)t->nrows * (size_t)t->ncols, 0, (size_t)t->ncols * sizeof *t->cells);
  t->nrows++;
  t->fill = 0;
}

static rcell *next(rtable *t) {
  if (!t->nrows || t->fill >= t->ncols)
    abort(); /* a programming error: more cells than columns */
  return &t->cells[(size_t)(t->nrows - 1) * (size_t)t->ncols + (size_t)t->fill++];
}

void rt_str(rtable *t, const char *s) {
  next(t)->s = otr_xstrdup(s);
}
void rt_int(rtable *t, int64_t v) {
  next(t)->i = v;
}
void rt_ns(rtable *t, uint64_t ns) {
  next(t)->i = (int64_t)ns;
}
void rt_pct(rtable *t, double s) {
  next(t)->d = s;
}
void rt_real(rtable *t, double v) {
  next(t)->d = v;
}
void rt_count(rtable *t, double v) {
  next(t)->d = v;
}
void rt_null(rtable *t) {
  next(t)->null = true;
}
void rt_null_as(rtable *t, const char *text) {
  rcell *c = next(t);
  c->null = true;
  c->s = otr_xstrdup(text);
}

void rt_list(rtable *t, const double *v, uint32_t n) {
  rcell *c = next(t);
  c->list = otr_xmalloc((n ? n : 1) * sizeof *c->list);
  if (n)
    memcpy(c->list, v, n * sizeof *v);
  c->nlist = n;
}

void rt_note(rtable *t, const char *fmt, ...) {
  char buf[1024];
  va_list va;
  va_start(va, fmt);
  vsnprintf(buf, sizeof buf, fmt, va);
  va_end(va);
  free(t->note);
  t->note = otr_xstrdup(buf);
}

const rtable *rp_find(const report *r, const char *section, const char *id) {
  for (int i = 0; i < r->n; i++)
    if (!strcmp(r->t[i]->section, section) && !strcmp(r->t[i]->id, id))
      return r->t[i];
  return NULL;
}

void fmt_ns(char *buf, size_t n, double ns) {
  double a = ns < 0 ? -ns : ns;
  if (a < 1e3)
    snprintf(buf, n, "%.0f ns", ns);
  else if (a < 1e6)
    snprintf(buf, n, "%.3g us", ns / 1e3);
  else if (a < 1e9)
    snprintf(buf, n, "%.3g ms", ns / 1e6);
  else
    snprintf(buf, n, "%.3f s", ns / 1e9);
}

void out_report(FILE *f, const char *format, const report *r) {
  if (!strcmp(format, "json"))
    out_json(f, r);
  else if (!strcmp(format, "csv"))
    out_csv(f, r);
  else if (!strcmp(format, "html"))
    out_html(f, r);
  else
    out_text(f, r);
}
