/* unit_run: the run model finalize and omptrace-recover load from a record
 * log (recorder/finalize/run.c). A log written here with ot_frame_seal,
 * ot_meta_put and ot_codec_encode loads as: META with later keys winning,
 * the clock conversion from the first and last CLOCK points, the last MAPS
 * text, per location the THREAD facts, the last STATS, the sum of LOST
 * frames, the sample/context buffers rebuilt by concatenation, the count
 * and last time of the records (capture buffers cut at a malformed
 * capture); locations up to the highest <loc>.log; a
 * torn last frame marks its location damaged; no process file is an
 * error. Linked with the omptrace_pipeline objects, as omptrace-recover. */
#include "check.h"
#include "core/clock.h"
#include "finalize/run.h"
#include "finalize/timeline.h"
#include "frame_file.h"
#include "log/codec.h"
#include "log/frame.h"
#include "log/meta.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], logdir[96];
static uint32_t seq;
static char path[160];

static void start(const char *file) {
  snprintf(path, sizeof path, "%s/%s", logdir, file);
  seq = 0;
}

static void put(unsigned type, const void *a, size_t alen, const void *b, size_t blen) {
  ut_frame_append(path, &seq, type, a, alen, b, blen);
}

static void put_meta(const char *const *kv) {
  char text[1024];
  size_t len = 0;
  for (; kv[0]; kv += 2)
    ot_meta_put(text, sizeof text, &len, kv[0], kv[1]);
  put(OT_FRAME_META, text, len, NULL, 0);
}

static void put_clock(uint64_t raw, uint64_t ns) {
  ot_log_clock c = {raw, ns};
  put(OT_FRAME_CLOCK, &c, sizeof c, NULL, 0);
}

static void put_thread(uint32_t loc, int32_t type, int32_t tid) {
  ot_log_thread t = {loc, type, tid, 0, 0, 0};
  put(OT_FRAME_THREAD, &t, sizeof t, NULL, 0);
}

/* A RECORDS frame of n records at times ts0, ts0 + 10, ... */
static void put_records(uint32_t n, uint64_t ts0) {
  ot_rec recs[16];
  uint8_t enc[1024];
  for (uint32_t i = 0; i < n; i++)
    recs[i] = (ot_rec){.ts = ts0 + 10 * i, .type = OT_FLUSH, .b = 0x1234};
  ot_log_records rh = {0, 0};
  rh.bytes =
      (uint32_t)ot_codec_encode((const uint8_t *)recs, (const uint8_t *)(recs + n), enc, &rh.nrec);
  put(OT_FRAME_RECORDS, &rh, sizeof rh, enc, rh.bytes);
}

static void put_stats(uint64_t records, uint64_t stall, uint64_t taken) {
  ot_log_stats s = {0};
  s.records = records;
  s.stall_ns = stall;
  s.taken = taken;
  put(OT_FRAME_STATS, &s, sizeof s, NULL, 0);
}

static void put_lost(uint64_t count) {
  ot_log_lost l = {count, 100, 200};
  put(OT_FRAME_LOST, &l, sizeof l, NULL, 0);
}

static void put_captures(uint32_t which, uint64_t offset, const char *bytes, size_t n) {
  ot_log_captures c = {which, 0, offset};
  put(OT_FRAME_CAPTURES, &c, sizeof c, bytes, n);
}

