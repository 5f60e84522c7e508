/* Archive times (finalize/timeline.c): raw clock values to nanoseconds,
 * clamped per location so the times written on one location never
 * decrease, and the span of the whole archive for its ClockProperties. */
#ifndef OMPTRACE_TIMELINE_H
#define OMPTRACE_TIMELINE_H

#include "core/clock.h"

#include <stdint.h>

/* Starts a timeline of nloc locations, with the clock conversion as it is
 * now (the run's calibration points are set). 0, or -1 (out of memory). */
int ot_timeline_open(uint32_t nloc);
void ot_timeline_close(void);
/* Last archive time written on loc (the earliest time of the archive when
 * none was). */
uint64_t ot_out_last(uint32_t loc);
/* Earliest and latest time written (both 0 when none was). */
void ot_timeline_span(uint64_t *first, uint64_t *end);

/* The timeline's state, for ot_out_ts: every record's time goes through
 * it, so it is inline. */
typedef struct ot_timeline {
  uint64_t *last_ns; /* per location */
  uint32_t nlast;
  uint64_t first_ns, end_ns;
  ot_clock_conv conv;
} ot_timeline;
extern ot_timeline ot_tl;

/* Raw clock value to archive nanoseconds, clamped so that the times
 * written on loc never decrease. */
static inline uint64_t ot_out_ts(uint32_t loc, uint64_t raw) {
  uint64_t t = ot_clock_conv_ns(&ot_tl.conv, raw);
  if (loc < ot_tl.nlast) {
    if (t < ot_tl.last_ns[loc])
      t = ot_tl.last_ns[loc];
    ot_tl.last_ns[loc] = t;
  }
  if (t < ot_tl.first_ns)
    ot_tl.first_ns = t;
  if (t > ot_tl.end_ns)
    ot_tl.end_ns = t;
  return t;
}

#endif
