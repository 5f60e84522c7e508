/* HTML report plots of --compare: per region, speedup and efficiency
 * against the thread count (log scale), with the ideal as a dashed line
 * and the degradation ranks (slower than with fewer threads) ringed. From
 * the table compare.regions; a region absent from a run has no point. */
#include "html.h"

#include <math.h>

#define PW 270.0 /* one panel */
#define PH 190.0
#define ML 40.0 /* panel margins: left, top, bottom */
#define MT 12.0
#define MB 30.0
#define MAX_PLOTS 12

typedef struct {
  const double *thr, *v; /* thread counts, values (NAN: absent) */
  uint32_t n;
  double lo, hi, ymax; /* thread range, value axis top */
  double x0;           /* panel's left edge */
} panel;

static double px(const panel *p, double m) {
  double w = PW - ML - 10;
  if (p->hi <= p->lo)
    return p->x0 + ML + w / 2;
  return p->x0 + ML + w * log(m / p->lo) / log(p->hi / p->lo);
}

static double py(const panel *p, double v) {
  return MT + (PH - MT - MB) * (1 - v / p->ymax);
}

static void frame(FILE *f, const panel *p, const char *title) {
  fprintf(f, "<text x=\"%.1f\" y=\"10\" text-anchor=\"middle\">%s</text>", p->x0 + PW / 2, title);
  fprintf(f, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", p->x0 + ML,
          p->x0 + PW - 5, PH - MB, PH - MB);
  fprintf(f, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", p->x0 + ML,
          p->x0 + ML, MT, PH - MB);
  for (int k = 0; k <= 2; k++) {
    double v = p->ymax * k / 2;
    fprintf(f, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", p->x0 + ML,
            p->x0 + PW - 5, py(p, v), py(p, v));
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.2g</text>", p->x0 + ML - 4,
            py(p, v) + 4, v);
  }
  for (uint32_t i = 0; i < p->n; i++)
    if (i == 0 || p->thr[i] != p->thr[i - 1])
      fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>", px(p, p->thr[i]),
              PH - MB + 14, p->thr[i]);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">threads</text>",
          p->x0 + ML + (PW - ML) / 2, PH - 3);
}

/* The measured series: a line through the points, one circle per run. */
static void series(FILE *f, const panel *p, const char *name) {
  fputs("<polyline class=\"line\" points=\"", f);
  for (uint32_t i = 0; i < p->n; i++)
    if (isfinite(p->v[i]))
      fprintf(f, "%.1f,%.1f ", px(p, p->thr[i]), py(p, p->v[i]));
  fputs("\"/>", f);
  for (uint32_t i = 0; i < p->n; i++)
    if (isfinite(p->v[i]))
      fprintf(f,
              "<circle class=\"pt\" data-series=\"%s\" data-threads=\"%.0f\" cx=\"%.1f\" "
              "cy=\"%.1f\" r=\"3.5\"><title>%.0f threads: %s %.3g</title></circle>",
              name, p->thr[i], px(p, p->thr[i]), py(p, p->v[i]), p->thr[i], name, p->v[i]);
}

/* Rings the runs at the degradation ranks, matched to runs in order (the
 * ranks list them in run order). */
static void degradations(FILE *f, const panel *p, const rcell *ranks) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < p->n && k < ranks->nlist; i++) {
    if (p->thr[i] != ranks->list[k] || !isfinite(p->v[i]))
      continue;
    fprintf(f,
            "<circle class=\"degr\" data-threads=\"%.0f\" cx=\"%.1f\" cy=\"%.1f\" r=\"7\">"
            "<title>slower at %.0f threads than with fewer</title></circle>",
            p->thr[i], px(p, p->thr[i]), py(p, p->v[i]), p->thr[i]);
    k++;
  }
}

static double top_of(const panel *p, double ideal_max) {
  double m = ideal_max;
  for (uint32_t i = 0; i < p->n; i++)
    if (isfinite(p->v[i]) && p->v[i] > m)
      m = p->v[i];
  return m * 1.1;
}

static void region_plot(FILE *f, const rtable *t, int r) {
  const rcell *thr = html_cell(t, r, html_col(t, "threads"));
  const rcell *sp = html_cell(t, r, html_col(t, "speedup"));
  const rcell *ef = html_cell(t, r, html_col(t, "efficiency"));
  const rcell *rk = html_cell(t, r, html_col(t, "degradation_ranks"));
  uint32_t n = thr->nlist, b = 0;
  if (!n || sp->nlist != n || ef->nlist != n)
    return;
  while (b < n && !isfinite(sp->list[b]))
    b++;
  double lo = thr->list[0] > 0 ? thr->list[0] : 1, hi = thr->list[n - 1];
  double base = b < n ? thr->list[b] : lo;
  panel s = {thr->list, sp->list, n, lo, hi < lo ? lo : hi, 0, 0};
  panel e = {thr->list, ef->list, n, s.lo, s.hi, 0, PW + 10};
  s.ymax = top_of(&s, s.hi / base);
  e.ymax = top_of(&e, 1);
  fputs("<figure class=\"cmp\" data-region=\"", f);
  html_esc(f, html_str(t, r, "region"));
  fputs("\"><figcaption>", f);
  html_esc(f, html_str(t, r, "region"));
  fprintf(f, "</figcaption><svg class=\"chart\" width=\"%.0f\" height=\"%.0f\">", 2 * PW + 10, PH);
  frame(f, &s, "speedup");
  fprintf(f, "<line class=\"ideal\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
          px(&s, base), py(&s, 1), px(&s, s.hi), py(&s, s.hi / base));
  series(f, &s, "speedup");
  degradations(f, &s, rk);
  frame(f, &e, "efficiency");
  fprintf(f, "<line class=\"ideal\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
          px(&e, base), py(&e, 1), px(&e, e.hi), py(&e, 1));
  series(f, &e, "efficiency");
  fputs("</svg></figure>\n", f);
}

void html_plot_compare(FILE *f, const report *r) {
  const rtable *t = rp_find(r, "compare", "regions");
  if (!t || !t->nrows || html_col(t, "threads") < 0 || html_col(t, "speedup") < 0 ||
      html_col(t, "efficiency") < 0 || html_col(t, "degradation_ranks") < 0)
    return;
  fputs("<div class=\"plot\" id=\"plot-compare\"><h3>Speedup and efficiency per region</h3>"
        "<p class=\"note\">Relative to the smallest thread count where the region appears; "
        "dashed: ideal; ringed: a degradation rank (slower than with fewer threads)</p>\n",
        f);
  for (int i = 0; i < t->nrows && i < MAX_PLOTS; i++)
    region_plot(f, t, i);
  fputs("</div>\n", f);
}