static void write_log(void) {
  start(OT_LOG_PROCESS_FILE);
  put_meta((const char *const[]){"version",
                                 "1",
                                 "program",
                                 "prog",
                                 "pid",
                                 "4242",
                                 "host",
                                 "node7",
                                 "clock",
                                 "tsc",
                                 "realtime_ns",
                                 "1700000000000000000",
                                 "callstacks",
                                 "machine",
                                 "sampling_ns",
                                 "5000000",
                                 "counters",
                                 "2",
                                 "counter.0.name",
                                 "PAPI_TOT_INS",
                                 "counter.0.desc",
                                 "Instructions",
                                 "counter.0.unit",
                                 "#",
                                 "counter.1.name",
                                 "PAPI_L1_DCM",
                                 "counter.1.estimate",
                                 "1",
                                 "counters_strict",
                                 "1",
                                 NULL});
  put_clock(1000, 5000);
  char maps1[] = "maps one\n", maps2[] = "maps two\n";
  put(OT_FRAME_MAPS, maps1, strlen(maps1), NULL, 0);
  put_clock(2000, 5400);
  put(OT_FRAME_MAPS, maps2, strlen(maps2), NULL, 0);
  put_clock(3000, 6000);
  put_meta((const char *const[]){"finished", "1", "host", "node8", NULL});

  start("0" OT_LOG_THREAD_SUFFIX);
  put_thread(0, 1, 100);
  put_records(3, 1500);
  put_stats(3, 7, 2);
  ot_capture cap[2] = {{.ts = 11, .size = sizeof cap[0], .kind = OT_CAP_SAMPLE},
                       {.ts = 12, .size = 0, .kind = OT_CAP_FORK}};
  put_captures(OT_LOG_SAMPLES, 0, (const char *)cap, sizeof cap[0]);
  put_lost(4);
  put_records(5, 2000);
  /* A malformed capture (size 0) ends the usable part of its buffer. */
  put_captures(OT_LOG_CONTEXTS, 0, (const char *)cap, sizeof cap);
  cap[0].ts = 13;
  put_captures(OT_LOG_SAMPLES, sizeof cap[0], (const char *)cap, sizeof cap[0]);
  put_lost(6);
  put_stats(8, 9, 5);

  /* 1.log is missing; 2.log ends in a torn frame. */
  start("2" OT_LOG_THREAD_SUFFIX);
  put_thread(2, 2, 102);
  put_records(2, 2500);
  put_records(4, 2600);
  struct stat st;
  if (stat(path, &st) != 0 || truncate(path, st.st_size - 3) != 0)
    perror("unit_run: truncate");
}

