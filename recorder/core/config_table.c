/* Every OMPTRACE_* variable, in one place: parsing (core/config.c),
 * `omptrace --help` (omptrace-config) and docs/configuration.md all come
 * from this table. */
#include "core/config_table.h"
#include "core/config.h"

#include <stddef.h>

/* Sampling stays off unless asked for; the sampling service documents
 * the overhead of each rate. */
#define OT_SAMPLING_DEFAULT "0"
/* 16 MiB per thread hold about 500 000 plain records before the first
 * hand-off to the flusher. */
#define OT_BUFFER_SIZE_DEFAULT "16M"
#define OT_BUFFER_SIZE_MIN (64 << 10)
#define OT_BUFFER_SIZE_MAX (64ll << 30)
/* 1 GiB for all threads: 64 threads get the full 16 MiB each, 4096
 * threads 256 KiB each (the floor), without touching memory they never use. */
#define OT_BUFFER_TOTAL_DEFAULT "1G"
/* Once a second: a crash loses at most about a second of records, at the
 * cost of one write per thread and second. */
#define OT_FLUSH_INTERVAL_DEFAULT "1s"
#define OT_LOG_SHARED_DEFAULT "64K"
#define OT_LOG_SHARED_MAX (16 << 20)
#define OT_FLUSH_INTERVAL_MIN_NS 10000000
/* 10 us: faster sampling would cost more than the events it explains. */
#define OT_SAMPLING_MIN_PERIOD_NS 10000

#define FIELD(f) offsetof(ot_config, f), sizeof(((ot_config *)0)->f)

const char *const ot_event_group_names[] = {"parallel", "tasks",   "sync",      "mutex",
                                            "work",     "masked",  "reduction", "flush",
                                            "cancel",   "control", NULL};

/* OMPTRACE_LIBRARY: the launcher's library path (share/omptrace);
 * OMPTRACE_MERGE(_WAIT): the launcher's merge of an MPI job (docs/mpi.md);
 * OMPTRACE_BUILD_DIR: bench/run.sh's build tree; OMPTRACE_TEST_*: test-only
 * hooks of the fault and MPI tests (core/clock.h, mpi/clock_sync.c,
 * finalize/out.c, finalize/hints.c, log/flusher.c), not for users, so not in --help either. */
const char *const ot_config_foreign[] = {"OMPTRACE_LIBRARY",
                                         "OMPTRACE_MERGE",
                                         "OMPTRACE_MERGE_WAIT",
                                         "OMPTRACE_BUILD_DIR",
                                         "OMPTRACE_TEST_CLOCK_SKEW",
                                         "OMPTRACE_TEST_CLOCK_SYNC_DELAY_MS",
                                         "OMPTRACE_TEST_FINALIZE_DELAY_MS",
                                         "OMPTRACE_TEST_FLUSH_BUSY",
                                         "OMPTRACE_TEST_HINT_NS",
                                         NULL};

static const char *const clock_choices[] = {"monotonic", "tsc", NULL};
static const char *const callstack_choices[] = {"user", "machine", NULL};
static const char *const context_choices[] = {"lazy", "eager", NULL};
static const char *const sampling_clock_choices[] = {"cpu", "wall", NULL};
static const char *const start_choices[] = {"recording", "paused", NULL};
static const char *const writer_choices[] = {"auto", "on", "off", NULL};
static const char *const chunks_choices[] = {"off", "on", "auto", NULL};

