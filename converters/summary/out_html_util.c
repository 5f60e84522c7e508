/* HTML report helpers: escaping, cells by column id, legends, and the
 * inline stylesheet (the page loads nothing from elsewhere). */
#include "html.h"

#include <math.h>
#include <string.h>

void html_esc(FILE *f, const char *s) {
  for (const char *p = s ? s : ""; *p; p++) {
    switch (*p) {
    case '&':
      fputs("&amp;", f);
      break;
    case '<':
      fputs("&lt;", f);
      break;
    case '>':
      fputs("&gt;", f);
      break;
    case '"':
      fputs("&quot;", f);
      break;
    case '\'':
      fputs("&#39;", f);
      break;
    default:
      fputc(*p, f);
    }
  }
}

int html_col(const rtable *t, const char *id) {
  for (int c = 0; t && c < t->ncols; c++)
    if (!strcmp(t->cols[c].id, id))
      return c;
  return -1;
}

const rcell *html_cell(const rtable *t, int row, int col) {
  return &t->cells[(size_t)row * (size_t)t->ncols + (size_t)col];
}

double html_num(const rtable *t, int row, const char *id) {
  int c = html_col(t, id);
  if (c < 0 || row >= t->nrows)
    return NAN;
  const rcell *v = html_cell(t, row, c);
  if (v->null)
    return NAN;
  rv_type ty = t->cols[c].type;
  return ty == RV_INT || ty == RV_NS ? (double)v->i : v->d;
}

const char *html_str(const rtable *t, int row, const char *id) {
  int c = html_col(t, id);
  if (c < 0 || row >= t->nrows)
    return "";
  const rcell *v = html_cell(t, row, c);
  return v->s ? v->s : "";
}

void html_legend(FILE *f, const char *const *cls, const char *const *names, int n) {
  fputs("<p class=\"legend\">", f);
  for (int i = 0; i < n; i++)
    fprintf(f,
            "<span><svg width=\"12\" height=\"12\"><rect class=\"%s\" width=\"12\" "
            "height=\"12\"/></svg> %s</span>",
            cls[i], names[i]);
  fputs("</p>\n", f);
}

void html_stack(FILE *f, const html_bar *b, const char *const *cls, const char *const *names,
                const double *v, int n) {
  char t[32];
  double x = b->x, total = 0;
  for (int k = 0; k < n; k++)
    total += v[k];
  for (int k = 0; k < n; k++) {
    if (v[k] <= 0)
      continue;
    double w = v[k] * b->scale;
    fmt_ns(t, sizeof t, v[k]);
    fprintf(f,
            "<rect class=\"%s\" data-ns=\"%.0f\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
            "height=\"%.0f\"><title>",
            cls[k], v[k], x, b->y, w, b->height);
    html_esc(f, b->who);
    fprintf(f, ": %s %s (%.1f%%)</title></rect>", names[k], t, total > 0 ? 100 * v[k] / total : 0);
    x += w;
  }
  fmt_ns(t, sizeof t, total);
  fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">%s</text></g>\n", x + 4, b->y + b->height - 5, t);
}

/* Colours: work green, waits red/orange/purple, overhead yellow, serial
 * blue, MPI cyan (no blue: MPI time is no serial code), idle grey; one
 * class per state, shared by all plots. */
const char html_css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;"
    "color:#222}\n"
    "h1{font-size:1.5em}h2{border-bottom:2px solid #ccc;margin-top:2em}h3{font-size:1.05em}\n"
    "nav a{margin-right:1em}\n"
    "table{border-collapse:collapse;margin:.3em 0}\n"
    "th,td{border:1px solid #ddd;padding:2px 6px;vertical-align:top}\n"
    "th{background:#f3f3f3;text-align:left}td.num{text-align:right;white-space:nowrap}\n"
    "tr:nth-child(even) td{background:#fafafa}\n"
    ".note,.meta{color:#555;font-size:.9em}\n"
    "figure{margin:1em 0}figcaption{font-weight:600;margin-bottom:.3em}\n"
    "svg text{font:11px system-ui,sans-serif;fill:#222}\n"
    ".legend span{margin-right:1em;white-space:nowrap}\n"
    ".axis{stroke:#888;stroke-width:1}.grid{stroke:#e4e4e4;stroke-width:1}\n"
    ".st-work{fill:#3a9d4f}.st-barrier{fill:#d9534f}.st-taskwait{fill:#f0a030}\n"
    ".st-mpi{fill:#22b8cf}table.matrix td{min-width:2.5em;text-align:right}\n"
    ".st-sync{fill:#8e44ad}.st-overhead{fill:#e8d04a}.st-serial{fill:#4a7fd0}\n"
    ".st-idle{fill:#c8c8c8}.st-lost{fill:#333}\n"
    ".rg-max{fill:#f4c2a1}.rg-mean{fill:#d9534f}.rg-min{stroke:#222;stroke-width:2}\n"
    ".cmp{display:inline-block;margin:0 1.5em 1em 0;vertical-align:top}\n"
    ".line{fill:none;stroke:#4a7fd0;stroke-width:2}.ideal{fill:none;stroke:#999;"
    "stroke-dasharray:4 3}\n"
    ".pt{fill:#4a7fd0}.degr{fill:none;stroke:#d00;stroke-width:2.5}\n";
