/* Replay pass: every location's records to OTF2 events (finalize/replay.c).
 * Locations are replayed together, merged in raw time order, so lock
 * acquisition orders follow global time without storing them. */
#ifndef OMPTRACE_REPLAY_H
#define OMPTRACE_REPLAY_H

#include <otf2/otf2.h>
#include <stdint.h>

/* Counter values per record the writer handles (more are ignored). */
#define OT_WRITER_MAX_METRICS 64

typedef struct ot_run ot_run;

/* Writes each of run's locations through finalize/evt_out.h (opened by
 * the caller); metric_class is the MetricClass id (used when records carry
 * counter values). 0 on success, else the first OTF2 error seen (the
 * replay stops there) or -1 (out of memory). A run that did not finish
 * ends each location that did not report its end with
 * MeasurementOnOff(OFF) + omptrace::stopped. */
int ot_replay_run(const ot_run *run, uint32_t metric_class, OTF2_ErrorCode *err);
void ot_replay_free(void);

#endif
