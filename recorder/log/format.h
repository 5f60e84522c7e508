/* The durable record log: what the flusher writes while the program runs
 * and what finalize and `omptrace recover` read back. Everything an archive
 * needs is in it, so a log left by a program that died at any instant can
 * still be turned into an archive. This header is the one description of
 * the format (docs/recording.md explains it for users).
 *
 * Layout of <dir>/.log/ (OT_LOG_NAME in core/output_dir.h):
 *   process     frames of type META, CLOCK, MAPS: process-wide facts
 *   shared      the first frames of every location (OMPTRACE_LOG_SHARED
 *               bytes at most each), interleaved, each naming its location
 *               in the header's `loc`: one file instead of one per thread
 *               for the many threads that record little
 *   <loc>.log   the rest of a location's frames, once they no longer fit
 *               in the shared file: a THREAD frame first, then RECORDS,
 *               CAPTURES, LOST and STATS frames in the order written
 *
 * A location's stream is its frames in the shared file, then its own file:
 * it never goes back to the shared file once it has a file of its own.
 *
 * Every file is a sequence of frames: a 24-byte header then `length`
 * payload bytes. A reader accepts a frame only when magic, version, type,
 * length, sequence number (0, 1, 2, ... per file) and CRC-32 (zlib's, over
 * the header with crc = 0, then the payload) all hold; the first frame that
 * fails ends the file for it. A torn last frame (the process died while
 * writing it) is therefore dropped, never misread. Frames are appended with
 * one write(2) each, so a reader may read a log that is still growing. */
#ifndef OMPTRACE_LOG_FORMAT_H
#define OMPTRACE_LOG_FORMAT_H

#include <stdint.h>

#define OT_LOG_MAGIC 0x474c544fu /* "OTLG" little-endian */
#define OT_LOG_VERSION 1
#define OT_LOG_PROCESS_FILE "process"
#define OT_LOG_SHARED_FILE "shared"
#define OT_LOG_THREAD_SUFFIX ".log"  /* <loc>.log */
#define OT_LOG_MAX_FRAME (64u << 20) /* larger lengths are corrupt */

enum ot_frame_type {
  /* process file */
  OT_FRAME_META = 1,     /* text lines "key=value\n"; later frames override earlier keys */
  OT_FRAME_CLOCK = 2,    /* ot_log_clock: one calibration point (raw tick, CLOCK_MONOTONIC ns) */
  OT_FRAME_MAPS = 3,     /* the text of /proc/self/maps when written; the last one counts */
  OT_FRAME_LOCATION = 4, /* ot_log_location: a location's stream or own file now exists on disk */
  /* thread files */
  OT_FRAME_THREAD =
      16, /* ot_log_thread: a location's first frame, again as frame 0 of a <loc>.log */
  OT_FRAME_RECORDS = 17,  /* ot_log_records header + records encoded by log/codec.h */
  OT_FRAME_CAPTURES = 18, /* ot_log_captures header + raw ot_capture bytes (sampler_buf.h) */
  OT_FRAME_LOST = 19,     /* ot_log_lost: records discarded because the log could not be written */
  OT_FRAME_STATS = 20, /* ot_log_stats: counters of the thread at the time of writing; last wins */
  OT_FRAME_TYPE_MAX = 32
};

typedef struct ot_frame_hdr {
  uint32_t magic;
  uint8_t type; /* enum ot_frame_type */
  uint8_t version;
  uint16_t flags;  /* 0 */
  uint32_t length; /* payload bytes */
  uint32_t seq;    /* frame number in this file, from 0 */
  uint32_t crc;    /* crc32 of header (crc = 0) and payload */
  uint32_t loc;    /* frames of a thread: its location (in <loc>.log files as well); else 0 */
} ot_frame_hdr;
_Static_assert(sizeof(ot_frame_hdr) == 24, "frame header is 24 bytes");

/* The shared file where a location number is expected (ot_pass_written,
 * ot_run_written_fn). */
#define OT_LOG_SHARED_LOC (UINT32_MAX - 1)

/* META keys (values are single-line text):
 *   version, program, pid, host, clock (tsc|monotonic), realtime_ns
 *   (CLOCK_REALTIME at the first CLOCK point's monotonic time), callstacks
 *   (user|machine), sampling_ns (period, 0 = off), counters (n), counter.<i>.name,
 *   counter.<i>.desc, counter.<i>.unit, counter.<i>.estimate (0|1), counters_strict (0|1),
 *   finished (1 once the final flush of a normal end is complete), filter (the absolute path
 *   of OMPTRACE_FILTER's file when its rules are in force: recovery applies them). */

typedef struct ot_log_clock {
  uint64_t raw; /* ot_clock_now() */
  uint64_t ns;  /* ot_monotonic_ns() at that tick */
} ot_log_clock;

typedef struct ot_log_thread {
  uint32_t loc;
  int32_t type; /* ompt_thread_t */
  int32_t tid;
  uint32_t nval;         /* counter values per record on this thread */
  uint64_t shared_bytes; /* at the head of a <loc>.log: bytes of the location's frames in the
                            shared file, which its stream continues (0 in the shared file): a
                            reader that finds fewer there knows part of the stream is missing */
  uint64_t run;          /* the run's identity: its META realtime_ns. A file whose THREAD frame
                            names another run was swapped in from another log (0: not known) */
} ot_log_thread;
/* THREAD payloads of logs written before the shared file end after nval
 * (shared_bytes reads as 0), before the run identity after shared_bytes
 * (run reads as 0 and is not checked). */
#define OT_LOG_THREAD_MIN 16u

/* A process-file LOCATION frame, written once a location's THREAD frame is
 * on disk (what 0) and once its own <loc>.log holds its THREAD frame (what
 * 1): a reader that misses such a file or stream knows it was deleted or
 * emptied. Logs written before it have none, and nothing is checked. */
enum ot_log_location_what { OT_LOC_STARTED = 0, OT_LOC_OWN_FILE = 1 };
typedef struct ot_log_location {
  uint32_t loc;
  uint32_t what; /* enum ot_log_location_what */
} ot_log_location;

typedef struct ot_log_records {
  uint32_t nrec;  /* records in this frame */
  uint32_t bytes; /* encoded bytes following this header */
} ot_log_records;

enum ot_capture_buf { OT_LOG_SAMPLES = 0, OT_LOG_CONTEXTS = 1 };
typedef struct ot_log_captures {
  uint32_t which; /* enum ot_capture_buf */
  uint32_t pad;
  uint64_t offset; /* byte offset of the first capture in the thread's buffer */
} ot_log_captures;

typedef struct ot_log_lost {
  uint64_t count;    /* records discarded */
  uint64_t first_ts; /* raw clock of the first and last of them */
  uint64_t last_ts;
} ot_log_lost;

typedef struct ot_log_stats {
  uint64_t records;  /* records written by the thread so far */
  uint64_t stall_ns; /* time it waited for a free chunk */
  uint64_t taken;    /* sampler counters, see ot_sampler_thread */
  uint64_t full, busy_skips, ctx_full, ctx_taken, ctx_reused;
  uint64_t sample_ticks, ctx_ticks, expirations, armed_ns, disarmed_ns;
} ot_log_stats;

#endif
