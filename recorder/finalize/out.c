/* The finalize pipeline: a run loaded from the record log (finalize/run.h)
 * -> scan, symbols, samples, replay into an OTF2 archive, definitions, exit
 * line. Runs once, from the tool's finalize (or at exit) or in
 * omptrace-recover, on the calling thread plus at most the writer thread of
 * finalize/evt_queue.c; reads nothing of the live process but what the run
 * says, and never aborts the application. */
#include "finalize/out.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "core/output_dir.h"
#include "finalize/chunk_pool.h"
#include "finalize/defs.h"
#include "finalize/defs_write.h"
#include "finalize/evt_out.h"
#include "finalize/filtered.h"
#include "finalize/hints.h"
#include "finalize/local_defs.h"
#include "finalize/mpi_comms.h"
#include "finalize/mpi_regions.h"
#include "finalize/offload.h"
#include "finalize/otf2_io.h"
#include "finalize/regions.h"
#include "finalize/replay.h"
#include "finalize/run.h"
#include "finalize/samples_out.h"
#include "finalize/scan_ext.h"
#include "finalize/symbols.h"
#include "finalize/teams.h"
#include "finalize/throttled.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static uint64_t file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static uint64_t archive_size(const char *dir) {
  char path[4200];
  snprintf(path, sizeof path, "%s/" OT_ARCHIVE_NAME ".otf2", dir);
  uint64_t total = file_size(path);
  snprintf(path, sizeof path, "%s/" OT_ARCHIVE_NAME ".def", dir);
  total += file_size(path);
  snprintf(path, sizeof path, "%s/" OT_ARCHIVE_NAME, dir);
  DIR *d = opendir(path);
  if (!d)
    return total;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    char f[4500];
    snprintf(f, sizeof f, "%s/%s", path, e->d_name);
    if (e->d_name[0] != '.')
      total += file_size(f);
  }
  closedir(d);
  return total;
}

