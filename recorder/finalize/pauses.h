/* Paused intervals of a run (omp_control_tool pause/start/end and
 * OMPTRACE_START=paused; docs/control.md): collected from the CONTROL_TOOL
 * records of every location by the scan (finalize/scan.c), written by the
 * replay as MeasurementOnOff on every location (finalize/replay.c). */
#ifndef OMPTRACE_PAUSES_H
#define OMPTRACE_PAUSES_H

#include <stdint.h>

typedef struct ot_pause {
  uint64_t off, on; /* raw times; on = UINT64_MAX: never resumed */
  const char *why;  /* the value of the OFF record's omptrace::paused attribute */
} ot_pause;

/* One state change (a CONTROL_TOOL record with kind OT_CTL_*, command a).
 * 0, or -1 when out of memory. */
int ot_pauses_note(uint64_t ts, uint8_t kind, uint32_t command);
/* After the scan: orders the changes in time and makes the intervals. */
void ot_pauses_build(void);
uint32_t ot_pauses_count(void);
const ot_pause *ot_pauses_at(uint32_t i);
void ot_pauses_free(void);

#endif
