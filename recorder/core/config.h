/* Run-time configuration. Every OMPTRACE_* variable is declared once in
 * the table in core/config_table.c (name, default, documentation); that
 * table drives parsing, `omptrace --help`-style listings (see
 * ot_config_print_doc) and docs/configuration.md. */
#ifndef OMPTRACE_CONFIG_H
#define OMPTRACE_CONFIG_H

#include <stdint.h>
#include <stdio.h>

enum ot_callstack_mode { OT_CALLSTACKS_USER = 0, OT_CALLSTACKS_MACHINE = 1 };
/* OMPTRACE_WRITER_THREAD, in the order of its choices. */
enum ot_writer_thread { OT_WRITER_THREAD_AUTO, OT_WRITER_THREAD_ON, OT_WRITER_THREAD_OFF };

/* Event groups selectable with OMPTRACE_EVENTS. */
enum ot_event_group {
  OT_EV_PARALLEL = 1u << 0, /* parallel, implicit tasks (always needed for teams) */
  OT_EV_TASKS = 1u << 1,    /* task create/schedule/dependences */
  OT_EV_SYNC = 1u << 2,     /* barriers, taskwait, taskgroup and their waits */
  OT_EV_MUTEX = 1u << 3,    /* locks, nest locks, critical, ordered */
  OT_EV_WORK = 1u << 4,     /* loop, sections, single, taskloop, workshare */
  OT_EV_MASKED = 1u << 5,
  OT_EV_REDUCTION = 1u << 6,
  OT_EV_FLUSH = 1u << 7,
  OT_EV_CANCEL = 1u << 8,
  OT_EV_CONTROL = 1u << 9, /* control_tool, error */
  OT_EV_ALL = (1u << 10) - 1
};

/* OMPTRACE_CHUNKS, in the order of its choices; NONE: set at start when
 * the runtime gives no chunks (events/register.c). */
enum ot_chunks_mode { OT_CHUNKS_OFF, OT_CHUNKS_ON, OT_CHUNKS_AUTO, OT_CHUNKS_NONE };

typedef struct ot_config {
  char output[4096];     /* OMPTRACE_OUTPUT, resolved archive directory */
  uint64_t buffer_size;  /* OMPTRACE_BUFFER_SIZE, bytes per thread */
  uint64_t buffer_total; /* OMPTRACE_BUFFER_TOTAL, bytes for all threads together */
  uint64_t flush_ns;     /* OMPTRACE_FLUSH_INTERVAL in ns, 0 = no periodic flush */
  uint64_t log_shared;   /* OMPTRACE_LOG_SHARED, bytes per thread in .log/shared */
  uint32_t events;       /* OMPTRACE_EVENTS, enum ot_event_group mask */
  int chunks;            /* OMPTRACE_CHUNKS, enum ot_chunks_mode */
  int start_paused;      /* OMPTRACE_START: 0 recording, 1 paused (omp_control_tool starts) */
  int verbose;           /* OMPTRACE_VERBOSE 0..2 */
  int quiet;             /* OMPTRACE_QUIET */
  int keep_log;          /* OMPTRACE_KEEP_LOG */
  int clock_tsc;         /* OMPTRACE_CLOCK: 1 tsc (if invariant), 0 monotonic */
  char metrics[4096];    /* OMPTRACE_METRICS, comma-separated event names */
  char metrics_on[256];  /* OMPTRACE_METRICS_ON, record groups carrying values */
  int multiplex;         /* OMPTRACE_MULTIPLEX */
  uint64_t sampling_ns;  /* OMPTRACE_SAMPLING period in ns, 0 = off */
  int callstacks;        /* OMPTRACE_CALLSTACKS, enum ot_callstack_mode */
  int sample_contexts;   /* OMPTRACE_SAMPLE_CONTEXTS: 0 lazy (default), 1 eager (for comparison) */
  int sampling_clock;    /* OMPTRACE_SAMPLING_CLOCK: 0 thread CPU time (default), 1 wall clock */
  int sampling_signal;   /* OMPTRACE_SAMPLING_SIGNAL, signal number of the sampling timers */
  /* OMPTRACE_SIGNALS and OMPTRACE_SNAPSHOT_SIGNAL, parsed by faults/select.c */
  char signals[256];
  char snapshot_signal[64];
  char filter[4096];                /* OMPTRACE_FILTER, filter file (empty: none) */
  uint64_t throttle_n, throttle_ns; /* OMPTRACE_THROTTLE N,T; n 0 = off */
  int writer_thread;                /* OMPTRACE_WRITER_THREAD, enum ot_writer_thread */
} ot_config;

extern ot_config ot_cfg;

/* Reads the environment; bad values print one line naming the variable and
 * the value used instead. Returns 0. */
int ot_config_load(const char *program_name);
/* Reads one variable (for programs other than the library, such as
 * omptrace-recover); the rest of ot_cfg is left as it is. */
void ot_config_load_one(const char *name);
/* Prints the table (name, default, description) as text or Markdown. */
void ot_config_print_doc(FILE *out, int markdown);

#endif
