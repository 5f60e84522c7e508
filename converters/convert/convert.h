/* omptrace-convert: an OTF2 archive to JSON for browser viewers (Chrome
 * trace-event format, speedscope). A driver (drive.c) turns the reader's
 * stream into time-ordered calls on a format writer (chrome.c,
 * speedscope.c) after applying the cut options (cut.c). */
#ifndef OMPTRACE_CONVERT_H
#define OMPTRACE_CONVERT_H

#include "otr.h"

#include <stdarg.h>
#include <stdio.h>

/* Counted output: bytes and events written (excluding metadata). */
typedef struct {
  FILE *f;
  uint64_t bytes, events;
  bool regular; /* a regular file named by -o: removed when the conversion fails */
} cv_out;

void cv_printf(cv_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cv_write(cv_out *o, const char *s, size_t n);
/* s as a JSON string literal with its quotes */
void cv_str(cv_out *o, const char *s);
/* JSON string escaping into buf (NUL-terminated, truncated to n); returns buf */
char *cv_escape(const char *s, char *buf, size_t n);
/* a time in ns as microseconds with three decimals (Chrome's "ts") */
void cv_us(cv_out *o, uint64_t ns);

/* Cut options; times in ns from the trace start. */
typedef struct {
  uint64_t begin, end; /* end UINT64_MAX: no end */
  const char *threads; /* LIST as given, NULL: all */
  uint64_t max_events; /* 0: no limit */
  const char *begin_arg, *end_arg;
} cv_cut;

/* parsers of the option values; false on a malformed value */
bool cv_parse_time(const char *s, uint64_t *ns);
bool cv_parse_count(const char *s, uint64_t *n);
/* keep[i] for location i from "0,2-3" (indices in definition order) */
bool cv_parse_threads(const char *s, uint32_t n_locations, bool *keep, char *err, size_t errlen);

/* What the driver tells a writer; times in ns from the trace start,
 * non-decreasing per location; loc is the location index. */
typedef struct cv_sink {
  void *w;
  void (*begin)(void *w, const otr_defs *d, const bool *keep);
  void (*open)(void *w, uint32_t loc, uint32_t region, uint64_t t);
  /* mdelta: counter deltas per member slot or NULL */
  void (*close)(void *w, uint32_t loc, uint32_t region, uint64_t t, const double *mdelta);
  void (*sample)(void *w, uint32_t loc, uint64_t t, uint32_t context, uint32_t generator);
  /* an arrow from (l0, t0) to (l1, t1); kind "task", "lock" or "message" (MPI) */
  void (*flow)(void *w, const char *kind, uint64_t id, uint32_t l0, uint64_t t0, uint32_t l1,
               uint64_t t1);
  void (*counter)(void *w, uint32_t loc, uint64_t t, const double *values);
  /* recording was off on loc from t0 to t1: paused, or records lost */
  void (*off)(void *w, uint32_t loc, uint64_t t0, uint64_t t1, bool paused);
  /* after the last event; end: the last time written; false on an I/O error */
  bool (*end)(void *w, uint64_t end);
  void (*release)(void *w);
  /* a loop chunk (docs/otf2-mapping.md): kind loop, taskloop, distribute,
   * section or iteration; NULL where the format has no point events */
  void (*chunk)(void *w, uint32_t loc, uint64_t t, const char *kind, uint64_t first,
                uint64_t iterations);
} cv_sink;

cv_sink *cv_chrome_new(cv_out *o);
cv_sink *cv_speedscope_new(cv_out *o);

/* Streams the archive through the cuts into the sink; false with a
 * message on a read or write error. */
bool cv_drive(otr_archive *a, const cv_cut *cut, cv_sink *s, cv_out *o, char *err, size_t errlen);

#endif
