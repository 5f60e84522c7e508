/* HTML report plots of one run: where each thread's time went (stacked
 * bars from threads.threads) and the regions' busy time per thread, min,
 * mean and max, with their imbalance (regions.regions, regions.threads). */
#include "html.h"

#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 900.0
#define LABEL 200.0 /* left margin for names */
#define AREA (W - LABEL - 180.0)
#define ROW 26.0
#define BAR 18.0
#define MAX_REGIONS 15

static const struct {
  const char *cls, *name, *cols[3];
} segs[] = {{"st-work", "OMP Work", {"work_ns"}},
            {"st-barrier", "OMP Wait", {"wait_ns"}},
            {"st-overhead", "Runtime overhead", {"fork_join_ns", "task_create_ns", "runtime_ns"}},
            {"st-mpi", "MPI", {"mpi_ns"}},
            {"st-serial", "Serial", {"serial_ns"}},
            {"st-idle", "Idle", {"idle_ns"}},
            {"st-lost", "Lost (gaps)", {"lost_ns"}}};
#define NSEGS (int)(sizeof segs / sizeof *segs)

static double seg_ns(const rtable *t, int r, int k) {
  double v = 0;
  for (int c = 0; c < 3 && segs[k].cols[c]; c++) {
    double x = html_num(t, r, segs[k].cols[c]);
    v += isnan(x) ? 0 : x;
  }
  return v;
}

/* A name at the left of row y, cut to fit, in full in its tooltip. */
static void row_label(FILE *f, double y, const char *s) {
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"><title>", LABEL - 6, y + BAR - 5);
  html_esc(f, s);
  fputs("</title>", f);
  size_t n = strlen(s);
  if (n > 34) {
    char cut[40];
    snprintf(cut, sizeof cut, "%.31s...", s);
    html_esc(f, cut);
  } else {
    html_esc(f, s);
  }
  fputs("</text>", f);
}

static void thread_bar(FILE *f, const rtable *t, int r, double y, double scale) {
  char name[300];
  snprintf(name, sizeof name, "%.0f %s", html_num(t, r, "thread"), html_str(t, r, "name"));
  fprintf(f, "<g class=\"bar\" data-thread=\"%.0f\">", html_num(t, r, "thread"));
  row_label(f, y, name);
  const char *cls[NSEGS], *names[NSEGS];
  double v[NSEGS];
  for (int k = 0; k < NSEGS; k++)
    cls[k] = segs[k].cls, names[k] = segs[k].name, v[k] = seg_ns(t, r, k);
  html_stack(f, &(html_bar){LABEL, y, BAR, scale, name}, cls, names, v, NSEGS);
}

void html_plot_threads(FILE *f, const report *r) {
  const rtable *t = rp_find(r, "threads", "threads");
  if (!t || !t->nrows)
    return;
  double max = 0;
  for (int i = 0; i < t->nrows; i++) {
    double sum = 0;
    for (int k = 0; k < NSEGS; k++)
      sum += seg_ns(t, i, k);
    max = sum > max ? sum : max;
  }
  fputs("<figure class=\"plot\" id=\"plot-threads\"><figcaption>Time per thread</figcaption>\n", f);
  const char *cls[NSEGS], *names[NSEGS];
  for (int k = 0; k < NSEGS; k++)
    cls[k] = segs[k].cls, names[k] = segs[k].name;
  html_legend(f, cls, names, NSEGS);
  fprintf(f, "<svg class=\"chart\" width=\"%.0f\" height=\"%.0f\">\n", W, t->nrows * ROW + 8);
  for (int i = 0; i < t->nrows; i++)
    thread_bar(f, t, i, 4 + i * ROW, max > 0 ? AREA / max : 0);
  fputs("</svg></figure>\n", f);
}

/* Busy time per thread of one region: min, mean and max over the threads
 * in the per-thread table; false when it has none. */
static bool spread(const rtable *pt, const char *label, double *mn, double *mean, double *mx,
                   int *n) {
  double sum = 0;
  *n = 0;
  for (int i = 0; pt && i < pt->nrows; i++) {
    if (strcmp(html_str(pt, i, "region"), label))
      continue;
    double b = html_num(pt, i, "busy_ns");
    *mn = *n == 0 || b < *mn ? b : *mn;
    *mx = *n == 0 || b > *mx ? b : *mx;
    sum += b;
    (*n)++;
  }
  *mean = *n ? sum / *n : 0;
  return *n > 0;
}

static const rtable *sort_t;
static int by_total(const void *a, const void *b) {
  double x = html_num(sort_t, *(const int *)a, "total_ns");
  double y = html_num(sort_t, *(const int *)b, "total_ns");
  return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

static void region_row(FILE *f, const rtable *t, int r, const rtable *pt, double y, double scale) {
  const char *label = html_str(t, r, "region");
  double mn = 0, mean = 0, mx = 0, imb = html_num(t, r, "imbalance");
  int n;
  spread(pt, label, &mn, &mean, &mx, &n);
  char a[32], b[32], c[32];
  fmt_ns(a, sizeof a, mn);
  fmt_ns(b, sizeof b, mean);
  fmt_ns(c, sizeof c, mx);
  fputs("<g class=\"region\" data-region=\"", f);
  html_esc(f, label);
  fprintf(f, "\" data-threads=\"%d\"><title>", n);
  html_esc(f, label);
  fprintf(f, ": busy per thread min %s, mean %s, max %s over %d threads</title>", a, b, c, n);
  row_label(f, y, label);
  fprintf(f, "<rect class=\"rg-max\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\"/>", LABEL,
          y, mx * scale, BAR);
  fprintf(f, "<rect class=\"rg-mean\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\"/>",
          LABEL, y + 5, mean * scale, BAR - 10);
  fprintf(f, "<line class=\"rg-min\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" y2=\"%.1f\"/>",
          LABEL + mn * scale, LABEL + mn * scale, y, y + BAR);
  if (isnan(imb))
    fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">%s</text></g>\n", LABEL + mx * scale + 4, y + BAR - 5,
            c);
  else
    fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">%s, imbalance %.1f%%</text></g>\n",
            LABEL + mx * scale + 4, y + BAR - 5, c, 100 * imb);
}

void html_plot_regions(FILE *f, const report *r) {
  const rtable *t = rp_find(r, "regions", "regions"), *pt = rp_find(r, "regions", "threads");
  if (!t || !t->nrows)
    return;
  int n = t->nrows < MAX_REGIONS ? t->nrows : MAX_REGIONS,
      *order = otr_xmalloc((size_t)t->nrows * sizeof *order);
  for (int i = 0; i < t->nrows; i++)
    order[i] = i;
  sort_t = t;
  qsort(order, (size_t)t->nrows, sizeof *order, by_total);
  double max = 0;
  for (int i = 0; i < n; i++) {
    double mn, mean, mx;
    int k;
    if (spread(pt, html_str(t, order[i], "region"), &mn, &mean, &mx, &k) && mx > max)
      max = mx;
  }
  fputs("<figure class=\"plot\" id=\"plot-regions\"><figcaption>Busy time per thread of the "
        "regions with the most time (bar: max, inner bar: mean, line: min)</figcaption>\n",
        f);
  fprintf(f, "<svg class=\"chart\" width=\"%.0f\" height=\"%.0f\">\n", W, n * ROW + 8);
  for (int i = 0; i < n; i++)
    region_row(f, t, order[i], pt, 4 + i * ROW, max > 0 ? AREA / max : 0);
  fputs("</svg></figure>\n", f);
  free(order);
}
