/* Progress on a terminal: after one second of reading, a line on stderr
 * that is rewritten in place and cleared at the end. Silent when stderr is
 * not a terminal, so pipes and tests see nothing. */
#include "archive.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double mono(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void otr_progress(const otr_archive *a, uint64_t done, bool final) {
  static double start;
  static int tty = -1;
  static bool shown;
  if (tty < 0) {
    tty = isatty(STDERR_FILENO);
    start = mono();
  }
  if (!tty)
    return;
  if (final) {
    if (shown)
      fputs("\r\033[K", stderr);
    shown = false;
    tty = -1;
    return;
  }
  double el = mono() - start;
  if (el < 1.0)
    return;
  uint64_t total = a->d.total_events;
  if (total >= done && total)
    fprintf(stderr, "\rreading %s: %3.0f%% (%.1f M events, %.1f s)", a->anchor,
            100.0 * (double)done / (double)total, (double)done / 1e6, el);
  else
    fprintf(stderr, "\rreading %s: %.1f M events, %.1f s", a->anchor, (double)done / 1e6, el);
  shown = true;
}
