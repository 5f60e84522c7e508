/* The finalize pipeline: scan, symbols, samples, replay into an OTF2
 * archive, definitions, exit line. Runs once, single-threaded, from the
 * tool's finalize (or at exit); never aborts the application. */
#define _GNU_SOURCE /* program_invocation_short_name */
#include "finalize/out.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "core/output_dir.h"
#include "core/thread.h"
#include "finalize/defs.h"
#include "finalize/defs_write.h"
#include "finalize/regions.h"
#include "finalize/replay.h"
#include "finalize/samples_out.h"
#include "finalize/scan_ext.h"
#include "finalize/symbols.h"
#include "finalize/teams.h"
#include "services/counters.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <otf2/OTF2_Pthread_Locks.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static uint64_t *last_ns; /* per location */
static uint32_t nlast;
static uint64_t first_ns = UINT64_MAX, end_ns;

uint64_t ot_out_ts(uint32_t loc, uint64_t raw) {
  uint64_t t = ot_clock_to_ns(raw);
  if (loc < nlast) {
    if (t < last_ns[loc])
      t = last_ns[loc];
    last_ns[loc] = t;
  }
  if (t < first_ns)
    first_ns = t;
  if (t > end_ns)
    end_ns = t;
  return t;
}

uint64_t ot_out_last(uint32_t loc) {
  if (loc < nlast && last_ns[loc])
    return last_ns[loc];
  return first_ns != UINT64_MAX ? first_ns : 0;
}

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final) {
  (void)data, (void)type, (void)loc, (void)caller, (void) final;
  return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush,
                                                    .otf2_post_flush = NULL};

/* OTF2 keeps a writer's whole output in memory unless an allocation
 * fails: chunks come from a small per-writer budget, and a refused chunk
 * makes OTF2 flush that writer to disk and start over. With every
 * location written at once this bounds memory by locations x budget. */
#define CHUNK_SIZE (1024 * 1024)
#define CHUNKS_PER_BUFFER 8

typedef struct chunk_list {
  uint32_t n;
  void *chunk[CHUNKS_PER_BUFFER];
} chunk_list;

static void *chunk_alloc(void *data, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
                         uint64_t size) {
  (void)data, (void)type, (void)loc;
  chunk_list *l = *per_buffer;
  if (!l && !(l = *per_buffer = calloc(1, sizeof *l)))
    return NULL;
  if (l->n == CHUNKS_PER_BUFFER)
    return NULL; /* OTF2 flushes this buffer, frees its chunks and asks again */
  void *c = malloc(size);
  if (c)
    l->chunk[l->n++] = c;
  return c;
}

static void chunk_free_all(void *data, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
                           bool final) {
  (void)data, (void)type, (void)loc;
  chunk_list *l = *per_buffer;
  if (!l)
    return;
  for (uint32_t i = 0; i < l->n; i++)
    free(l->chunk[i]);
  l->n = 0;
  if (final) {
    free(l);
    *per_buffer = NULL;
  }
}

static const OTF2_MemoryCallbacks memory_callbacks = {.otf2_allocate = chunk_alloc,
                                                      .otf2_free_all = chunk_free_all};

/* OTF2 reports its own errors on stderr; keep the first one as the reason. */
static char otf2_reason[256];
static OTF2_ErrorCode on_otf2_error(void *data, const char *file, uint64_t line,
                                    const char *function, OTF2_ErrorCode code, const char *msg,
                                    va_list args) {
  (void)data, (void)file, (void)line, (void)function;
  if (!otf2_reason[0]) {
    char text[200];
    vsnprintf(text, sizeof text, msg, args);
    snprintf(otf2_reason, sizeof otf2_reason, "%s (%s)", OTF2_Error_GetDescription(code), text);
  }
  return code;
}

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
                                    const uint32_t *descs, const uint32_t *units, unsigned n) {
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
  return OTF2_GlobalDefWriter_WriteMetricClass(w, 0, (uint8_t)n, members,
                                               ot_counters_strict() ? OTF2_METRIC_SYNCHRONOUS_STRICT
                                                                    : OTF2_METRIC_SYNCHRONOUS,
                                               OTF2_RECORDER_KIND_CPU);
}

