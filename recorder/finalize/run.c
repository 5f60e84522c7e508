/* Loading the run model (finalize/run.h) from the record log: META, CLOCK
 * and MAPS from the process file, each location's THREAD, CAPTURES, STATS
 * and LOST frames from the shared file and its <loc>.log (what each frame
 * says: finalize/run_frames.c). Records themselves stay on disk: the
 * finalize passes stream them (log/reader.h), so memory does not grow with
 * the trace. Nothing here looks at the running process. */
#include "finalize/run.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "core/output_dir.h"
#include "finalize/run_frames.h"
#include "log/format.h"
#include "log/frame.h"
#include "log/meta.h"
#include "log/reader.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OT_RUN_MAX_LOCS (1u << 16) /* task and parallel ids carry 16-bit locations */

static uint64_t meta_u64(const ot_meta *m, const char *key) {
  const char *v = ot_meta_get(m, key);
  return v ? strtoull(v, NULL, 10) : 0;
}

static void meta_str(const ot_meta *m, const char *key, char *out, size_t size, const char *dflt) {
  const char *v = ot_meta_get(m, key);
  snprintf(out, size, "%s", v && *v ? v : dflt);
}

static char *meta_dup(const ot_meta *m, const char *key) {
  const char *v = ot_meta_get(m, key);
  return v ? strdup(v) : NULL;
}

/* Process-wide facts from the META text. */
static void apply_meta(ot_run *run, const ot_meta *m) {
  meta_str(m, "program", run->program, sizeof run->program, "unknown");
  meta_str(m, "host", run->host, sizeof run->host, "localhost");
  run->pid = (long)meta_u64(m, "pid");
  const char *clock = ot_meta_get(m, "clock");
  run->use_tsc = clock && strcmp(clock, "tsc") == 0;
  run->realtime_ns = meta_u64(m, "realtime_ns");
  const char *cs = ot_meta_get(m, "callstacks");
  run->callstacks = cs && strcmp(cs, "machine") == 0 ? OT_CALLSTACKS_MACHINE : OT_CALLSTACKS_USER;
  run->sampling_ns = meta_u64(m, "sampling_ns");
  const char *sc = ot_meta_get(m, "sampling_clock");
  run->sampling_wall = sc && strcmp(sc, "wall") == 0;
  run->chunks_none = meta_u64(m, "chunks_none") != 0;
  run->counters_strict = meta_u64(m, "counters_strict") != 0;
  run->finished = meta_u64(m, "finished") != 0;
  run->filter = meta_dup(m, "filter");
  uint64_t n = meta_u64(m, "counters");
  run->nmetrics = n > OT_RUN_MAX_METRICS ? OT_RUN_MAX_METRICS : (unsigned)n;
  char key[64];
  for (unsigned i = 0; i < run->nmetrics; i++) {
    snprintf(key, sizeof key, "counter.%u.name", i);
    run->metric_name[i] = meta_dup(m, key);
    snprintf(key, sizeof key, "counter.%u.desc", i);
    run->metric_desc[i] = meta_dup(m, key);
    snprintf(key, sizeof key, "counter.%u.unit", i);
    run->metric_unit[i] = meta_dup(m, key);
    snprintf(key, sizeof key, "counter.%u.estimate", i);
    run->metric_estimate[i] = meta_u64(m, key) != 0;
    if (!run->metric_name[i])
      run->metric_name[i] = strdup("?");
  }
}

/* A LOCATION frame: what should be on disk for a location. */
static int expect_location(ot_run *run, const uint8_t *p, uint32_t len) {
  ot_log_location l;
  if (len < sizeof l)
    return 0;
  memcpy(&l, p, sizeof l);
  if (l.loc >= OT_RUN_MAX_LOCS)
    return 0;
  if (l.loc >= run->nexpect) {
    uint32_t n = l.loc < 64 ? 64 : 2 * l.loc;
    uint8_t *e = realloc(run->expect, n);
    if (!e)
      return -1;
    memset(e + run->nexpect, 0, n - run->nexpect);
    run->expect = e;
    run->nexpect = n;
  }
  run->expect[l.loc] |= (uint8_t)(l.what == OT_LOC_OWN_FILE ? 3 : 1);
  return 0;
}

/* The process file: META (later keys win), first and last CLOCK point,
 * last MAPS text, LOCATION frames. */
