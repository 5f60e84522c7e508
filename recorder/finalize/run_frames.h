/* What the frames of one location say, applied to its ot_run_thread
 * (finalize/run.h): THREAD facts, record counts and the last RECORDS
 * frame, LOST counts, the last STATS, sampler captures rebuilt, and the
 * shared file's RECORDS and LOST frames listed for the location's readers.
 * finalize/run.c reads the files and calls these. */
#ifndef OMPTRACE_RUN_FRAMES_H
#define OMPTRACE_RUN_FRAMES_H

#include "finalize/run.h"
#include "log/frame.h"

#include <stdint.h>

/* One valid frame of location t at `at`, in the shared file (in_shared) or
 * in the location's own. 0, or -1 when out of memory. */
int ot_run_apply_frame(ot_run_thread *t, const ot_frame_hdr *h, const uint8_t *p, ot_frame_at at,
                       int in_shared);
/* Keeps the whole, well-formed captures at the start of a rebuilt buffer. */
void ot_run_trim_captures(ot_cap_buf *b);
/* Raw time of the last record of a RECORDS frame's payload (0: none). */
uint64_t ot_run_last_time(const uint8_t *p, uint32_t len);

#endif
