/* The recorded run as finalize sees it: everything the archive needs,
 * loaded from the durable log (log/format.h) and nothing from the live
 * process, so the same pipeline writes the archive at a normal exit and in
 * `omptrace recover` after the program died. */
#ifndef OMPTRACE_RUN_H
#define OMPTRACE_RUN_H

#include "services/sampler_buf.h"

#include <limits.h>
#include <stdint.h>

#define OT_RUN_MAX_METRICS 32

typedef struct ot_run_thread {
  int present;   /* a THREAD frame was found */
  int32_t type;  /* ompt_thread_t */
  int32_t tid;
  uint32_t nval; /* counter values per record */
  uint64_t records, stall_ns; /* from its last STATS frame */
  uint64_t lost;              /* records in its LOST frames */
  int damaged;                /* its log ended in a frame that did not validate */
  uint64_t last_raw;          /* raw time of its last record (0 if none) */
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
  int live;      /* loaded by the process that recorded it (symbols from /proc/self) */
  int finished;  /* the log says the run ended normally */
  int callstacks; /* enum ot_callstack_mode */
  uint64_t sampling_ns;
  uint32_t nthreads;
  ot_run_thread *threads;
  unsigned nmetrics;
  char *metric_name[OT_RUN_MAX_METRICS], *metric_desc[OT_RUN_MAX_METRICS],
      *metric_unit[OT_RUN_MAX_METRICS];
  int metric_estimate[OT_RUN_MAX_METRICS];
  int counters_strict;
  uint64_t realtime_ns; /* CLOCK_REALTIME of the first calibration point */
  char maps_path[PATH_MAX + 16]; /* <log_dir>/maps.txt written from the last MAPS frame, or "" */
} ot_run;

/* Loads the run whose log is in dir/.log. Sets the clock conversion
 * (core/clock.h) from the log's CLOCK points. Returns 0, or -1 after one
 * error line (no log, unreadable process file). */
int ot_run_load(ot_run *run, const char *dir, int live);
void ot_run_free(ot_run *run);

#endif