static int load_process(ot_run *run) {
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/" OT_LOG_PROCESS_FILE, run->log_dir);
  ot_frame_reader fr;
  if (ot_frame_open(&fr, path) != 0) {
    if (errno == ENOENT)
      ot_warn("%s holds no record log (%s is missing)", run->dir, path);
    else
      ot_warn("cannot read %s: %s", path, strerror(errno));
    return -1;
  }
  ot_meta *m = ot_meta_new();
  ot_log_clock first = {0, 0}, last = {0, 0};
  const ot_frame_hdr *h;
  const uint8_t *p;
  int rc = m ? 0 : -1;
  while (rc == 0 && (h = ot_frame_next(&fr, 0, &p)) != NULL) {
    run->flushed = 1;
    if (h->type == OT_FRAME_LOCATION) {
      rc = expect_location(run, p, h->length);
    } else if (h->type == OT_FRAME_META) {
      rc = ot_meta_add(m, (const char *)p, h->length);
    } else if (h->type == OT_FRAME_CLOCK && h->length >= sizeof(ot_log_clock)) {
      memcpy(&last, p, sizeof last);
      if (run->nclock++ == 0)
        first = last;
    } else if (h->type == OT_FRAME_MAPS) {
      char *t = malloc((size_t)h->length + 1);
      if (!t) {
        rc = -1;
        break;
      }
      memcpy(t, p, h->length);
      t[h->length] = 0;
      free(run->maps);
      run->maps = t;
      run->maps_len = h->length;
    }
  }
  if (fr.damaged)
    ot_warn("%s ends in a damaged frame (%s); its valid part is used", path, fr.why);
  ot_frame_close(&fr);
  if (rc != 0) {
    ot_warn("cannot load %s: out of memory", path);
    ot_meta_free(m);
    return -1;
  }
  apply_meta(run, m);
  ot_meta_free(m);
  run->clock0_raw = first.raw;
  run->clock0_ns = first.ns;
  run->clock_last_raw = last.raw;
  run->clock_last_ns = last.ns;
  return 0;
}

/* Opens a log file of locations for loading. Of the frames `written` says
 * this process wrote whole (nothing cut off or appended since), RECORDS
 * frames are only skimmed (their record count), and CRCs not checked. */
static int open_file(ot_run *run, ot_frame_reader *fr, const char *path, uint32_t which,
                     ot_run_written_fn written) {
  if (ot_frame_open(fr, path) != 0)
    return -1;
  run->nfiles++;
  struct stat st;
  if (written && fstat(fr->fd, &st) == 0 && (uint64_t)st.st_size == written(which)) {
    fr->trusted = (uint64_t)st.st_size;
    fr->skim = 1u << OT_FRAME_RECORDS;
    run->nwritten++;
  }
  return 0;
}

/* Room for locations up to loc (capacity in powers of two). */
static uint32_t capacity(uint32_t n) {
  uint32_t c = 16;
  while (c < n)
    c *= 2;
  return c;
}

static int grow_threads(ot_run *run, uint32_t loc) {
  if (loc < run->nthreads)
    return 0;
  uint32_t n = loc + 1;
  if (!run->threads || capacity(n) != capacity(run->nthreads)) {
    ot_run_thread *t = realloc(run->threads, capacity(n) * sizeof *t);
    if (!t)
      return -1;
    run->threads = t;
  }
  memset(run->threads + run->nthreads, 0, (n - run->nthreads) * sizeof *run->threads);
  run->nthreads = n;
  return 0;
}

/* Whether a THREAD payload names another run than the log's META. */
static int foreign_thread(const ot_run *run, const uint8_t *p, uint32_t len) {
  ot_log_thread th = {0};
  memcpy(&th, p, len < sizeof th ? len : sizeof th);
  return th.run != 0 && run->realtime_ns != 0 && th.run != run->realtime_ns;
}

/* Reads each frame of fr through ot_run_apply_frame for location loc (or, in the
 * shared file, loc UINT32_MAX: the location its header names). 1 when
 * loc's own file continues more of its frames in the shared file than were
 * found there, 2 when it is from another run: nothing of it is applied. In
 * the shared file, a location whose THREAD frame names another run is
 * marked foreign and its frames are skipped. */