const ot_option ot_options[] = {
    {"OMPTRACE_OUTPUT", "", "directory",
     "Archive directory. Default: omptrace-<program>-<YYYYmmdd-HHMMSS>-<pid> in the current "
     "directory. A directory that already holds an archive, or that another run is writing "
     "to, is never overwritten: <dir>.1, <dir>.2, ... is used instead (and named on stderr). "
     "The same for a directory another user could change: a symbolic link of another user's "
     "(never followed), another user's directory, or one writable by all without the sticky "
     "bit; the archive is written in a private directory and moved into place, never through "
     "a link planted meanwhile (docs/recording.md, \"Output paths another user can reach\").",
     OT_OPT_STRING, FIELD(output), 0, 0, NULL},
    {"OMPTRACE_BUFFER_SIZE", OT_BUFFER_SIZE_DEFAULT, "bytes, suffix K, M or G (binary)",
     "Largest event buffer of one thread, mapped when the thread starts (only its first 16 KiB "
     "are touched then, the rest as it is used) and split into chunks of at most 1 MiB. "
     "Chunks are appended to the "
     "record log <dir>/.log/ by a background thread, so the trace length is not limited by "
     "this size. Minimum 64K.",
     OT_OPT_SIZE, FIELD(buffer_size), OT_BUFFER_SIZE_MIN, OT_BUFFER_SIZE_MAX, NULL},
    {"OMPTRACE_BUFFER_TOTAL", OT_BUFFER_TOTAL_DEFAULT, "bytes, suffix K, M or G (binary)",
     "Event buffers of all threads together: a thread gets OMPTRACE_BUFFER_SIZE or what is left "
     "of this total, but at least 256K. Under an address-space limit (ulimit -v) the total is "
     "at most a quarter of it (docs/recording.md).",
     OT_OPT_SIZE, FIELD(buffer_total), OT_BUFFER_SIZE_MIN, OT_BUFFER_SIZE_MAX, NULL},
    {"OMPTRACE_FLUSH_INTERVAL", OT_FLUSH_INTERVAL_DEFAULT, "duration (500ms, 2s), 0 or off",
     "How often everything recorded so far is written to the record log, so a program that "
     "is killed or crashes loses at most this much. 0: only full chunks are written (and "
     "everything at exit). Shortest 10ms.",
     OT_OPT_DURATION, FIELD(flush_ns), OT_FLUSH_INTERVAL_MIN_NS, 0, NULL},
    {"OMPTRACE_LOG_SHARED", OT_LOG_SHARED_DEFAULT, "bytes, suffix K, M or G (binary); 0",
     "A thread's first frames of the record log, up to this many bytes, go to one file all "
     "threads share (<dir>/.log/shared), the rest to a file of its own: a program with many "
     "threads that record little creates one file instead of one per thread, which is what "
     "costs on file systems slow to create files. 0: every thread has its own file.",
     OT_OPT_SIZE, FIELD(log_shared), 0, OT_LOG_SHARED_MAX, NULL},
    {"OMPTRACE_EVENTS", "all",
     "comma list of parallel, tasks, sync, mutex, work, masked, reduction, flush, cancel, "
     "control; or all",
     "Event groups to record. Thread, parallel region and implicit task events are always "
     "recorded (teams need them). Blanks around names are ignored; a list naming no group "
     "(empty, or only commas) is reported and all is recorded.",
     OT_OPT_EVENTS, FIELD(events), 0, 0, NULL},
    {"OMPTRACE_CHUNKS", "off", "off, on or auto",
     "Loop chunks (ompt_callback_dispatch): one record per chunk a thread takes in a loop, "
     "taskloop or distribute loop, with its first iteration and iteration count, shown per "
     "thread by omptrace-summary (docs/recording.md). on: recorded, and one line on stderr when "
     "the runtime gives none (libomp 14; 15 and later give them); auto: recorded where the "
     "runtime gives them, without that line. Off by default: schedule(dynamic) takes one "
     "iteration per chunk, and a loop of short iterations then records one event per "
     "iteration (docs/performance.md, \"Loop chunks\"). Needs the work group of "
     "OMPTRACE_EVENTS.",
     OT_OPT_CHOICE, FIELD(chunks), 0, 0, chunks_choices},
    {"OMPTRACE_START", "recording", "recording or paused",
     "paused: record nothing until the program calls omp_control_tool(omp_control_tool_start, "
     "0, NULL) (docs/control.md). The paused time shows in the archive as MeasurementOnOff "
     "and in the summary as paused time.",
     OT_OPT_CHOICE, FIELD(start_paused), 0, 0, start_choices},
    {"OMPTRACE_VERBOSE", "0", "0, 1 or 2",
     "1: report which OMPT callbacks the runtime accepted and other details of the set-up.",
     OT_OPT_INT, FIELD(verbose), 0, 2, NULL},
    {"OMPTRACE_QUIET", "0", "0 or 1", "1: no start and exit lines (warnings are still printed).",
     OT_OPT_BOOL, FIELD(quiet), 0, 1, NULL},
    {"OMPTRACE_KEEP_LOG", "0", "0 or 1",
     "1: keep the record log (<dir>/.log) after the archive is written, e.g. to write the "
     "archive again with omptrace-recover -o or to send it with a bug report. 0: the log "
     "is removed once the archive is complete.",
     OT_OPT_BOOL, FIELD(keep_log), 0, 1, NULL},
    {"OMPTRACE_CLOCK", "tsc", "tsc or monotonic",
     "Timestamp source. tsc (about 10 ns per read) is used only when the CPU reports an "
     "invariant TSC, and is converted to CLOCK_MONOTONIC nanoseconds at exit; otherwise "
     "clock_gettime(CLOCK_MONOTONIC) is read directly.",
     OT_OPT_CHOICE, FIELD(clock_tsc), 0, 0, clock_choices},
    {"OMPTRACE_METRICS", "", "comma list of PAPI event names",
     "Hardware or software counters (PAPI presets, native or SDE names) read at each "
     "recorded event and written as OTF2 metrics. Empty: no counters.",
     OT_OPT_STRING, FIELD(metrics), 0, 0, NULL},
    {"OMPTRACE_METRICS_ON", "default",
     "comma list of event groups (names as in OMPTRACE_EVENTS), -group to remove one; all, "
     "none or default",
     "Which records carry counter values when OMPTRACE_METRICS is set. default: parallel, "
     "tasks, sync and work (not the short, frequent lock events). A list starting with a group "
     "name starts from nothing, one starting with -group from the default. Fewer groups, fewer "
     "counter reads (docs/counters.md). A list with an unknown name is reported and default "
     "is used.",
     OT_OPT_GROUPS, FIELD(metrics_on), 0, 0, NULL},
    {"OMPTRACE_MULTIPLEX", "0", "0 or 1",
     "1: let PAPI multiplex counters that do not fit the hardware at once (values become "
     "estimates and are marked so).",
     OT_OPT_BOOL, FIELD(multiplex), 0, 1, NULL},
    {"OMPTRACE_SAMPLING", OT_SAMPLING_DEFAULT,
     "frequency (1kHz, 200Hz), period (5ms, 100us), on (= " OT_SAMPLING_ON_RATE "), 0 or off",
     "Call-stack sampling of every OpenMP thread on a timer (OMPTRACE_SAMPLING_CLOCK). Shortest "
     "period "
     "10us. Off by default because the timer signal makes sleep(), nanosleep() and other "
     "interruptible calls of the program return early (docs/sampling.md); on costs about 5% on "
     "real parallel work (docs/performance.md).",
     OT_OPT_RATE, FIELD(sampling_ns), OT_SAMPLING_MIN_PERIOD_NS, 0, NULL},
    /* A real-time signal: programs and their profilers own SIGPROF
     * (setitimer, PAPI overflow) far more often than SIGRTMIN+4. */
    {"OMPTRACE_SAMPLING_SIGNAL", "SIGRTMIN+4",
     "SIGRTMIN+N, SIGRTMAX-N, SIGPROF, SIGALRM, SIGVTALRM, SIGUSR1, SIGUSR2 or a signal number",
     "Signal of the sampling timers. Signals the tool did not send are passed to the program's "
     "own handler. A program that installs its own handler for this signal after tracing "
     "started takes the samples: a warning at exit then names the signal and the samples taken "
     "and expected (docs/sampling.md).",
     OT_OPT_SIGNAL, FIELD(sampling_signal), 0, 0, NULL},
    {"OMPTRACE_SAMPLING_CLOCK", "cpu", "cpu or wall",
     "cpu: each thread's timer counts its own CPU time, so a thread blocked in a wait takes no "
     "samples and costs nothing (its wait is in the trace's intervals); wall: CLOCK_MONOTONIC, "
     "blocked waits sampled too, at a signal per thread and period (docs/sampling.md).",
     OT_OPT_CHOICE, FIELD(sampling_clock), 0, 0, sampling_clock_choices},
    {"OMPTRACE_CALLSTACKS", "user", "user or machine",
     "user: samples show the OpenMP program's view (runtime frames folded into the construct); "
     "machine: every frame as unwound, runtime included.",
     OT_OPT_CHOICE, FIELD(callstacks), 0, 0, callstack_choices},
    {"OMPTRACE_SAMPLE_CONTEXTS", "lazy", "lazy or eager",
     "lazy: capture the call path of a parallel region's fork only when a sample fell into "
     "the region; eager: at every region and task creation (costly, for comparison).",
     OT_OPT_CHOICE, FIELD(sample_contexts), 0, 0, context_choices},
    /* Both are checked where they are used (faults/select.c), with the
     * same kind of one-line report as the other variables. */
    {"OMPTRACE_SIGNALS", "all",
     "all, none, or a comma list of term, int, hup, quit, segv, bus, fpe, ill, abrt",
     "Signals after which the archive is still written (docs/recording.md, \"When things go "
     "wrong\"): the handler flushes the record log, runs omptrace-recover on it, prints one "
     "line, then lets the signal do what it would have done (exit status and core dump "
     "unchanged). term, int, hup and quit are handled only when the program left them at their "
     "default action; the crash signals always, passing them on to the program's own handler.",
     OT_OPT_STRING, FIELD(signals), 0, 0, NULL},
    {"OMPTRACE_FILTER", "", "file",
     "Filter file in Score-P's syntax (SCOREP_REGION_NAMES_BEGIN ... EXCLUDE/INCLUDE ... _END, "
     "SCOREP_FILE_NAMES_BEGIN ... _END): constructs it excludes are not recorded (what they "
     "contain still is). Patterns match region names (\"barrier @ file.c:12\"), the construct "
     "alone, the enclosing function and the source file (docs/control.md). A file that cannot be "
     "read or parsed is reported with its line number, and the run is traced unfiltered; so is "
     "a path that is not a regular file of at most 16 MiB (/dev/zero, a FIFO, a directory). "
     "Default: no filter.",
     OT_OPT_STRING, FIELD(filter), 0, 0, NULL},
    {"OMPTRACE_THROTTLE", "off", "N,T (a count and a duration: 100000,10us) or off",
     "Throttling of tiny constructs: once N recorded instances of an explicit task (by "
     "creation site), a flush, critical section, ordered region, lock acquisition, "
     "work-sharing construct (loop, sections, single, ...), masked or parallel region (by code "
     "address) on one thread have a mean duration below T, "
     "that thread records no more of them and keeps only their count and total time, which "
     "omptrace-summary reports as throttled (docs/control.md). A bad value is reported and the "
     "run is traced unthrottled. Default: off.",
     OT_OPT_THROTTLE, FIELD(throttle_n), 0, 0, NULL},
    {"OMPTRACE_SNAPSHOT_SIGNAL", "SIGUSR2", "SIGUSR1, SIGUSR2, SIGRTMIN+N, SIGRTMAX-N, ... or none",
     "Signal that writes a snapshot while the program runs on: <dir>/snapshot-<n>/ with an "
     "archive of everything so far and where.txt, where each thread is (`omptrace snapshot "
     "PID` sends it). Not installed when the program has its own handler for the signal or "
     "when it is the sampling signal.",
     OT_OPT_STRING, FIELD(snapshot_signal), 0, 0, NULL},
    {"OMPTRACE_WRITER_THREAD", "auto", "auto, on or off",
     "Writing the archive (at exit, and in omptrace-recover, which reads it too): a second "
     "thread encodes and writes the OTF2 events while the record log is replayed, so the two "
     "overlap. auto: when the finalizing thread may run on two CPUs or more, a CPU is idle "
     "(fewer threads runnable than CPUs online) and the log holds more than a few thousand "
     "records; on: always; off: one thread. The archive is the same either way; a thread that "
     "cannot start means one thread.",
     OT_OPT_CHOICE, FIELD(writer_thread), 0, 0, writer_choices},
};

const size_t ot_option_count = sizeof ot_options / sizeof ot_options[0];