static void human(uint64_t bytes, char *out, size_t len) {
  if (bytes >= 1024ull * 1024 * 1024)
    snprintf(out, len, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  else if (bytes >= 1024 * 1024)
    snprintf(out, len, "%.1f MiB", bytes / (1024.0 * 1024));
  else if (bytes >= 1024)
    snprintf(out, len, "%.1f KiB", bytes / 1024.0);
  else
    snprintf(out, len, "%" PRIu64 " B", bytes);
}

/* Metric members and class 0 (none without counters). */
static OTF2_ErrorCode write_metrics(OTF2_GlobalDefWriter *w, const uint32_t *names,
                                    const uint32_t *descs, const uint32_t *units, unsigned n,
                                    int strict) {
  if (n == 0)
    return OTF2_SUCCESS;
  OTF2_MetricMemberRef members[OT_WRITER_MAX_METRICS];
  for (unsigned i = 0; i < n; i++) {
    OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteMetricMember(
        w, i, names[i], descs[i], OTF2_METRIC_TYPE_PAPI, OTF2_METRIC_ACCUMULATED_START,
        OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, units[i]);
    if (e != OTF2_SUCCESS)
      return e;
    members[i] = i;
  }
  return OTF2_GlobalDefWriter_WriteMetricClass(
      w, 0, (uint8_t)n, members, strict ? OTF2_METRIC_SYNCHRONOUS_STRICT : OTF2_METRIC_SYNCHRONOUS,
      OTF2_RECORDER_KIND_CPU);
}

typedef struct def_strings {
  uint32_t machine, machine_class, process, process_class, group, paradigm, mpi;
  uint32_t *locations;
  uint32_t metric_name[OT_WRITER_MAX_METRICS], metric_desc[OT_WRITER_MAX_METRICS],
      metric_unit[OT_WRITER_MAX_METRICS];
} def_strings;

/* Everything one archive write holds: the run it comes from, the writers
 * and their event counts, the strings of the definitions. */
typedef struct out_state {
  const ot_run *run;
  uint32_t nloc;
  unsigned nmetrics;
  OTF2_Archive *archive;
  OTF2_EvtWriter **writers;
  uint64_t *events;
  def_strings strs;
  const char *reason; /* why the archive was not written, NULL on success */
  int abandon;        /* writing an event failed: the archive is never closed */
  char why[512];
} out_state;

/* CLOCK_REALTIME of the archive's first time: from the run's calibration
 * point when the log has it, else from now (same boot only). */
static uint64_t realtime_of(const ot_run *run, uint64_t first) {
  if (run->realtime_ns)
    return run->realtime_ns + first - run->clock0_ns;
  struct timespec real;
  clock_gettime(CLOCK_REALTIME, &real);
  int64_t mono_now = (int64_t)ot_monotonic_ns();
  int64_t real_now = (int64_t)real.tv_sec * 1000000000 + real.tv_nsec;
  return (uint64_t)(real_now - (mono_now - (int64_t)first));
}

static OTF2_ErrorCode write_definitions(const out_state *o) {
  OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(o->archive);
  if (!w)
    return OTF2_ERROR_INVALID_CALL;
  const def_strings *s = &o->strs;
  uint64_t first, end;
  ot_timeline_span(&first, &end);
  OTF2_ErrorCode e;
#define CHECK(call)                                                                                \
  if ((e = (call)) != OTF2_SUCCESS)                                                                \
  return e
  CHECK(OTF2_GlobalDefWriter_WriteClockProperties(
      w, 1000000000u, first, end > first ? end - first : 0, realtime_of(o->run, first)));
  CHECK(ot_defs_write_strings(w));
  CHECK(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_OPENMP, s->paradigm,
                                           OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN));
  if (ot_mpi_seen(&(uint32_t){0}))
    CHECK(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, s->mpi,
                                             OTF2_PARADIGM_CLASS_PROCESS));
  CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, s->machine, s->machine_class,
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 1, s->process, s->process_class, 0));
  CHECK(ot_filtered_write(w, 1));
  CHECK(ot_throttled_write(w, 1));
  CHECK(ot_samples_count_write(w, 1));
  CHECK(OTF2_GlobalDefWriter_WriteLocationGroup(w, 0, s->group, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                                OTF2_UNDEFINED_LOCATION_GROUP));
  for (uint32_t i = 0; i < o->run->nthreads; i++)
    CHECK(OTF2_GlobalDefWriter_WriteLocation(w, i, s->locations[i], OTF2_LOCATION_TYPE_CPU_THREAD,
                                             o->events[i], 0));
  CHECK(ot_offload_write_locations(w, o->events));
  CHECK(ot_defs_write_regions(w));
  CHECK(ot_teams_write(w, o->run->nthreads));
  CHECK(ot_mpi_comms_write(w));
  CHECK(write_metrics(w, s->metric_name, s->metric_desc, s->metric_unit, o->nmetrics,
                      o->run->counters_strict));
  CHECK(ot_defs_write_parameters(w));
  CHECK(ot_defs_write_sampling(w));
#undef CHECK
  return OTF2_SUCCESS;
}