static int apply_file(ot_run *run, ot_frame_reader *fr, uint32_t loc) {
  const ot_frame_hdr *h;
  const uint8_t *p;
  int rc = 0;
  while (rc == 0) {
    ot_frame_at at = {fr->offset, fr->next_seq}; /* want 0: the next frame is returned */
    if ((h = ot_frame_next(fr, 0, &p)) == NULL)
      break;
    uint32_t l = loc == UINT32_MAX ? h->loc : loc;
    if (l >= OT_RUN_MAX_LOCS)
      continue;
    if ((rc = grow_threads(run, l)) != 0)
      break;
    ot_run_thread *t = &run->threads[l];
    if (h->type == OT_FRAME_THREAD && foreign_thread(run, p, h->length)) {
      if (loc != UINT32_MAX)
        return 2;
      t->foreign = 1;
    }
    if (t->foreign && loc == UINT32_MAX)
      continue;
    if (loc == UINT32_MAX) {
      t->shared_bytes += sizeof *h + h->length;
    } else if (at.seq == 0 && h->type == OT_FRAME_THREAD && h->length >= OT_LOG_THREAD_MIN) {
      ot_log_thread th = {0};
      memcpy(&th, p, h->length < sizeof th ? h->length : sizeof th);
      if (th.shared_bytes != t->shared_bytes)
        return 1; /* its frames in the shared file are not all there */
    }
    rc = ot_run_apply_frame(t, h, p, at, loc == UINT32_MAX);
  }
  return rc;
}

/* The time of location t's last record: its last RECORDS frame read again
 * whole, from fr. */
static void last_record(ot_run_thread *t, ot_frame_reader *fr) {
  const ot_frame_hdr *h;
  const uint8_t *p;
  if ((h = ot_frame_again(fr, t->last.offset, t->last.seq, &p)) != NULL)
    t->last_raw = ot_run_last_time(p, h->length);
}

static void damaged(ot_run *run, ot_run_thread *t) {
  if (!t->damaged)
    run->ndamaged++;
  t->damaged = 1;
}

/* One location's own file, after its frames in the shared file. */
static int load_thread(ot_run *run, uint32_t loc, ot_run_written_fn written) {
  ot_run_thread *t = &run->threads[loc];
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/%u" OT_LOG_THREAD_SUFFIX, run->log_dir, loc);
  ot_frame_reader fr;
  if (open_file(run, &fr, path, loc, written) != 0) {
    if (errno == ENOENT) {
      t->own = 0; /* gone since the directory was read (removed by a finished run) */
      return 0;
    }
    ot_warn("cannot read %s: %s; thread %u is not in the trace", path, strerror(errno), loc);
    damaged(run, t);
    return 0;
  }
  int rc = apply_file(run, &fr, loc);
  if (rc == 2 || (rc == 0 && fr.offset == 0 && !fr.damaged)) {
    ot_warn("%s %s: thread %u is left out%s", path, rc == 2 ? "is from another run" : "is empty",
            loc, t->present ? " after its frames in " OT_LOG_SHARED_FILE : "");
    ot_frame_close(&fr);
    t->own = 0;
    t->gone = 1;
    run->nmissing++;
    return 0;
  }
  if (rc == 1) {
    ot_warn("%s continues frames of thread %u that the damaged %s lost: its records from there "
            "on are not in the trace",
            path, loc, OT_LOG_SHARED_FILE);
    ot_frame_close(&fr);
    t->own = 0;
    t->gone = 1; /* reported: not "missing" */
    damaged(run, t);
    return 0;
  }
  t->valid_end = fr.offset;
  if (t->last_in == 2)
    last_record(t, &fr);
  if (fr.damaged) {
    damaged(run, t);
    ot_warn("%s is damaged after %llu records (%s): the rest of thread %u is not in the trace",
            path, (unsigned long long)t->logged, fr.why, loc);
  }
  ot_frame_close(&fr);
  if (rc != 0)
    ot_warn("cannot load %s: out of memory", path);
  return rc;
}

/* The shared file: the first frames of (nearly) every location. Left open
 * in *fr for the times of last records (fd -1 when there is none). A torn
 * last frame (the process died writing it, or a reader of a growing log
 * came first) cut off the location its header names; a damaged frame
 * before the end may have cut off any location without a file of its own:
 * each such location is marked, and the file is named once. */
