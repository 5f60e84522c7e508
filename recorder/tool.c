/* Tool life cycle: ompt_start_tool, initialize (configuration, clock,
 * output directory, callbacks, services) and finalize (stop recording,
 * drain buffers, write the archive). The top of the library: it ties every
 * folder together, so it lives above them (core/ depends on nothing above). */
#define _GNU_SOURCE /* program_invocation_short_name */
#include "buffer/buffer.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/filter.h"
#include "core/log.h"
#include "core/output_dir.h"
#include "core/thread.h"
#include "core/throttle.h"
#include "events/emit.h"
#include "events/handlers.h"
#include "faults/faults.h"
#include "finalize/out.h"
#include "finalize/run.h"
#include "finalize/scan_feed.h"
#include "log/flush_pass.h"
#include "log/flusher.h"
#include "services/counters.h"
#include "services/sampler.h"
#include "services/sampler_ompt.h"

#include <errno.h>
#include <omp-tools.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 1 while tracing is set up and not yet written. */
static atomic_int active;
static void finalize(ompt_data_t *tool_data);
static void end_run(void) {
  finalize(NULL);
}

/* Initial threads other than the caller that began and have not ended: the
 * program's own pthreads, each the root of its OpenMP regions. */
static unsigned other_roots_alive(void) {
  unsigned n = 0;
  for (uint32_t loc = 0, count = ot_thread_count(); loc < count; loc++) {
    ot_thread *t = ot_thread_get(loc);
    if (t && t != ot_self && t->thread_type == ompt_thread_initial &&
        !atomic_load_explicit(&t->ended, memory_order_acquire))
      n++;
  }
  return n;
}

/* exit() while other pthreads may still be running OpenMP regions: libomp's
 * destructor marks the runtime done and frees its tables (__kmp_cleanup)
 * under those threads, and only then calls the tool's finalize, so every
 * millisecond the archive takes is one they run on a torn-down runtime (an
 * assertion in kmp_runtime.cpp, or SIGSEGV: 20 of 20 runs of
 * tests/faults/progs/roots.c with a 100 ms pause in the writing, 0 of 100
 * without the tool). atexit handlers run in reverse order of registration:
 * this one, registered at initialize, runs after those registered later
 * (the program's, mostly) and before any library destructor, libomp's
 * included, while the runtime is whole. The archive is written here then,
 * and libomp's finalize finds nothing left to do. With no other root alive
 * it waits for libomp's finalize as before, so OpenMP code in earlier
 * atexit handlers and in destructors is still recorded. */
static void at_exit(void) {
  unsigned others = other_roots_alive();
  if (!others)
    return;
  ot_verbose("exit with %u other initial thread%s alive: the archive is written now, before the "
             "OpenMP runtime is torn down",
             others, others == 1 ? "" : "s");
  finalize(NULL);
}

