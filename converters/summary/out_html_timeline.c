/* HTML report plot: the timeline strip, one row per thread, each bin of
 * the run coloured by the state that took most of its time (tables
 * timeline.range and timeline.strips); equal neighbouring bins are drawn
 * as one rectangle, bins without measured time are left blank. */
#include "html.h"
#include "timeline.h"

#include <math.h>

#define LABEL 200.0
#define AREA 640.0
#define ROW 18.0
#define STRIP 14.0
#define AXIS 22.0

static const char *const state_cls[TL_COUNT] = {"st-none",     "st-work", "st-barrier",
                                                "st-taskwait", "st-sync", "st-overhead",
                                                "st-serial",   "st-idle", "st-mpi"};
static const char *const state_id[TL_COUNT] = {"none",     "work",   "barrier", "taskwait", "sync",
                                               "overhead", "serial", "idle",    "mpi"};
static const char *const state_name[TL_COUNT] = {
    "no data", "OMP Work", "Barrier wait", "Taskwait/taskgroup", "Lock wait", "Runtime overhead",
    "Serial",  "Idle",     "MPI"};

static void run_rect(FILE *f, int st, int b0, int n, double y, double bw, double start,
                     double bin_ns) {
  char t0[32], t1[32];
  fmt_ns(t0, sizeof t0, start + b0 * bin_ns);
  fmt_ns(t1, sizeof t1, start + (b0 + n) * bin_ns);
  fprintf(f,
          "<rect class=\"%s\" data-state=\"%s\" data-first=\"%d\" data-bins=\"%d\" "
          "x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\"><title>%s, %s to %s</title></rect>",
          state_cls[st], state_id[st], b0, n, LABEL + b0 * bw, y, n * bw, STRIP, state_name[st], t0,
          t1);
}

static int state_at(const rcell *c, uint32_t i) {
  double v = c->list[i];
  return v >= 0 && v < TL_COUNT ? (int)v : TL_NONE;
}

static void strip(FILE *f, const rtable *t, int r, double y, double bw, double start,
                  double bin_ns) {
  const rcell *c = html_cell(t, r, html_col(t, "states"));
  char name[300];
  snprintf(name, sizeof name, "%.0f %s", html_num(t, r, "thread"), html_str(t, r, "name"));
  fprintf(f,
          "<g class=\"strip\" data-thread=\"%.0f\"><text x=\"%.1f\" y=\"%.1f\" "
          "text-anchor=\"end\">",
          html_num(t, r, "thread"), LABEL - 6, y + STRIP - 3);
  html_esc(f, name);
  fputs("</text>", f);
  for (uint32_t i = 0; i < c->nlist;) {
    int st = state_at(c, i);
    uint32_t j = i + 1;
    while (j < c->nlist && state_at(c, j) == st)
      j++;
    if (st != TL_NONE)
      run_rect(f, st, (int)i, (int)(j - i), y, bw, start, bin_ns);
    i = j;
  }
  fputs("</g>\n", f);
}

static void axis(FILE *f, double y, int nb, double start, double bin_ns) {
  fprintf(f, "<line class=\"axis\" x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\"/>", LABEL,
          LABEL + AREA, y, y);
  for (int k = 0; k <= 4; k++) {
    char b[32];
    double x = LABEL + AREA * k / 4;
    fmt_ns(b, sizeof b, start + nb * bin_ns * k / 4);
    fprintf(f, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", x, x, y,
            y + 4);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>", x, y + 16,
            k == 0   ? "start"
            : k == 4 ? "end"
                     : "middle",
            b);
  }
  fputs("\n", f);
}

void html_plot_timeline(FILE *f, const report *r) {
  const rtable *range = rp_find(r, "timeline", "range"), *t = rp_find(r, "timeline", "strips");
  double nb = range ? html_num(range, 0, "bins") : NAN;
  if (!t || !t->nrows || html_col(t, "states") < 0 || !(nb > 0))
    return;
  double start = html_num(range, 0, "start_ns"), bin_ns = html_num(range, 0, "bin_ns");
  char b[32];
  fmt_ns(b, sizeof b, bin_ns);
  fprintf(f,
          "<figure class=\"plot\" id=\"plot-timeline\"><figcaption>Timeline per thread (each "
          "of %.0f bins of %s shows the state with most of its time)</figcaption>\n",
          nb, b);
  html_legend(f, state_cls + 1, state_name + 1, TL_COUNT - 1);
  fprintf(f,
          "<svg class=\"chart\" data-bins=\"%.0f\" data-bin-ns=\"%.0f\" data-start-ns=\"%.0f\" "
          "width=\"%.0f\" "
          "height=\"%.0f\">\n",
          nb, bin_ns, start, LABEL + AREA + 30, t->nrows * ROW + AXIS + 8);
  for (int i = 0; i < t->nrows; i++)
    strip(f, t, i, 4 + i * ROW, AREA / nb, start, bin_ns);
  axis(f, 6 + t->nrows * ROW, (int)nb, start, bin_ns);
  fputs("</svg></figure>\n", f);
}