static int load_shared(ot_run *run, ot_frame_reader *fr, ot_run_written_fn written) {
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/" OT_LOG_SHARED_FILE, run->log_dir);
  if (open_file(run, fr, path, OT_LOG_SHARED_LOC, written) != 0) {
    fr->fd = -1;
    if (errno == ENOENT)
      return 0; /* every location has its own file (OMPTRACE_LOG_SHARED=0) */
    ot_warn("cannot read %s: %s; threads without a file of their own are not in the trace", path,
            strerror(errno));
    return 0;
  }
  int rc = apply_file(run, fr, UINT32_MAX);
  run->shared_end = fr->offset;
  uint32_t foreign = 0;
  for (uint32_t i = 0; i < run->nthreads; i++)
    foreign += run->threads[i].foreign;
  if (foreign) {
    ot_warn("%s holds frames of another run: %u thread%s there %s left out", path, foreign,
            foreign == 1 ? "" : "s", foreign == 1 ? "is" : "are");
    run->nmissing++;
  }
  if (fr->damaged && fr->torn) {
    uint32_t l = fr->torn_loc;
    if (l < run->nthreads && run->threads[l].present && !run->threads[l].own)
      damaged(run, &run->threads[l]);
    if (l < run->nthreads)
      ot_warn("%s ends in a torn frame of thread %u after %u frames (%s): the rest of thread %u "
              "is not in the trace",
              path, l, (unsigned)fr->next_seq, fr->why, l);
    else
      ot_warn("%s ends in a torn frame after %u frames (%s)", path, (unsigned)fr->next_seq,
              fr->why);
  } else if (fr->damaged) {
    uint32_t cut = 0;
    for (uint32_t i = 0; i < run->nthreads; i++)
      if (run->threads[i].present && !run->threads[i].own) {
        damaged(run, &run->threads[i]);
        cut++;
      }
    ot_warn("%s is damaged after %u frames (%s): what %u thread%s wrote after it is not in the "
            "trace",
            path, (unsigned)fr->next_seq, fr->why, cut, cut == 1 ? "" : "s");
  }
  if (rc != 0)
    ot_warn("cannot load %s: out of memory", path);
  return rc;
}

/* Every <loc>.log in the log directory: run->threads up to the highest,
 * those present marked `own`. Read before the shared file, so that a
 * location's frames there are all listed when its own file is used (it
 * writes there no more once it has a file). */
static int list_own_files(ot_run *run) {
  DIR *d = opendir(run->log_dir);
  if (!d) {
    ot_warn("cannot read %s: %s", run->log_dir, strerror(errno));
    return -1;
  }
  int rc = 0;
  for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
    char *end;
    unsigned long v = strtoul(e->d_name, &end, 10);
    if (end != e->d_name && e->d_name[0] != '-' && e->d_name[0] != '+' &&
        strcmp(end, OT_LOG_THREAD_SUFFIX) == 0 && v < OT_RUN_MAX_LOCS) {
      if ((rc = grow_threads(run, (uint32_t)v)) == 0)
        run->threads[v].own = 1;
    }
  }
  closedir(d);
  if (rc != 0)
    ot_warn("cannot load %s: out of memory", run->log_dir);
  return rc;
}

/* What the process file's LOCATION frames say should be there and is not:
 * an own file deleted, or the first frames of threads in a shared file
 * that was emptied or deleted. One line each. */
static void check_expected(ot_run *run, const ot_frame_reader *sh) {
  uint32_t unseen = 0;
  for (uint32_t loc = 0; loc < run->nexpect; loc++) {
    ot_run_thread *t = loc < run->nthreads ? &run->threads[loc] : NULL;
    if ((run->expect[loc] & 2) && !(t && (t->own || t->gone))) {
      ot_warn("%s/%u" OT_LOG_THREAD_SUFFIX " is missing: thread %u is left out%s", run->log_dir,
              loc, loc, t && t->present ? " after its frames in " OT_LOG_SHARED_FILE : "");
      run->nmissing++;
      if (t)
        t->gone = 1;
    } else if ((run->expect[loc] & 1) && !(t && (t->present || t->gone || t->foreign))) {
      unseen++;
    }
  }
  if (unseen && (sh->fd < 0 || sh->next_seq == 0)) {
    ot_warn("%s/" OT_LOG_SHARED_FILE " is %s: the %u thread%s that wrote only there %s left out",
            run->log_dir, sh->fd < 0 ? "missing" : "empty", unseen, unseen == 1 ? "" : "s",
            unseen == 1 ? "is" : "are");
    run->nmissing++;
  } else if (unseen) {
    ot_warn("%s/" OT_LOG_SHARED_FILE " lacks the first frames of %u thread%s: %s left out",
            run->log_dir, unseen, unseen == 1 ? "" : "s", unseen == 1 ? "it is" : "they are");
    run->nmissing++;
  }
}

/* A log with one calibration point (its only passes wrote full chunks,
 * which carry no CLOCK frame): on the host that wrote it the TSC still
 * runs (invariant TSC), so the second point is taken now, in this process;
 * elsewhere times cannot be converted, and one line says so. */
static int one_clock_point(const ot_run *run) {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  if (strcmp(host, run->host) == 0) {
    ot_clock_use_tsc = 1;
    return 1;
  }
  ot_warn("%s has one clock calibration point and was written on %s: times are raw TSC ticks "
          "(recover it on %s)",
          run->log_dir, run->host, run->host);
  return 0;
}