static int initialize(ompt_function_lookup_t lookup, int initial_device_num,
                      ompt_data_t *tool_data) {
  (void)initial_device_num;
  (void)tool_data;
  const char *program = program_invocation_short_name;
  ot_config_load(program);
  ot_clock_init();
  if (ot_output_dir_create(ot_cfg.output, sizeof ot_cfg.output) != 0)
    return 0; /* tracing off, the program runs on */
  ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set_callback) {
    ot_warn("the OpenMP runtime offers no ompt_set_callback; tracing is off");
    ot_output_dir_abandon(ot_cfg.output);
    return 0;
  }
  /* Finalize's scan pass is done as the records are written (scan_feed.h). */
  ot_pass_on_written(ot_scan_feed);
  if (ot_log_init(ot_cfg.output) != 0) {
    ot_warn("cannot set up the record log %s/" OT_LOG_NAME ": %s; tracing is off", ot_cfg.output,
            strerror(errno));
    ot_output_dir_abandon(ot_cfg.output);
    return 0;
  }
  ot_filter_init(ot_cfg.filter);
  ot_throttle_init();
  ot_counters_init();
  ot_sampler_set_lookup(lookup);
  ot_sampler_init();
  ot_emit_prepare();
  if (ot_cfg.start_paused && !(ot_cfg.events & OT_EV_CONTROL)) {
    ot_warn("OMPTRACE_START=paused needs the control events (OMPTRACE_EVENTS), which resume "
            "it; recording from the start");
    ot_cfg.start_paused = 0;
  }
  atomic_store(&ot_recording, ot_cfg.start_paused ? OT_REC_PAUSED : OT_REC_ON);
  atomic_store(&active, 1);
  ot_faults_init(end_run);
  atexit(at_exit);
  ot_events_register(set_callback, ot_cfg.events);
  int mib = ot_cfg.buffer_size % (1u << 20) == 0;
  ot_info("tracing %s (pid %d) into %s/ [clock %s, buffer %llu %s/thread]", program, (int)getpid(),
          ot_cfg.output, ot_clock_name(),
          (unsigned long long)(ot_cfg.buffer_size >> (mib ? 20 : 10)), mib ? "MiB" : "KiB");
  size_t chunk;
  uint32_t nchunks;
  ot_buffer_geometry(ot_cfg.buffer_size, &chunk, &nchunks);
  ot_verbose("buffers: up to %u chunks of %zu KiB per thread (%llu MiB for all), written to %s",
             nchunks, chunk >> 10, (unsigned long long)(ot_cfg.buffer_total >> 20), ot_log_dir());
  return 1;
}

/* Stall and loss summary from the run's log: nothing is dropped silently. */
static void report_buffers(const ot_run *run) {
  uint64_t lost = run->lost, stall = 0;
  for (uint32_t loc = 0; loc < run->nthreads; loc++)
    stall += run->threads[loc].stall_ns;
  if (lost)
    ot_warn("%llu records were lost while the log could not be written (marked in the trace)",
            (unsigned long long)lost);
  if (stall)
    ot_verbose("threads waited %.3f ms in total for the flusher (a larger "
               "OMPTRACE_BUFFER_SIZE absorbs bursts)",
               (double)stall / 1e6);
}

static void finalize(ompt_data_t *tool_data) {
  (void)tool_data;
  if (!atomic_exchange(&active, 0))
    return;
  /* The snapshot thread and crash handlers end before the log does; when
   * a signal handler already wrote the archive (faults/), nothing is left.
   * A terminating signal while the archive is written leaves the log and
   * one line (faults/faults.h). */
  int ours = ot_faults_finalize_begin();
  if (!ours) {
    ot_faults_stop();
    return;
  }
  /* First: handlers of threads still running (exit() inside a parallel
   * region) stop appending, so the buffers hold still while converted. */
  atomic_store(&ot_recording, 0);
  ot_buffer_stop();
  ot_sampler_stop();
  ot_log_finish();
  ot_filter_close();
  /* The archive comes from the log alone, as in omptrace-recover. */
  static ot_run run;
  if (ot_run_load(&run, ot_cfg.output, 1, ot_pass_written) == 0) {
    report_buffers(&run);
    if (ot_finalize_write(&run) == 0 && !ot_cfg.keep_log)
      ot_log_remove();
    ot_run_free(&run);
  }
  ot_counters_finalize();
  ot_faults_stop();
}

/* libomp skips the tool's finalize when exit() is called inside a
 * parallel region; the library's destructor then writes the archive
 * (other threads may still be running OpenMP code). */
__attribute__((destructor)) static void finalize_at_unload(void) {
  finalize(NULL);
}

/* MPI_Abort (libomptrace-mpi.so, buffer/mpi_calls.h): mpirun kills every
 * rank right after it, so the aborting rank writes its archive first. */
__attribute__((visibility("default"))) void omptrace_mpi_abort(void);
void omptrace_mpi_abort(void) {
  finalize(NULL);
}

__attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  (void)omp_version;
  (void)runtime_version;
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
