/* The scan fed during the run (finalize/scan.c): the flusher hands it
 * every record as it writes it to the log, so that the process's own
 * finalize reads the log once (the replay) instead of twice. Finalize
 * checks that the feed saw exactly what the log holds, else it scans the
 * log as omptrace-recover does. */
#ifndef OMPTRACE_SCAN_FEED_H
#define OMPTRACE_SCAN_FEED_H

#include <stdint.h>

/* nrec records at recs (as log/reader.h returns them: a LOST frame as one
 * OT_LOST record) just written for location loc. From one thread at a
 * time (the flusher's write lock). in_signal: written by a signal handler,
 * which may not allocate: the feed is given up (signal-safe). */
void ot_scan_feed(uint32_t loc, const uint8_t *recs, uint32_t nrec, int in_signal);
/* 1 when the last ot_scan_run took its tables from the feed, 0 when it
 * read the log (for tests and OMPTRACE_VERBOSE). */
int ot_scan_was_fed(void);

#endif
