/* Text output: aligned tables with human units. */
#include "report.h"

#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rp_cell_text(char *b, size_t n, const rcol *c, const rcell *v) {
  if (v->null) {
    snprintf(b, n, "%s", v->s ? v->s : "-");
    return;
  }
  switch (c->type) {
  case RV_STR:
    snprintf(b, n, "%s", v->s ? v->s : "");
    break;
  case RV_INT:
    snprintf(b, n, "%lld", (long long)v->i);
    break;
  case RV_NS:
    fmt_ns(b, n, (double)v->i);
    break;
  case RV_PCT:
    snprintf(b, n, "%.1f%%", 100.0 * v->d);
    break;
  case RV_REAL:
    snprintf(b, n, isfinite(v->d) ? "%.3g" : "-", v->d);
    break;
  case RV_COUNT: {
    static const char *const suf[] = {"", " k", " M", " G", " T", " P"};
    double x = v->d;
    int k = 0;
    while ((x >= 1e4 || x <= -1e4) && k < 5)
      x /= 1e3, k++;
    if (!isfinite(v->d))
      snprintf(b, n, "-");
    else if (k)
      snprintf(b, n, "%.3g%s", x, suf[k]);
    else
      snprintf(b, n, "%.0f", x);
    break;
  }
  default: {
    size_t o = 0;
    b[0] = 0;
    if (v->nlist > 8 && c->type == RV_NSLIST) { /* long per-thread lists: their spread */
      double lo = v->list[0], hi = v->list[0], sum = 0;
      for (uint32_t k = 0; k < v->nlist; k++) {
        lo = v->list[k] < lo ? v->list[k] : lo;
        hi = v->list[k] > hi ? v->list[k] : hi;
        sum += v->list[k];
      }
      char e0[32], e1[32], e2[32];
      fmt_ns(e0, sizeof e0, lo);
      fmt_ns(e1, sizeof e1, sum / v->nlist);
      fmt_ns(e2, sizeof e2, hi);
      snprintf(b, n, "min %s, mean %s, max %s", e0, e1, e2);
      break;
    }
    for (uint32_t k = 0; k < v->nlist && o + 1 < n; k++) {
      char e[48];
      if (!isfinite(v->list[k])) /* a value that does not apply */
        snprintf(e, sizeof e, "-");
      else if (c->type == RV_NSLIST)
        fmt_ns(e, sizeof e, v->list[k]);
      else if (c->type == RV_INTLIST)
        snprintf(e, sizeof e, "%.0f", v->list[k]);
      else
        snprintf(e, sizeof e, "%.3g", v->list[k]);
      o += (size_t)snprintf(b + o, n - o, "%s%s", k ? " | " : "", e);
    }
    if (!v->nlist)
      snprintf(b, n, "-");
  }
  }
}

static bool right_aligned(rv_type t) {
  return t != RV_STR;
}

static void table(FILE *f, const rtable *t) {
  fprintf(f, "\n%s\n", t->title);
  if (t->bullets) {
    for (int r = 0; r < t->nrows; r++)
      fprintf(f, "  - %s\n", t->cells[(size_t)r * (size_t)t->ncols].s);
    if (!t->nrows)
      fprintf(f, "  (nothing stands out)\n");
  } else if (t->kv) {
    int w = 0;
    for (int c = 0; c < t->ncols; c++)
      if ((int)strlen(t->cols[c].title) > w)
        w = (int)strlen(t->cols[c].title);
    for (int c = 0; t->nrows && c < t->ncols; c++) {
      char b[512];
      rp_cell_text(b, sizeof b, &t->cols[c], &t->cells[c]);
      fprintf(f, "  %-*s  %s\n", w, t->cols[c].title, b);
    }
  } else if (!t->nrows) {
    fprintf(f, "  (none)\n");
  } else {
    int nc = t->ncols;
    int *w = otr_xcalloc((size_t)nc, sizeof *w);
    char **txt = otr_xcalloc((size_t)t->nrows * (size_t)nc, sizeof *txt);
    for (int c = 0; c < nc; c++)
      w[c] = (int)strlen(t->cols[c].title);
    for (int r = 0; r < t->nrows; r++)
      for (int c = 0; c < nc; c++) {
        char b[512];
        size_t k = (size_t)r * (size_t)nc + (size_t)c;
        rp_cell_text(b, sizeof b, &t->cols[c], &t->cells[k]);
        txt[k] = otr_xstrdup(b);
        if ((int)strlen(b) > w[c])
          w[c] = (int)strlen(b);
      }
    /* columns of durations that are zero in every row say nothing in text */
    bool *hide = otr_xcalloc((size_t)nc, sizeof *hide);
    for (int c = 0; c < nc && t->hide_zero; c++) {
      hide[c] = t->cols[c].type == RV_NS;
      for (int r = 0; r < t->nrows && hide[c]; r++)
        hide[c] = t->cells[(size_t)r * (size_t)nc + (size_t)c].i == 0;
    }
    fputs(" ", f);
    for (int c = 0; c < nc; c++) {
      if (hide[c])
        continue;
      if (c == nc - 1 && !right_aligned(t->cols[c].type))
        fprintf(f, " %s", t->cols[c].title);
      else
        fprintf(f, right_aligned(t->cols[c].type) ? " %*s" : " %-*s", w[c], t->cols[c].title);
    }
    fputs("\n", f);
    for (int r = 0; r < t->nrows; r++) {
      fputs(" ", f);
      for (int c = 0; c < nc; c++) {
        size_t k = (size_t)r * (size_t)nc + (size_t)c;
        bool last = c == nc - 1;
        if (hide[c]) {
          free(txt[k]);
          continue;
        }
        if (right_aligned(t->cols[c].type))
          fprintf(f, " %*s", w[c], txt[k]);
        else if (last)
          fprintf(f, " %s", txt[k]);
        else
          fprintf(f, " %-*s", w[c], txt[k]);
        free(txt[k]);
      }
      fputs("\n", f);
    }
    free(txt);
    free(w);
    free(hide);
  }
  if (t->note)
    fprintf(f, "  (%s)\n", t->note);
}

void out_text(FILE *f, const report *r) {
  fprintf(f, "omptrace-summary %s: %s\n", r->version ? r->version : "", r->archive);
  for (int i = 0; i < r->n; i++)
    table(f, r->t[i]);
}
