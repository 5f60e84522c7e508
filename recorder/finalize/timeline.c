/* Per-location timestamp clamp: the clock conversion (core/clock.h) is
 * monotone, but records of one location may arrive out of order after a
 * repair (late worker ends moved to the join), and OTF2 readers require
 * non-decreasing times per location. */
#include "finalize/timeline.h"
#include "core/clock.h"

#include <stdlib.h>

static uint64_t *last_ns; /* per location */
static uint32_t nlast;
static uint64_t first_ns = UINT64_MAX, end_ns;

int ot_timeline_open(uint32_t nloc) {
  free(last_ns);
  last_ns = calloc(nloc ? nloc : 1, sizeof *last_ns);
  nlast = last_ns ? nloc : 0;
  first_ns = UINT64_MAX;
  end_ns = 0;
  return last_ns ? 0 : -1;
}

void ot_timeline_close(void) {
  free(last_ns);
  last_ns = NULL;
  nlast = 0;
}

uint64_t ot_out_ts(uint32_t loc, uint64_t raw) {
  uint64_t t = ot_clock_to_ns(raw);
  if (loc < nlast) {
    if (t < last_ns[loc])
      t = last_ns[loc];
    last_ns[loc] = t;
  }
  if (t < first_ns)
    first_ns = t;
  if (t > end_ns)
    end_ns = t;
  return t;
}

uint64_t ot_out_last(uint32_t loc) {
  if (loc < nlast && last_ns[loc])
    return last_ns[loc];
  return first_ns != UINT64_MAX ? first_ns : 0;
}

void ot_timeline_span(uint64_t *first, uint64_t *end) {
  *first = first_ns == UINT64_MAX ? 0 : first_ns;
  *end = end_ns;
}