static void intern_def_strings(out_state *o) {
  const ot_run *run = o->run;
  def_strings *s = &o->strs;
  char buf[512];
  s->machine = ot_defs_string(run->host[0] ? run->host : "localhost");
  s->machine_class = ot_defs_string("machine");
  snprintf(buf, sizeof buf, "%ld", run->pid);
  s->process = ot_defs_string(buf);
  s->process_class = ot_defs_string("process");
  uint32_t rank;
  if (ot_mpi_seen(&rank) == 2) { /* an MPI rank: named as Score-P names it */
    snprintf(buf, sizeof buf, "rank %u", rank);
    s->group = ot_defs_string(buf);
  } else {
    s->group = ot_defs_string(run->program);
  }
  if (ot_mpi_seen(&rank))
    s->mpi = ot_defs_string("MPI");
  ot_mpi_comms_prepare();
  s->paradigm = ot_defs_string("OpenMP");
  ot_filtered_prepare();
  ot_throttled_prepare();
  ot_offload_intern();
  for (uint32_t i = 0; i < o->run->nthreads; i++) {
    snprintf(buf, sizeof buf, "OpenMP thread %u", i);
    s->locations[i] = ot_defs_string(buf);
  }
  for (unsigned i = 0; i < o->nmetrics; i++) {
    s->metric_name[i] = ot_defs_string(run->metric_name[i]);
    const char *d = run->metric_desc[i];
    if (run->metric_estimate[i]) {
      /* Multiplexed counters are scaled estimates: say so where viewers show it. */
      snprintf(buf, sizeof buf, "%s (estimate, multiplexed)", d ? d : "");
      s->metric_desc[i] = ot_defs_string(buf);
    } else {
      s->metric_desc[i] = ot_defs_string(d ? d : "");
    }
    const char *u = run->metric_unit[i];
    s->metric_unit[i] = ot_defs_string(u ? u : "#");
  }
}

/* Step 1: the passes before any output (symbols, scan, teams, samples). */
static int prepare(out_state *o) {
  if (ot_symbols_open(o->run) != 0)
    ot_verbose("symbols: cannot read the process's modules; regions named by address");
  if (ot_scan_run(o->run) != 0 || ot_teams_build() != 0) {
    o->reason = "cannot read the recorded events";
    return -1;
  }
  /* the devices' accelerator locations follow the threads' */
  ot_offload_devices(o->run->nthreads, ot_scan_devices());
  o->nloc = o->run->nthreads + ot_offload_ndevices();
  ot_samples_prepare(o->run);
  return 0;
}

/* The replay into the writers, on a second thread when there is one
 * (finalize/evt_out.h): every event is written when this returns. */
static OTF2_ErrorCode replay_events(out_state *o) {
  OTF2_ErrorCode e = OTF2_SUCCESS;
  ot_evt_open(o->archive, o->writers, o->events, o->nloc, ot_scan_records());
  int rc = ot_replay_run(o->run, 0, &e);
  OTF2_ErrorCode qe = ot_evt_close(rc == 0 && e == OTF2_SUCCESS);
  if (e == OTF2_SUCCESS)
    e = qe;
  if (rc != 0 && e == OTF2_SUCCESS) {
    o->reason = "cannot read the recorded events";
    return OTF2_ERROR_INVALID_CALL;
  }
  return e;
}

/* Step 2: every location's events, then the event writers closed (those
 * of small locations are already: finalize/evt_stage.h). */
static OTF2_ErrorCode write_events(out_state *o) {
  OTF2_ErrorCode e = replay_events(o);
  if (e != OTF2_SUCCESS) {
    o->abandon = !o->reason; /* an OTF2 error, not a log that cannot be read */
    return e;
  }
  for (uint32_t i = 0; i < o->nloc && e == OTF2_SUCCESS; i++)
    if (o->writers[i])
      e = OTF2_EvtWriter_GetNumberOfEvents(o->writers[i], &o->events[i]);
  for (uint32_t i = 0; i < o->nloc; i++) {
    if (o->writers[i]) {
      OTF2_ErrorCode ce = OTF2_Archive_CloseEvtWriter(o->archive, o->writers[i]);
      if (e == OTF2_SUCCESS)
        e = ce;
    }
  }
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_CloseEvtFiles(o->archive);
  return e;
}

/* Step 3: the local definition files (finalize/local_defs.h), then the
 * global definitions. */
static OTF2_ErrorCode write_all_definitions(out_state *o) {
  uint32_t linked;
  OTF2_ErrorCode e = ot_local_defs_write(o->archive, ot_otf2_dir(), o->nloc, &linked);
  if (o->nloc > 1)
    ot_verbose("finalize: %u of %u local definition files linked to the first", linked,
               o->nloc - 1);
  if (e == OTF2_SUCCESS) {
    intern_def_strings(o);
    e = write_definitions(o);
  }
  return e;
}

