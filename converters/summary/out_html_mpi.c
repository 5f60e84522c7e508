/* HTML report plots of an MPI job: where each rank's time went (stacked
 * bars of OpenMP work, OpenMP wait and MPI from mpi.ranks) and the bytes
 * sent between each pair of ranks as a matrix (mpi.matrix). */
#include "html.h"

#include <math.h>
#include <stdlib.h>

#define W 900.0
#define LABEL 80.0
#define AREA (W - LABEL - 120.0)
#define ROW 26.0
#define BAR 18.0
#define MATRIX_MAX 64 /* ranks; a bigger job has only the table */

static const struct {
  const char *cls, *name, *col;
} segs[] = {{"st-work", "OMP Work", "work_ns"},
            {"st-barrier", "OMP Wait", "wait_ns"},
            {"st-mpi", "MPI", "mpi_ns"}};
#define NSEGS (int)(sizeof segs / sizeof *segs)

static double num(const rtable *t, int r, const char *id) {
  double v = html_num(t, r, id);
  return isnan(v) ? 0 : v;
}

static void rank_bar(FILE *f, const rtable *t, int r, double y, double scale) {
  int rank = (int)num(t, r, "rank");
  char who[32];
  snprintf(who, sizeof who, "rank %d", rank);
  fprintf(f,
          "<g class=\"bar\" data-rank=\"%d\"><text x=\"%.1f\" y=\"%.1f\" "
          "text-anchor=\"end\">%s</text>",
          rank, LABEL - 6, y + BAR - 5, who);
  const char *cls[NSEGS], *names[NSEGS];
  double v[NSEGS];
  for (int k = 0; k < NSEGS; k++)
    cls[k] = segs[k].cls, names[k] = segs[k].name, v[k] = num(t, r, segs[k].col);
  html_stack(f, &(html_bar){LABEL, y, BAR, scale, who}, cls, names, v, NSEGS);
}

void html_plot_ranks(FILE *f, const report *r) {
  const rtable *t = rp_find(r, "mpi", "ranks");
  if (!t || !t->nrows)
    return;
  double max = 0;
  for (int i = 0; i < t->nrows; i++) {
    double sum = 0;
    for (int k = 0; k < NSEGS; k++)
      sum += num(t, i, segs[k].col);
    max = sum > max ? sum : max;
  }
  fputs("<figure class=\"plot\" id=\"plot-ranks\"><figcaption>Time per rank, over its "
        "threads</figcaption>\n",
        f);
  const char *cls[NSEGS], *names[NSEGS];
  for (int k = 0; k < NSEGS; k++)
    cls[k] = segs[k].cls, names[k] = segs[k].name;
  html_legend(f, cls, names, NSEGS);
  fprintf(f, "<svg class=\"chart\" width=\"%.0f\" height=\"%.0f\">\n", W, t->nrows * ROW + 8);
  for (int i = 0; i < t->nrows; i++)
    rank_bar(f, t, i, 4 + i * ROW, max > 0 ? AREA / max : 0);
  fputs("</svg></figure>\n", f);
}

/* Senders down, receivers across; a cell's shade grows with its bytes. */
void html_plot_matrix(FILE *f, const report *r) {
  const rtable *t = rp_find(r, "mpi", "matrix"), *rk = rp_find(r, "mpi", "ranks");
  int n = rk ? rk->nrows : 0;
  if (!t || !t->nrows || n > MATRIX_MAX)
    return;
  double *bytes = calloc((size_t)n * (size_t)n + 1, sizeof *bytes), max = 0;
  double *msgs = calloc((size_t)n * (size_t)n + 1, sizeof *msgs);
  for (int i = 0; i < t->nrows; i++) {
    int s = (int)num(t, i, "sender"), d = (int)num(t, i, "receiver");
    if (s < 0 || d < 0 || s >= n || d >= n)
      continue;
    bytes[s * n + d] = num(t, i, "bytes");
    msgs[s * n + d] = num(t, i, "messages");
    max = bytes[s * n + d] > max ? bytes[s * n + d] : max;
  }
  fputs("<figure class=\"plot\" id=\"plot-matrix\"><figcaption>Bytes sent, sender (row) to "
        "receiver (column)</figcaption>\n<table class=\"matrix\"><tr><th></th>",
        f);
  for (int d = 0; d < n; d++)
    fprintf(f, "<th>%d</th>", d);
  fputs("</tr>\n", f);
  for (int s = 0; s < n; s++) {
    fprintf(f, "<tr><th>%d</th>", s);
    for (int d = 0; d < n; d++) {
      double b = bytes[s * n + d], m = msgs[s * n + d];
      if (m <= 0) {
        fputs("<td></td>", f);
        continue;
      }
      fprintf(f,
              "<td class=\"mcell\" style=\"background:rgba(74,111,208,%.2f)\" "
              "title=\"rank %d to rank %d: %.0f messages, %.0f bytes\">%.0f</td>",
              max > 0 ? 0.15 + 0.85 * b / max : 0.15, s, d, m, b, b);
    }
    fputs("</tr>\n", f);
  }
  fputs("</table></figure>\n", f);
  free(bytes);
  free(msgs);
}
