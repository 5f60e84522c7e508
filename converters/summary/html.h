/* Internals of the HTML report (out_html*.c): escaping, reading cells of
 * the report model by column id, and the SVG plots drawn from its tables. */
#ifndef OMPTRACE_SUMMARY_HTML_H
#define OMPTRACE_SUMMARY_HTML_H

#include "report.h"

/* Writes s with & < > " ' as character references. */
void html_esc(FILE *f, const char *s);
/* Column index of id in t, -1 when t has none. */
int html_col(const rtable *t, const char *id);
const rcell *html_cell(const rtable *t, int row, int col);
/* A numeric cell as a double (durations in ns); NAN when null or absent. */
double html_num(const rtable *t, int row, const char *id);
/* A string cell, "" when null or absent. */
const char *html_str(const rtable *t, int row, const char *id);

/* One legend entry per class: a swatch of CSS class cls[i] and its name. */
void html_legend(FILE *f, const char *const *cls, const char *const *names, int n);

/* A stacked bar's segments from x at row y: one <rect> per positive value
 * v[k] (class cls[k], width v[k] * scale, titled "who: names[k] value
 * (share)"), then the total after the bar and the closing </g>. */
typedef struct {
  double x, y, height, scale;
  const char *who;
} html_bar;
void html_stack(FILE *f, const html_bar *b, const char *const *cls, const char *const *names,
                const double *v, int n);

/* Plots, each a <figure> with an inline SVG, or nothing when the report
 * lacks the tables they draw. */
void html_plot_threads(FILE *f, const report *r);  /* threads.threads */
void html_plot_timeline(FILE *f, const report *r); /* timeline.range, timeline.strips */
void html_plot_regions(FILE *f, const report *r);  /* regions.regions, regions.threads */
void html_plot_compare(FILE *f, const report *r);  /* compare.regions */
void html_plot_ranks(FILE *f, const report *r);    /* mpi.ranks */
void html_plot_matrix(FILE *f, const report *r);   /* mpi.matrix */

/* The stylesheet, inlined into the page's <head>. */
extern const char html_css[];

#endif
