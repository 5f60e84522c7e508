/* One pass of the flusher over the process and every location (the
 * writing half of log/flusher.c): frames built in one preallocated buffer,
 * one write(2) each, no allocation, so a pass may run from a signal
 * handler. Callers serialize passes (flusher.c's write lock). */
#ifndef OMPTRACE_LOG_FLUSH_PASS_H
#define OMPTRACE_LOG_FLUSH_PASS_H

#include <stdint.h>

enum {
  OT_PASS_FULL = 0,   /* FULL chunks only (a ring is half full) */
  OT_PASS_ALL = 1,    /* everything recorded so far, captures, stats, CLOCK, META, MAPS */
  OT_PASS_FINISH = 2, /* OT_PASS_ALL with finished=1 in META */
  OT_PASS_LAST = 3,   /* OT_PASS_ALL as the process ends (a terminating signal) */
};
/* A last pass (FINISH or LAST) that cannot write everything drops what is
 * left in a location's ring and writes its LOST and STATS frames (and the
 * process file's CLOCK and META) from a reserve kept allocated past the end
 * of every log file: the log then counts every record it misses. */

/* Allocates the per-location state and the frame buffer, creates
 * log_dir's process file (dir must exist). 0 or -1 (errno set). */
int ot_pass_open(const char *log_dir);
/* signal-safe: open/read/write/ftruncate, no allocation, no stdio when
 * in_signal (warnings are then left for the next ordinary pass).
 * Returns 0 when everything due was written, -1 otherwise. */
int ot_pass_run(int what, int in_signal);
/* Closes every file (the state stays for ot_pass_open of a fork child). */
void ot_pass_close(void);
/* Forgets every location (fork child: new files from location 0). */
void ot_pass_reset(void);
/* Bytes of loc's log file that are whole frames written by this process's
 * passes; 0 when none, or when a partial write could not be cut off
 * (finalize then checks every frame's CRC, as recovery does). */
uint64_t ot_pass_written(uint32_t loc);
/* Records dropped that no LOST frame on disk counts (the disk had no room
 * even for the accounting of a last pass); *err: the write error. */
uint64_t ot_pass_uncounted(int *err);

/* Told of every RECORDS and LOST frame a pass wrote: the records as a
 * reader of the log returns them (a LOST frame as one OT_LOST record).
 * Called inside the pass, so with in_signal the callee must be
 * signal-safe. NULL: nobody (the default). */
typedef void (*ot_pass_written_fn)(uint32_t loc, const uint8_t *recs, uint32_t nrec, int in_signal);
void ot_pass_on_written(ot_pass_written_fn fn);

#endif