int ot_run_load(ot_run *run, const char *dir, int live, ot_run_written_fn written) {
  memset(run, 0, sizeof *run);
  run->live = live;
  if ((size_t)snprintf(run->dir, sizeof run->dir, "%s", dir) >= sizeof run->dir ||
      (size_t)snprintf(run->log_dir, sizeof run->log_dir, "%s/" OT_LOG_NAME, dir) >=
          sizeof run->log_dir) {
    ot_warn("directory name too long: %s", dir);
    return -1;
  }
  ot_frame_reader sh = {.fd = -1};
  if (load_process(run) != 0 || list_own_files(run) != 0 || load_shared(run, &sh, written) != 0)
    goto fail;
  for (uint32_t loc = 0; loc < run->nthreads; loc++)
    if (run->threads[loc].own && load_thread(run, loc, written) != 0)
      goto fail;
  check_expected(run, &sh);
  for (uint32_t loc = 0; loc < run->nthreads; loc++)
    run->npresent += run->threads[loc].present != 0;
  /* The clock conversion, once there is something to convert: a log of no
   * thread has at most the first calibration point, and calibrating then
   * says only that the TSC did not advance. */
  if (run->nclock == 0 && run->flushed)
    ot_warn("%s/" OT_LOG_PROCESS_FILE " has no clock calibration: times are raw ticks",
            run->log_dir);
  int tsc = run->use_tsc && run->nclock > 0;
  if (tsc && run->nclock == 1 && run->npresent > 0 && !live)
    tsc = one_clock_point(run);
  if (run->npresent > 0 || run->nclock > 1)
    ot_clock_set_points(tsc, run->clock0_raw, run->clock0_ns, run->clock_last_raw,
                        run->clock_last_ns);
  for (uint32_t loc = 0; loc < run->nthreads; loc++) {
    ot_run_thread *t = &run->threads[loc];
    if (t->last_in == 1)
      last_record(t, &sh);
    ot_run_trim_captures(&t->sampler.samples);
    ot_run_trim_captures(&t->sampler.contexts);
    run->lost += t->lost;
  }
  ot_frame_close(&sh);
  if (written)
    ot_verbose("log: %u of %u thread log files are as this process wrote them (read without "
               "CRCs)",
               run->nwritten, run->nfiles);
  return 0;
fail:
  ot_frame_close(&sh);
  ot_run_free(run);
  return -1;
}

void ot_run_free(ot_run *run) {
  for (uint32_t i = 0; run->threads && i < run->nthreads; i++) {
    free(run->threads[i].sampler.samples.base);
    free(run->threads[i].sampler.contexts.base);
    free(run->threads[i].shared);
  }
  free(run->threads);
  for (unsigned i = 0; i < run->nmetrics; i++) {
    free(run->metric_name[i]);
    free(run->metric_desc[i]);
    free(run->metric_unit[i]);
  }
  free(run->maps);
  free(run->filter);
  free(run->expect);
  memset(run, 0, sizeof *run);
}

/* Captures are kept in time order: the first one after the cut ends them. */
static void cut_captures(ot_cap_buf *b, uint64_t raw) {
  size_t at = 0;
  while (b->used - at >= sizeof(ot_capture)) {
    const ot_capture *c = (const ot_capture *)(b->base + at);
    if (c->ts > raw)
      break;
    at += c->size;
  }
  b->used = at;
}

void ot_run_cut(ot_run *run, uint64_t raw) {
  run->cut_raw = raw;
  for (uint32_t loc = 0; loc < run->nthreads; loc++) {
    cut_captures(&run->threads[loc].sampler.samples, raw);
    cut_captures(&run->threads[loc].sampler.contexts, raw);
  }
}

/* Every pass reads the frames ot_run_load validated: their CRCs are not
 * computed again. */
ot_reader *ot_run_records(const ot_run *run, uint32_t loc) {
  if (loc >= run->nthreads)
    return NULL;
  const ot_run_thread *t = &run->threads[loc];
  ot_reader *r =
      ot_reader_open_stream(run->log_dir, loc, t->shared, t->nshared, run->shared_end, t->own);
  if (r && t->own)
    ot_reader_trust(r, t->valid_end);
  if (r && run->cut_raw)
    ot_reader_cut(r, run->cut_raw);
  return r;
}

void ot_run_records_close(ot_reader *r) {
  if (r)
    ot_reader_close(r);
}