typedef struct def_strings {
  uint32_t machine, machine_class, process, process_class, group, paradigm;
  uint32_t *locations;
  uint32_t metric_name[OT_WRITER_MAX_METRICS], metric_desc[OT_WRITER_MAX_METRICS],
      metric_unit[OT_WRITER_MAX_METRICS];
} def_strings;

static OTF2_ErrorCode write_definitions(OTF2_Archive *archive, uint32_t nloc,
                                        const uint64_t *events, const def_strings *s,
                                        unsigned nmetrics) {
  OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(archive);
  if (!w)
    return OTF2_ERROR_INVALID_CALL;
  struct timespec real;
  clock_gettime(CLOCK_REALTIME, &real);
  int64_t mono_now = (int64_t)ot_monotonic_ns();
  uint64_t first = first_ns == UINT64_MAX ? 0 : first_ns;
  int64_t real_now = (int64_t)real.tv_sec * 1000000000 + real.tv_nsec;
  uint64_t realtime = (uint64_t)(real_now - (mono_now - (int64_t)first));
  OTF2_ErrorCode e;
#define CHECK(call)                                                                                \
  if ((e = (call)) != OTF2_SUCCESS)                                                                \
  return e
  CHECK(OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, first,
                                                  end_ns > first ? end_ns - first : 0, realtime));
  CHECK(ot_defs_write_strings(w));
  CHECK(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_OPENMP, s->paradigm,
                                           OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN));
  CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, s->machine, s->machine_class,
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 1, s->process, s->process_class, 0));
  CHECK(OTF2_GlobalDefWriter_WriteLocationGroup(w, 0, s->group, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                                OTF2_UNDEFINED_LOCATION_GROUP));
  for (uint32_t i = 0; i < nloc; i++)
    CHECK(OTF2_GlobalDefWriter_WriteLocation(w, i, s->locations[i], OTF2_LOCATION_TYPE_CPU_THREAD,
                                             events[i], 0));
  CHECK(ot_defs_write_regions(w));
  CHECK(ot_teams_write(w, nloc));
  CHECK(write_metrics(w, s->metric_name, s->metric_desc, s->metric_unit, nmetrics));
  CHECK(ot_defs_write_parameters(w));
  CHECK(ot_defs_write_sampling(w));
#undef CHECK
  return OTF2_SUCCESS;
}

static void intern_def_strings(def_strings *s, uint32_t nloc, unsigned nmetrics) {
  char buf[512];
  if (gethostname(buf, sizeof buf) != 0)
    snprintf(buf, sizeof buf, "localhost");
  buf[sizeof buf - 1] = 0;
  s->machine = ot_defs_string(buf);
  s->machine_class = ot_defs_string("machine");
  snprintf(buf, sizeof buf, "%d", (int)getpid());
  s->process = ot_defs_string(buf);
  s->process_class = ot_defs_string("process");
  s->group = ot_defs_string(program_invocation_short_name);
  s->paradigm = ot_defs_string("OpenMP");
  for (uint32_t i = 0; i < nloc; i++) {
    snprintf(buf, sizeof buf, "OpenMP thread %u", i);
    s->locations[i] = ot_defs_string(buf);
  }
  for (unsigned i = 0; i < nmetrics; i++) {
    s->metric_name[i] = ot_defs_string(ot_counters_name(i));
    const char *d = ot_counters_description(i);
    if (ot_counters_is_estimate(i)) {
      /* Multiplexed counters are scaled estimates: say so where viewers show it. */
      snprintf(buf, sizeof buf, "%s (estimate, multiplexed)", d ? d : "");
      s->metric_desc[i] = ot_defs_string(buf);
    } else {
      s->metric_desc[i] = ot_defs_string(d ? d : "");
    }
    const char *u = ot_counters_unit(i);
    s->metric_unit[i] = ot_defs_string(u ? u : "#");
  }
}

static void release_all(void) {
  ot_replay_free();
  ot_teams_free();
  ot_regions_free();
  ot_scan_free();
  ot_symbols_close();
  ot_defs_reset();
  free(last_ns);
  last_ns = NULL;
  nlast = 0;
}

