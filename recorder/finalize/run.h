/* The recorded run as finalize sees it: everything the archive needs,
 * loaded from the durable log (log/format.h) and nothing from the live
 * process, so the same pipeline writes the archive at a normal exit and in
 * `omptrace recover` after the program died. */
#ifndef OMPTRACE_RUN_H
#define OMPTRACE_RUN_H

#include "buffer/record.h"
#include "log/frame.h"
#include "log/reader.h"
#include "services/sampler_buf.h"

#include <limits.h>
#include <stdint.h>

#define OT_RUN_MAX_METRICS 32

typedef struct ot_run_thread {
  int present;  /* a THREAD frame was found */
  int32_t type; /* ompt_thread_t */
  int32_t tid;
  uint32_t nval;              /* counter values per record */
  uint64_t records, stall_ns; /* from its last STATS frame */
  uint64_t lost;              /* records in its LOST frames */
  uint64_t logged;            /* records in its valid RECORDS frames */
  int damaged;                /* its log ended in a frame that did not validate */
  uint64_t last_raw;          /* raw time of its last record (0 if none) */
  int own;                    /* it has a <loc>.log (when the run was loaded) */
  uint64_t valid_end;         /* offset in it where its valid frames end (CRCs checked) */
  ot_frame_at *shared;        /* its RECORDS and LOST frames in the shared file, in order */
  uint64_t shared_bytes;      /* bytes of all its valid frames there */
  uint32_t nshared, shared_cap;
  int foreign;      /* its frames in the shared file name another run: left out */
  int gone;         /* its own file is missing, empty or from another run (reported) */
  ot_frame_at last; /* its last RECORDS frame while loading ... */
  int last_in;      /* ... 0 none, 1 in the shared file, 2 in its own */
  /* Sampler captures and counters rebuilt from CAPTURES and STATS frames;
   * `thread` is NULL. */
  ot_sampler_thread sampler;
} ot_run_thread;

typedef struct ot_run {
  char dir[PATH_MAX];     /* archive directory */
  char log_dir[PATH_MAX]; /* <dir>/.log */
  char program[256];
  char host[256];
  long pid;
  int live;       /* loaded by the process that recorded it (symbols from /proc/self) */
  int finished;   /* the log says the run ended normally */
  int callstacks; /* enum ot_callstack_mode */
  uint64_t sampling_ns;
  int sampling_wall; /* the run sampled on the wall clock (OMPTRACE_SAMPLING_CLOCK=wall) */
  int chunks_none;   /* loop chunks were asked for and the runtime gives none */
  uint32_t nthreads;
  ot_run_thread *threads;
  unsigned nmetrics;
  char *metric_name[OT_RUN_MAX_METRICS], *metric_desc[OT_RUN_MAX_METRICS],
      *metric_unit[OT_RUN_MAX_METRICS];
  int metric_estimate[OT_RUN_MAX_METRICS];
  int counters_strict;
  uint64_t realtime_ns;    /* CLOCK_REALTIME of the first calibration point */
  uint64_t clock0_raw;     /* the first calibration point: raw tick */
  uint64_t clock0_ns;      /* and its CLOCK_MONOTONIC time */
  int use_tsc;             /* raw times are TSC ticks (META clock=tsc) */
  uint32_t nclock;         /* calibration points found */
  uint64_t clock_last_raw; /* raw tick of the last one: each flush pass writes one first */
  uint64_t clock_last_ns;  /* and its CLOCK_MONOTONIC time */
  char *maps;              /* text of the last MAPS frame (NUL-terminated), or NULL */
  char *filter;            /* OMPTRACE_FILTER's file (absolute path) of the run, or NULL */
  size_t maps_len;
  uint64_t lost;       /* sum over the threads */
  uint32_t ndamaged;   /* locations whose log ended in a damaged frame */
  uint64_t shared_end; /* where the shared file's valid frames end (CRCs checked) */
  uint32_t nfiles;     /* log files of locations: the shared file and every <loc>.log */
  uint32_t nwritten;   /* of them, read as this process wrote them (ot_run_written_fn) */
  /* Per location, from the process file's LOCATION frames: bit 1 its THREAD
   * frame was on disk, bit 2 its own file was begun (NULL: a log without
   * them, nothing is checked). */
  uint8_t *expect;
  uint32_t nexpect;
  int flushed;       /* the process file holds at least one frame */
  uint32_t nmissing; /* files and streams missing, emptied or from another run (each reported):
                        omptrace-recover's exit status 3 */
  uint32_t npresent; /* locations with a THREAD frame */
  uint64_t cut_raw;  /* records and captures after this raw time are left out (0: none) */
} ot_run;

/* Bytes at the start of location loc's log file (loc OT_LOG_SHARED_LOC: the
 * shared file) that hold only whole frames this process wrote (0: none
 * known): the process that recorded the run skips their CRCs and skims
 * their RECORDS frames. */
typedef uint64_t (*ot_run_written_fn)(uint32_t loc);

/* Loads the run whose log is in dir/.log. Sets the clock conversion
 * (core/clock.h) from the log's first and last CLOCK points. A location
 * whose log ends in a damaged frame is reported once (which file, after
 * how many records). `written` is NULL but in the recording process.
 * Returns 0, or -1 after one error line (no log, unreadable process file,
 * out of memory); run is then empty (safe to ot_run_free). */
int ot_run_load(ot_run *run, const char *dir, int live, ot_run_written_fn written);
void ot_run_free(ot_run *run);

/* Leaves out what was recorded after raw time `raw` (omptrace-recover
 * --cut): a snapshot's flush pass writes the threads' buffers one after
 * another while the program runs on, so a thread written later holds
 * records of a region whose begin, on a thread written earlier, is not in
 * the log yet. Records timed before the pass began are all in it; cutting
 * there gives every thread the same instant. Trims the loaded captures;
 * ot_run_records' readers stop at the cut. */
void ot_run_cut(ot_run *run, uint64_t raw);

/* A location's records for one finalize pass (log/reader.h). A file that
 * cannot be opened reads as no records: ot_run_load reported it. */
ot_reader *ot_run_records(const ot_run *run, uint32_t loc);
/* NULL at the end or for r = NULL. Inline, as ot_reader_next: the passes
 * call it for every record. */
static inline const ot_rec *ot_run_next(ot_reader *r) {
  return r ? ot_reader_next(r) : NULL;
}
void ot_run_records_close(ot_reader *r);

#endif
