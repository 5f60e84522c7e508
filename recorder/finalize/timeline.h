/* Archive times (finalize/timeline.c): raw clock values to nanoseconds,
 * clamped per location so the times written on one location never
 * decrease, and the span of the whole archive for its ClockProperties. */
#ifndef OMPTRACE_TIMELINE_H
#define OMPTRACE_TIMELINE_H

#include <stdint.h>

/* Starts a timeline of nloc locations. 0, or -1 (out of memory). */
int ot_timeline_open(uint32_t nloc);
void ot_timeline_close(void);
/* Raw clock value to archive nanoseconds, clamped so that the times
 * written on loc never decrease. */
uint64_t ot_out_ts(uint32_t loc, uint64_t raw);
/* Last archive time written on loc (the earliest time of the archive when
 * none was). */
uint64_t ot_out_last(uint32_t loc);
/* Earliest and latest time written (both 0 when none was). */
void ot_timeline_span(uint64_t *first, uint64_t *end);

#endif