/* An archive whose event writing failed. OTF2 3.0 frees a file's write
 * buffer when a write fails but keeps it, and writes it again when the file
 * closes (a crash): such an archive is left open until the process ends,
 * its memory reachable from here. */
static OTF2_Archive *abandoned;

atomic_int ot_finalize_archive_done;

/* Test-only (docs/recording.md, "When things go wrong"):
 * OMPTRACE_TEST_FINALIZE_DELAY_MS=N pauses the writer N ms after the event
 * files, before the definitions and the anchor ("N,closed": once the
 * archive is closed), after one line saying so, so a test can send a
 * signal while the archive is being written. */
static void test_delay(int closed) {
  const char *v = getenv("OMPTRACE_TEST_FINALIZE_DELAY_MS");
  long ms = v ? atol(v) : 0;
  if (ms <= 0 || closed != (strstr(v, ",closed") != NULL))
    return;
  ot_warn("test: the archive's writing pauses %ld ms %s (OMPTRACE_TEST_FINALIZE_DELAY_MS)", ms,
          closed ? "after its close" : "before its definitions");
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
    ;
}

/* Steps 2 and 3 into a new archive. */
static int write_archive(out_state *o) {
  const char *dir = o->run->dir;
  atomic_store(&ot_finalize_archive_done, 0);
  if (ot_make_dirs(dir) != 0) {
    snprintf(o->why, sizeof o->why, "%s", strerror(errno));
    o->reason = o->why;
    return -1;
  }
  o->archive = ot_otf2_open_staged(dir); /* moved into dir once complete */
  if (!o->archive) {
    snprintf(o->why, sizeof o->why, "%s", ot_otf2_reason());
    o->reason = o->why;
    return -1;
  }
  uint64_t t0 = ot_monotonic_ns();
  OTF2_ErrorCode e = write_events(o);
  uint64_t t1 = ot_monotonic_ns();
  test_delay(0);
  if (e == OTF2_SUCCESS) /* an MPI rank's process group is "rank R": the program goes here */
    e = OTF2_Archive_SetProperty(o->archive, "OMPTRACE::PROGRAM", o->run->program, true);
  /* the summary says so; from the log's META in omptrace-recover too */
  if (e == OTF2_SUCCESS && (o->run->chunks_none || ot_cfg.chunks == OT_CHUNKS_NONE))
    e = OTF2_Archive_SetProperty(o->archive, "OMPTRACE::CHUNKS", "none from the runtime", true);
  if (e == OTF2_SUCCESS)
    e = write_all_definitions(o);
  ot_verbose("finalize: events %.3f s, definitions %.3f s; OTF2 chunks %.2f MiB at most",
             (double)(t1 - t0) * 1e-9, (double)(ot_monotonic_ns() - t1) * 1e-9,
             (double)ot_chunk_pool_peak() / (1 << 20));
  if (o->abandon) {
    abandoned = o->archive;
    o->archive = NULL;
  }
  OTF2_ErrorCode ce = o->archive ? OTF2_Archive_Close(o->archive) : OTF2_SUCCESS;
  o->archive = NULL;
  ot_otf2_closed();
  if (e == OTF2_SUCCESS)
    e = ce;
  if (ot_otf2_publish(e == OTF2_SUCCESS) != 0 && e == OTF2_SUCCESS)
    e = OTF2_ERROR_EEXIST; /* a name in dir was taken meanwhile: ot_otf2_reason */
  if (e == OTF2_SUCCESS) {
    atomic_store(&ot_finalize_archive_done, 1);
    test_delay(1);
  }
  if (e != OTF2_SUCCESS && !o->reason) {
    const char *r = ot_otf2_reason();
    snprintf(o->why, sizeof o->why, "%s", r[0] ? r : OTF2_Error_GetDescription(e));
    o->reason = o->why;
  }
  return e == OTF2_SUCCESS ? 0 : -1;
}

