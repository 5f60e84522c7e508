/* The flusher: one background thread that appends every location's records
 * (and sampler captures, and process facts) to the durable log
 * <dir>/.log/ (log/format.h) while the program runs. It writes full chunks
 * when half of a ring is full, everything recorded so far (the active chunk
 * up to its published end included) every OMPTRACE_FLUSH_INTERVAL, and on
 * request. When writes fail (full disk) it keeps the chunks in memory and
 * retries; only when a thread needs a chunk that cannot be written is the
 * oldest one discarded, and the log then gets a LOST frame with exactly
 * what was discarded. The last flush (normal end, terminating signal) on a
 * full disk discards what is left and writes the LOST frames into a reserve
 * kept past the end of every log file (log/flush_pass.h). */
#ifndef OMPTRACE_LOG_FLUSHER_H
#define OMPTRACE_LOG_FLUSHER_H

#include <stdint.h>

/* Creates <out_dir>/.log/, writes the first META, CLOCK and MAPS frames and
 * starts the flusher thread. Returns -1 (errno set) when the log directory
 * cannot be created. */
int ot_log_init(const char *out_dir);
const char *ot_log_dir(void); /* <out>/.log */

/* Wakes the flusher for the FULL chunks (called by the buffer layer's
 * hand-off). */
void ot_log_kick(void);

/* Writes everything recorded so far and waits until it is on disk (all
 * locations, captures, stats, a CLOCK point, MAPS if they changed).
 * Returns 0, or -1 when some of it could not be written. Not signal-safe. */
int ot_log_flush(void);

/* signal-safe. The same from a signal handler: asks the flusher thread to
 * flush and waits at most timeout_ms for it (poll on a pipe); flushes
 * inline when called on the flusher thread itself or when the flusher is
 * gone. Returns 0 when the flush completed. */
int ot_log_flush_from_signal(int timeout_ms);

/* Normal end: final flush, META finished=1, flusher joined, files closed.
 * Recording must have stopped (ot_recording = 0, ot_buffer_stop). */
int ot_log_finish(void);

/* After the archive was written from the log: removes <dir>/.log/. */
void ot_log_remove(void);

/* fork() support (faults/fork.c): the flusher is paused around fork so the
 * child never inherits a half-written frame. */
void ot_log_fork_prepare(void);
void ot_log_fork_parent(void);
/* In the child: forgets the parent's log and rings and starts afresh in
 * new_out_dir (a new .log/ and a new flusher thread). */
int ot_log_fork_child(const char *new_out_dir);

#endif