int ot_finalize_write(const char *dir) {
  uint64_t t0 = ot_monotonic_ns();
  uint32_t nloc = ot_thread_count();
  unsigned nmetrics = ot_counters_count();
  if (nmetrics > OT_WRITER_MAX_METRICS)
    nmetrics = OT_WRITER_MAX_METRICS;
  OTF2_EvtWriter **writers = calloc(nloc ? nloc : 1, sizeof *writers);
  uint64_t *events = calloc(nloc ? nloc : 1, sizeof *events);
  def_strings strs = {0};
  strs.locations = calloc(nloc ? nloc : 1, sizeof *strs.locations);
  last_ns = calloc(nloc ? nloc : 1, sizeof *last_ns);
  nlast = nloc;
  first_ns = UINT64_MAX;
  end_ns = 0;
  otf2_reason[0] = 0;
  OTF2_Archive *archive = NULL;
  const char *reason = NULL;
  char why[512];
  int rc = -1;
  if (!writers || !events || !strs.locations || !last_ns) {
    reason = "out of memory";
    goto done;
  }
  if (ot_symbols_open() != 0)
    ot_verbose("symbols: cannot read the process's modules; regions named by address");
  if (ot_scan_run() != 0 || ot_teams_build() != 0) {
    reason = "cannot read the recorded events";
    goto done;
  }
  ot_samples_prepare();
  if (ot_make_dirs(dir) != 0) {
    snprintf(why, sizeof why, "%s", strerror(errno));
    reason = why;
    goto done;
  }
  OTF2_Error_RegisterCallback(on_otf2_error, NULL);
  archive = OTF2_Archive_Open(dir, OT_ARCHIVE_NAME, OTF2_FILEMODE_WRITE, CHUNK_SIZE, 4 * CHUNK_SIZE,
                              OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!archive) {
    reason = otf2_reason[0] ? otf2_reason : "cannot create the archive";
    goto done;
  }
  OTF2_ErrorCode e = OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL);
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_SetMemoryCallbacks(archive, &memory_callbacks, NULL);
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  if (e == OTF2_SUCCESS)
    e = OTF2_Pthread_Archive_SetLockingCallbacks(archive, NULL);
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_OpenEvtFiles(archive);
  for (uint32_t i = 0; i < nloc && e == OTF2_SUCCESS; i++) {
    writers[i] = OTF2_Archive_GetEvtWriter(archive, i);
    if (!writers[i])
      e = OTF2_ERROR_INVALID_CALL;
  }
  if (e == OTF2_SUCCESS) {
    int r = ot_replay_run(writers, nloc, 0, &e);
    if (r != 0 && e == OTF2_SUCCESS) {
      reason = "cannot read the recorded events";
      goto done;
    }
  }
  for (uint32_t i = 0; i < nloc && e == OTF2_SUCCESS; i++)
    e = OTF2_EvtWriter_GetNumberOfEvents(writers[i], &events[i]);
  for (uint32_t i = 0; i < nloc; i++) {
    if (writers[i]) {
      OTF2_ErrorCode ce = OTF2_Archive_CloseEvtWriter(archive, writers[i]);
      if (e == OTF2_SUCCESS)
        e = ce;
    }
  }
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_CloseEvtFiles(archive);
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_OpenDefFiles(archive);
  for (uint32_t i = 0; i < nloc && e == OTF2_SUCCESS; i++) {
    OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(archive, i);
    e = dw ? OTF2_Archive_CloseDefWriter(archive, dw) : OTF2_ERROR_INVALID_CALL;
  }
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_CloseDefFiles(archive);
  if (e == OTF2_SUCCESS) {
    intern_def_strings(&strs, nloc, nmetrics);
    e = write_definitions(archive, nloc, events, &strs, nmetrics);
  }
  OTF2_ErrorCode ce = OTF2_Archive_Close(archive);
  archive = NULL;
  if (e == OTF2_SUCCESS)
    e = ce;
  if (e != OTF2_SUCCESS) {
    snprintf(why, sizeof why, "%s", otf2_reason[0] ? otf2_reason : OTF2_Error_GetDescription(e));
    reason = why;
    goto done;
  }
  rc = 0;
done:
  if (archive)
    OTF2_Archive_Close(archive);
  if (reason) {
    ot_warn("cannot write archive %s: %s", dir, reason);
  } else if (!ot_cfg.quiet) {
    uint64_t total = 0;
    for (uint32_t i = 0; i < nloc; i++)
      total += events[i];
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
            dir, nloc, total, size, total ? (double)bytes / (double)total : 0.0,
            (double)(ot_monotonic_ns() - t0) * 1e-9, extra);
  }
  release_all();
  free(writers);
  free(events);
  free(strs.locations);
  return rc;
}
