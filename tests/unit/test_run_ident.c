/* unit_run_ident: the checks ot_run_load (recorder/finalize/run.c) makes
 * with the run identity of THREAD frames and the process file's LOCATION
 * frames (log/format.h): a THREAD frame without the identity (a log of an
 * older version) is taken as it is, one naming the run is taken, one
 * naming another run leaves its file out, and a file a LOCATION frame
 * announces but that is gone is counted missing, each once in nmissing. */
#include "check.h"
#include "finalize/run.h"
#include "frame_file.h"
#include "log/codec.h"
#include "log/format.h"
#include "log/meta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char dir[64], logdir[96];

static void file(char *path, size_t size, const char *name) {
  snprintf(path, size, "%s/%s", logdir, name);
}

/* A THREAD frame (payload len bytes: 24 is a log written before the run
 * identity) then one RECORDS frame of 3 records. */
static void thread_file(const char *name, uint32_t loc, uint64_t run, size_t len) {
  char path[160];
  uint32_t seq = 0;
  file(path, sizeof path, name);
  ot_log_thread t = {loc, 1, (int32_t)(100 + loc), 0, 0, run};
  ut_frame_append_loc(path, &seq, loc, OT_FRAME_THREAD, &t, len, NULL, 0);
  ot_rec recs[3];
  uint8_t enc[1024];
  for (uint32_t i = 0; i < 3; i++)
    recs[i] = (ot_rec){.ts = 1000 + 10 * i, .type = OT_FLUSH, .b = 0x1234};
  ot_log_records h = {0, 0};
  h.bytes =
      (uint32_t)ot_codec_encode((const uint8_t *)recs, (const uint8_t *)(recs + 3), enc, &h.nrec);
  ut_frame_append_loc(path, &seq, loc, OT_FRAME_RECORDS, &h, sizeof h, enc, h.bytes);
}

int main(void) {
  if (ut_tmpdir(dir, sizeof dir, "unit_run_ident") != 0)
    return 1;
  snprintf(logdir, sizeof logdir, "%s/.log", dir);
  mkdir(logdir, 0700);
  char path[160], text[256];
  uint32_t seq = 0;
  size_t len = 0;
  file(path, sizeof path, OT_LOG_PROCESS_FILE);
  ot_meta_put(text, sizeof text, &len, "pid", "7");
  ot_meta_put(text, sizeof text, &len, "realtime_ns", "5000");
  ut_frame_append(path, &seq, OT_FRAME_META, text, len, NULL, 0);
  ot_log_clock c[2] = {{100, 100}, {2000, 2000}};
  ut_frame_append(path, &seq, OT_FRAME_CLOCK, &c[0], sizeof c[0], NULL, 0);
  ut_frame_append(path, &seq, OT_FRAME_CLOCK, &c[1], sizeof c[1], NULL, 0);
  for (uint32_t loc = 0; loc < 4; loc++) {
    ot_log_location l = {loc, OT_LOC_OWN_FILE};
    ut_frame_append(path, &seq, OT_FRAME_LOCATION, &l, sizeof l, NULL, 0);
  }
  thread_file("0.log", 0, 0, 24);    /* no identity: not checked */
  thread_file("1.log", 1, 5000, 32); /* this run */
  thread_file("2.log", 2, 4999, 32); /* another run: left out */
  /* 3.log announced, never there: missing */

  static ot_run run;
  CHECK_I64("load", ot_run_load(&run, dir, 0, NULL), 0);
  CHECK_U64("locations", run.nthreads, 3);
  CHECK_I64("0 present (no identity)", run.threads[0].present, 1);
  CHECK_U64("0 records", run.threads[0].logged, 3);
  CHECK_I64("1 present (this run)", run.threads[1].present, 1);
  CHECK_I64("2 not present (another run)", run.threads[2].present, 0);
  CHECK_I64("2 gone", run.threads[2].gone, 1);
  CHECK_U64("2 no records", run.threads[2].logged, 0);
  CHECK_U64("present", run.npresent, 2);
  CHECK_U64("missing: 2.log (another run) and 3.log", run.nmissing, 2);
  ot_reader *r = ot_run_records(&run, 2);
  CHECK_I64("stream of 2: none", ot_run_next(r) == NULL, 1);
  ot_run_records_close(r);
  ot_run_free(&run);

  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    perror("unit_run_ident: cleanup");
  return ut_done("unit_run_ident");
}
