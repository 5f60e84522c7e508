/* The report model: every analysis fills tables of typed cells, and one
 * renderer per format (text, json, csv) prints any table, so the formats
 * always carry the same figures. Times are nanoseconds, shares 0..1. */
#ifndef OMPTRACE_SUMMARY_REPORT_H
#define OMPTRACE_SUMMARY_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
  RV_STR,
  RV_INT,
  RV_NS,  /* duration in ns: human units in text */
  RV_PCT, /* share 0..1: percent in text */
  RV_REAL,
  RV_COUNT,    /* a counter value: k/M/G in text */
  RV_NSLIST,   /* list of durations */
  RV_REALLIST, /* list of reals */
  RV_INTLIST,
} rv_type;

typedef struct {
  char *id, *title;
  rv_type type;
} rcol;

typedef struct {
  bool null;
  char *s;
  int64_t i;
  double d;
  double *list;
  uint32_t nlist;
} rcell;

typedef struct {
  char *section, *id, *title, *note;
  bool kv;        /* one record: key/value lines in text, an object in JSON */
  bool bullets;   /* findings: sentences */
  bool hide_zero; /* text: leave out duration columns that are zero in every row */
  int ncols;
  rcol *cols;
  int nrows, caprows;
  rcell *cells; /* nrows x ncols */
  int fill;     /* next cell of the current row */
} rtable;

typedef struct {
  rtable **t;
  int n;
  char *archive, *version;
} report;

report *rp_new(const char *archive);
void rp_free(report *r);
rtable *rt_new(report *r, const char *section, const char *id, const char *title, bool kv);
void rt_col(rtable *t, const char *id, const char *title, rv_type type);
void rt_row(rtable *t);
void rt_str(rtable *t, const char *s);
void rt_int(rtable *t, int64_t v);
void rt_ns(rtable *t, uint64_t ns);
void rt_pct(rtable *t, double share);
void rt_real(rtable *t, double v);
void rt_count(rtable *t, double v);
void rt_null(rtable *t);
/* A value that is not known: null in JSON, empty in CSV, text in text. */
void rt_null_as(rtable *t, const char *text);
void rt_list(rtable *t, const double *v, uint32_t n);
void rt_note(rtable *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void out_text(FILE *f, const report *r);
void out_json(FILE *f, const report *r);
void out_csv(FILE *f, const report *r);
void out_html(FILE *f, const report *r);
/* Writes r in the named format ("json", "csv", "html", anything else: text). */
void out_report(FILE *f, const char *format, const report *r);

/* A cell as the text report shows it. */
void rp_cell_text(char *b, size_t n, const rcol *c, const rcell *v);
/* The table section.id of r, NULL when r has none. */
const rtable *rp_find(const report *r, const char *section, const char *id);

/* "1.23 ms", "456 ns", "2.50 s" */
void fmt_ns(char *buf, size_t n, double ns);

#endif