int main(void) {
  if (ut_tmpdir(dir, sizeof dir, "unit_run") != 0)
    return 1;
  snprintf(logdir, sizeof logdir, "%s/.log", dir);
  static ot_run run;
  CHECK_I64("no log: an error", ot_run_load(&run, dir, 0, NULL), -1);
  mkdir(logdir, 0700);
  CHECK_I64("no process file: an error", ot_run_load(&run, dir, 0, NULL), -1);
  write_log();

  CHECK_I64("load", ot_run_load(&run, dir, 0, NULL), 0);
  CHECK_STR("dir", run.dir, dir);
  CHECK_STR("log_dir", run.log_dir, logdir);
  CHECK_STR("program", run.program, "prog");
  CHECK_STR("host: the later META wins", run.host, "node8");
  CHECK_I64("pid", run.pid, 4242);
  CHECK_I64("live", run.live, 0);
  CHECK_I64("finished", run.finished, 1);
  CHECK_I64("callstacks", run.callstacks, 1);
  CHECK_U64("sampling_ns", run.sampling_ns, 5000000);
  CHECK_U64("realtime_ns", run.realtime_ns, 1700000000000000000ull);
  CHECK_U64("nmetrics", run.nmetrics, 2);
  CHECK_STR("metric 0 name", run.metric_name[0], "PAPI_TOT_INS");
  CHECK_STR("metric 0 desc", run.metric_desc[0], "Instructions");
  CHECK_STR("metric 1 desc: none", run.metric_desc[1], NULL);
  CHECK_I64("metric 1 estimate", run.metric_estimate[1], 1);
  CHECK_I64("counters_strict", run.counters_strict, 1);
  CHECK_STR("maps: the last", run.maps, "maps two\n");
  CHECK_U64("clock points", run.nclock, 3);
  CHECK_U64("clock0", run.clock0_ns, 5000);
  /* First (1000, 5000) and last (3000, 6000) point: 2 ticks per ns. */
  CHECK_U64("ticks to ns at the first point", ot_clock_to_ns(1000), 5000);
  CHECK_U64("ticks to ns between", ot_clock_to_ns(2000), 5500);
  CHECK_U64("ticks to ns at the last point", ot_clock_to_ns(3000), 6000);
  CHECK_U64("ticks to ns after", ot_clock_to_ns(5000), 7000);
  CHECK_U64("ticks to ns before the first point", ot_clock_to_ns(0), 4500);
  /* finalize's timeline converts inline, with a copy of the conversion,
   * and clamps per location so times never decrease. */
  CHECK_I64("timeline open", ot_timeline_open(2), 0);
  CHECK_U64("timeline: converted", ot_out_ts(0, 3000), 6000);
  CHECK_U64("timeline: no earlier than the location's last", ot_out_ts(0, 2000), 6000);
  CHECK_U64("timeline: another location", ot_out_ts(1, 2000), 5500);
  CHECK_U64("timeline: before the first point", ot_out_ts(1, 0), 5500);
  CHECK_U64("timeline: past the locations, not clamped", ot_out_ts(7, 1000), 5000);
  CHECK_U64("timeline: last of a location", ot_out_last(1), 5500);
  uint64_t first, end;
  ot_timeline_span(&first, &end);
  CHECK_U64("timeline: first", first, 5000);
  CHECK_U64("timeline: end", end, 6000);
  ot_timeline_close();

  CHECK_U64("threads: highest <loc>.log + 1", run.nthreads, 3);
  ot_run_thread *t = &run.threads[0];
  CHECK_I64("0 present", t->present, 1);
  CHECK_I64("0 type", t->type, 1);
  CHECK_I64("0 tid", t->tid, 100);
  CHECK_U64("0 records: last STATS", t->records, 8);
  CHECK_U64("0 stall: last STATS", t->stall_ns, 9);
  CHECK_U64("0 samples taken: last STATS", t->sampler.taken, 5);
  CHECK_U64("0 lost: sum of LOST", t->lost, 10);
  CHECK_U64("0 logged", t->logged, 8);
  CHECK_U64("0 last raw", t->last_raw, 2040);
  CHECK_I64("0 damaged", t->damaged, 0);
  CHECK_U64("0 samples bytes", t->sampler.samples.used, 2 * sizeof(ot_capture));
  uint64_t ts[3] = {0}, nc = 0;
  for (const ot_capture *c = ot_cap_next(&t->sampler.samples, NULL); c && nc < 3;
       c = ot_cap_next(&t->sampler.samples, c))
    ts[nc++] = c->ts;
  CHECK_U64("0 samples: two", nc, 2);
  CHECK_U64("0 samples: in order", ts[0] * 100 + ts[1], 1113);
  CHECK_U64("0 contexts: the well-formed one", t->sampler.contexts.used, sizeof(ot_capture));
  CHECK_TRUE("0 thread pointer", t->sampler.thread == NULL);
  CHECK_I64("1 present", run.threads[1].present, 0);
  CHECK_I64("1 damaged (no file: no records)", run.threads[1].damaged, 0);
  t = &run.threads[2];
  CHECK_I64("2 present", t->present, 1);
  CHECK_I64("2 damaged (torn)", t->damaged, 1);
  CHECK_U64("2 logged: before the torn frame", t->logged, 2);
  CHECK_U64("2 last raw", t->last_raw, 2510);
  CHECK_U64("run lost", run.lost, 10);
  CHECK_U64("run damaged", run.ndamaged, 1);

  /* Records through the pipeline's stream: loc 0 has 8 records + 2 LOST. */
  ot_reader *r = ot_run_records(&run, 0);
  uint64_t n = 0, lost = 0;
  for (const ot_rec *rec; (rec = ot_run_next(r)) != NULL; n++)
    lost += rec->type == OT_LOST ? rec->a : 0;
  ot_run_records_close(r);
  CHECK_U64("stream of 0", n, 10);
  CHECK_U64("stream of 0: lost", lost, 10);
  r = ot_run_records(&run, 1);
  CHECK_TRUE("stream of 1: none", ot_run_next(r) == NULL);
  ot_run_records_close(r);
  ot_run_free(&run);
  CHECK_U64("freed", run.nthreads, 0);

  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    perror("unit_run: cleanup");
  return ut_done("unit_run");
}