/* Step 4: the exit line (docs and tests parse it). */
static void report(const out_state *o, uint64_t t0) {
  const char *dir = o->run->dir;
  if (o->reason) {
    ot_warn("cannot write archive %s: %s", dir, o->reason);
    return;
  }
  /* CLOCK_MONOTONIC: bench/mpi_phases.py lines it up with the MPI calls;
   * the process's CPU time (every thread's) against the last flush's line */
  struct timespec cpu = {0, 0};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  ot_verbose("finalize: archive written at %.6f s (CLOCK_MONOTONIC); process CPU time %.6f s",
             (double)ot_monotonic_ns() * 1e-9, (double)cpu.tv_sec + (double)cpu.tv_nsec * 1e-9);
  if (ot_cfg.quiet)
    return;
  uint64_t total = 0;
  for (uint32_t i = 0; i < o->nloc; i++)
    total += o->events[i];
  uint64_t bytes = archive_size(dir);
  char size[32], extra[160] = "";
  human(bytes, size, sizeof size);
  size_t off = 0;
  if (ot_scan_lost())
    off += (size_t)snprintf(extra + off, sizeof extra - off, ", %" PRIu64 " records lost",
                            ot_scan_lost());
  if (ot_samples_taken() && off < sizeof extra)
    off += (size_t)snprintf(extra + off, sizeof extra - off, ", %" PRIu64 " samples",
                            ot_samples_taken());
  if (ot_samples_failed() && off < sizeof extra)
    snprintf(extra + off, sizeof extra - off, " (%" PRIu64 " failed)", ot_samples_failed());
  ot_info("wrote %s/" OT_ARCHIVE_NAME ".otf2: %u threads, %" PRIu64 " events, %s (%.1f B/event), "
          "finalize %.2f s%s",
          dir, o->run->nthreads, total, size, total ? (double)bytes / (double)total : 0.0,
          (double)(ot_monotonic_ns() - t0) * 1e-9, extra);
  ot_hints_report();
}

static void release_all(out_state *o) {
  if (o->archive) {
    OTF2_Archive_Close(o->archive);
    ot_otf2_closed();
  }
  ot_replay_free();
  ot_teams_free();
  ot_regions_free();
  ot_mpi_regions_free();
  ot_mpi_comms_free();
  ot_offload_free();
  ot_filtered_free();
  ot_throttled_free();
  ot_hints_free();
  ot_scan_free();
  ot_symbols_close();
  ot_defs_reset();
  ot_timeline_close();
  free(o->writers);
  free(o->events);
  free(o->strs.locations);
}

int ot_finalize_write(const ot_run *run) {
  uint64_t t0 = ot_monotonic_ns();
  out_state o = {.run = run, .nloc = run->nthreads, .nmetrics = run->nmetrics};
  if (o.nmetrics > OT_WRITER_MAX_METRICS)
    o.nmetrics = OT_WRITER_MAX_METRICS;
  size_t n = (size_t)o.nloc + 64; /* and up to 64 devices' (finalize/offload.h) */
  o.writers = calloc(n, sizeof *o.writers);
  o.events = calloc(n, sizeof *o.events);
  o.strs.locations = calloc(n, sizeof *o.strs.locations);
  int rc = -1;
  if (!o.writers || !o.events || !o.strs.locations || ot_timeline_open((uint32_t)n) != 0)
    o.reason = "out of memory";
  else if (prepare(&o) == 0) {
    ot_verbose("finalize: symbols, scan and samples %.3f s",
               (double)(ot_monotonic_ns() - t0) * 1e-9);
    rc = write_archive(&o);
  }
  report(&o, t0);
  release_all(&o);
  return rc;
}
