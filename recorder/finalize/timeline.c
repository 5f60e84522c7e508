/* Per-location timestamp clamp: the clock conversion (core/clock.h) is
 * monotone, but records of one location may arrive out of order after a
 * repair (late worker ends moved to the join), and OTF2 readers require
 * non-decreasing times per location. */
#include "finalize/timeline.h"

#include <stdlib.h>

ot_timeline ot_tl = {.first_ns = UINT64_MAX};

int ot_timeline_open(uint32_t nloc) {
  free(ot_tl.last_ns);
  ot_tl.last_ns = calloc(nloc ? nloc : 1, sizeof *ot_tl.last_ns);
  ot_tl.nlast = ot_tl.last_ns ? nloc : 0;
  ot_tl.first_ns = UINT64_MAX;
  ot_tl.end_ns = 0;
  ot_clock_conversion(&ot_tl.conv);
  return ot_tl.last_ns ? 0 : -1;
}

void ot_timeline_close(void) {
  free(ot_tl.last_ns);
  ot_tl.last_ns = NULL;
  ot_tl.nlast = 0;
}

uint64_t ot_out_last(uint32_t loc) {
  if (loc < ot_tl.nlast && ot_tl.last_ns[loc])
    return ot_tl.last_ns[loc];
  return ot_tl.first_ns != UINT64_MAX ? ot_tl.first_ns : 0;
}

void ot_timeline_span(uint64_t *first, uint64_t *end) {
  *first = ot_tl.first_ns == UINT64_MAX ? 0 : ot_tl.first_ns;
  *end = ot_tl.end_ns;
}
