/* Replay pass: every location's records to OTF2 events (finalize/replay.c).
 * Locations are replayed together, merged in raw time order, so lock
 * acquisition orders follow global time without storing them. */
#ifndef OMPTRACE_REPLAY_H
#define OMPTRACE_REPLAY_H

#include <otf2/otf2.h>
#include <stdint.h>

/* Counter values per record the writer handles (more are ignored). */
#define OT_WRITER_MAX_METRICS 64

/* writers[loc] for every location; metric_class is the MetricClass id
 * (used when records carry counter values). 0 on success, else the first
 * OTF2 error (the replay stops there) or -1 when a stream cannot be read. */
int ot_replay_run(OTF2_EvtWriter **writers, uint32_t nloc, uint32_t metric_class,
                  OTF2_ErrorCode *err);
/* Last archive time written on loc (finalize/out.c). */
uint64_t ot_out_last(uint32_t loc);
void ot_replay_free(void);

#endif
