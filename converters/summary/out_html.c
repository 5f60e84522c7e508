/* HTML output: one self-contained page (inline CSS and SVG, no script, no
 * external reference) with every table of the report, sections in report
 * order, and plots next to the tables they draw from. Long tables fold into
 * <details>; the timeline tables only feed their plot. */
#include "html.h"

#include <ctype.h>
#include <string.h>

#define FOLD_ROWS 25 /* tables longer than this start folded */

static const struct {
  const char *id, *title;
} section_titles[] = {{"overview", "Overview"},  {"threads", "Threads"},
                      {"regions", "Regions"},    {"tasks", "Tasks"},
                      {"locks", "Locks"},        {"counters", "Counters"},
                      {"samples", "Samples"},    {"findings", "Findings"},
                      {"compare", "Comparison"}, {"mpi", "MPI"}};

/* A section's heading: its title, else its id with a capital. */
static void section_title(FILE *f, const char *id) {
  for (size_t i = 0; i < sizeof section_titles / sizeof *section_titles; i++)
    if (!strcmp(section_titles[i].id, id)) {
      fputs(section_titles[i].title, f);
      return;
    }
  char b[64];
  snprintf(b, sizeof b, "%s", id);
  b[0] = (char)toupper((unsigned char)b[0]);
  html_esc(f, b);
}

static bool numeric(rv_type t) {
  return t != RV_STR;
}

static void cell(FILE *f, const rtable *t, int r, int c) {
  char b[512];
  rp_cell_text(b, sizeof b, &t->cols[c], html_cell(t, r, c));
  fputs(numeric(t->cols[c].type) ? "<td class=\"num\">" : "<td>", f);
  html_esc(f, b);
  fputs("</td>", f);
}

/* Text leaves out duration columns that are zero in every row; so do we. */
static bool hidden(const rtable *t, int c) {
  if (!t->hide_zero || t->cols[c].type != RV_NS)
    return false;
  for (int r = 0; r < t->nrows; r++)
    if (html_cell(t, r, c)->i)
      return false;
  return true;
}

static void grid(FILE *f, const rtable *t) {
  fputs("<table><thead><tr>", f);
  for (int c = 0; c < t->ncols; c++)
    if (!hidden(t, c)) {
      fputs("<th>", f);
      html_esc(f, t->cols[c].title);
      fputs("</th>", f);
    }
  fputs("</tr></thead><tbody>\n", f);
  for (int r = 0; r < t->nrows; r++) {
    fputs("<tr>", f);
    for (int c = 0; c < t->ncols; c++)
      if (!hidden(t, c))
        cell(f, t, r, c);
    fputs("</tr>\n", f);
  }
  fputs("</tbody></table>\n", f);
}

static void keyvalue(FILE *f, const rtable *t) {
  fputs("<table class=\"kv\"><tbody>\n", f);
  for (int c = 0; t->nrows && c < t->ncols; c++) {
    fputs("<tr><th>", f);
    html_esc(f, t->cols[c].title);
    fputs("</th>", f);
    cell(f, t, 0, c);
    fputs("</tr>\n", f);
  }
  fputs("</tbody></table>\n", f);
}

static void bullets(FILE *f, const rtable *t) {
  if (!t->nrows) {
    fputs("<p>Nothing stands out.</p>\n", f);
    return;
  }
  fputs("<ul class=\"findings\">\n", f);
  for (int r = 0; r < t->nrows; r++) {
    fputs("<li>", f);
    html_esc(f, html_cell(t, r, 0)->s);
    fputs("</li>\n", f);
  }
  fputs("</ul>\n", f);
}

static void table(FILE *f, const rtable *t) {
  bool fold = !t->kv && !t->bullets && t->nrows > FOLD_ROWS;
  fputs("<div class=\"table\" id=\"t-", f);
  html_esc(f, t->section);
  fputc('-', f);
  html_esc(f, t->id);
  fputs(fold ? "\"><details><summary><h3 style=\"display:inline\">" : "\"><h3>", f);
  html_esc(f, t->title);
  fprintf(f, fold ? " (%d rows)</h3></summary>\n" : "</h3>\n", t->nrows);
  if (t->bullets)
    bullets(f, t);
  else if (t->kv)
    keyvalue(f, t);
  else if (!t->nrows)
    fputs("<p>(none)</p>\n", f);
  else
    grid(f, t);
  if (fold)
    fputs("</details>", f);
  if (t->note) {
    fputs("<p class=\"note\">", f);
    html_esc(f, t->note);
    fputs("</p>", f);
  }
  fputs("</div>\n", f);
}

/* Plots shown before a table. */
static void plots_before(FILE *f, const report *r, const rtable *t) {
  if (!strcmp(t->section, "threads") && !strcmp(t->id, "threads")) {
    html_plot_threads(f, r);
    html_plot_timeline(f, r);
  } else if (!strcmp(t->section, "regions") && !strcmp(t->id, "regions")) {
    html_plot_regions(f, r);
  } else if (!strcmp(t->section, "compare") && !strcmp(t->id, "regions")) {
    html_plot_compare(f, r);
  } else if (!strcmp(t->section, "mpi") && !strcmp(t->id, "ranks")) {
    html_plot_ranks(f, r);
  } else if (!strcmp(t->section, "mpi") && !strcmp(t->id, "matrix")) {
    html_plot_matrix(f, r);
  }
}

static void head(FILE *f, const report *r) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<title>omptrace-summary: ",
        f);
  html_esc(f, r->archive);
  fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>OpenMP performance report</h1>\n",
          html_css);
  fputs("<p class=\"meta\">omptrace-summary ", f);
  html_esc(f, r->version);
  fputs(" &middot; ", f);
  html_esc(f, r->archive);
  fputs("</p>\n<nav>", f);
  const char *last = NULL;
  for (int i = 0; i < r->n; i++) {
    const char *s = r->t[i]->section;
    if (strcmp(s, "timeline") && (!last || strcmp(last, s))) {
      fputs("<a href=\"#s-", f);
      html_esc(f, s);
      fputs("\">", f);
      section_title(f, s);
      fputs("</a>", f);
    }
    last = s;
  }
  fputs("</nav>\n", f);
}

void out_html(FILE *f, const report *r) {
  head(f, r);
  const char *section = NULL;
  for (int i = 0; i < r->n; i++) {
    const rtable *t = r->t[i];
    if (!strcmp(t->section, "timeline"))
      continue; /* drawn with the threads */
    if (!section || strcmp(section, t->section)) {
      if (section)
        fputs("</section>\n", f);
      fputs("<section id=\"s-", f);
      html_esc(f, t->section);
      fputs("\">\n<h2>", f);
      section_title(f, t->section);
      fputs("</h2>\n", f);
      section = t->section;
    }
    plots_before(f, r, t);
    table(f, t);
  }
  if (section)
    fputs("</section>\n", f);
  fputs("</body>\n</html>\n", f);
}
