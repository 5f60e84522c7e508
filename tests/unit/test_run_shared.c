/* unit_run_shared: locations whose frames start in the record log's shared
 * file and go on in their own (log/format.h, finalize/run.c). A log
 * written here loads with every location's facts and records from both
 * files, in stream order; a location only in the shared file or only in
 * its own loads as well. A corrupt frame in the middle of the shared file
 * ends every stream there: a location whose own file says it continues
 * more shared bytes than were found keeps only what precedes the gap, and
 * the rest of the shared-only locations are marked damaged; a torn last
 * frame marks only the location it belongs to. Frames this
 * process "wrote" (the ot_run_written_fn) are read without CRCs and give
 * the same run. */
#include "check.h"
#include "finalize/run.h"
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

static char dir[64], logdir[96], shared[128];
static uint32_t shared_seq;
static uint64_t shared_of[3]; /* bytes of each location's frames in the shared file */
static uint64_t corrupt_at;   /* offset of location 1's RECORDS frame there */

static size_t put(const char *file, uint32_t *seq, uint32_t loc, unsigned type, const void *a,
                  size_t alen, const void *b, size_t blen) {
  char path[160];
  snprintf(path, sizeof path, "%s/%s", logdir, file);
  return ut_frame_append_loc(path, seq, loc, type, a, alen, b, blen);
}

/* Frames of location loc: in the shared file (own NULL) or in own. */
static void thread(const char *own, uint32_t *seq, uint32_t loc, uint64_t shared_bytes) {
  ot_log_thread t = {loc, loc ? 2 : 1, (int32_t)(100 + loc), 0, shared_bytes, 0};
  size_t n = put(own ? own : OT_LOG_SHARED_FILE, seq, loc, OT_FRAME_THREAD, &t, sizeof t, NULL, 0);
  if (!own)
    shared_of[loc] += n;
}

/* n records at ts0, ts0 + 10, ... */
static void records(const char *own, uint32_t *seq, uint32_t loc, uint32_t n, uint64_t ts0) {
  ot_rec recs[16];
  uint8_t enc[1024];
  for (uint32_t i = 0; i < n; i++)
    recs[i] = (ot_rec){.ts = ts0 + 10 * i, .type = OT_FLUSH, .b = loc};
  ot_log_records rh = {0, 0};
  rh.bytes =
      (uint32_t)ot_codec_encode((const uint8_t *)recs, (const uint8_t *)(recs + n), enc, &rh.nrec);
  size_t sz = put(own ? own : OT_LOG_SHARED_FILE, seq, loc, OT_FRAME_RECORDS, &rh, sizeof rh, enc,
                  rh.bytes);
  if (!own)
    shared_of[loc] += sz;
}

static void stats(const char *own, uint32_t *seq, uint32_t loc, uint64_t recs) {
  ot_log_stats s = {0};
  s.records = recs;
  size_t n = put(own ? own : OT_LOG_SHARED_FILE, seq, loc, OT_FRAME_STATS, &s, sizeof s, NULL, 0);
  if (!own)
    shared_of[loc] += n;
}

static void lost(uint32_t loc, uint64_t count) {
  ot_log_lost l = {count, 100, 200};
  shared_of[loc] += put(OT_LOG_SHARED_FILE, &shared_seq, loc, OT_FRAME_LOST, &l, sizeof l, NULL, 0);
}

static uint64_t file_size(const char *file) {
  char path[160];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", logdir, file);
  return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Location 0: shared THREAD, RECORDS(3), STATS, RECORDS(4), then 0.log
 * RECORDS(5), STATS. Location 1: shared only, RECORDS(2) and LOST(5)
 * between location 0's frames. Location 2: 2.log only. */
static void write_log(void) {
  char text[256];
  size_t len = 0;
  uint32_t pseq = 0, s0 = 0, s2 = 0;
  ot_meta_put(text, sizeof text, &len, "version", "1");
  ot_meta_put(text, sizeof text, &len, "program", "prog");
  ot_meta_put(text, sizeof text, &len, "clock", "monotonic");
  put(OT_LOG_PROCESS_FILE, &pseq, 0, OT_FRAME_META, text, len, NULL, 0);
  ot_log_clock c = {1000, 1000};
  put(OT_LOG_PROCESS_FILE, &pseq, 0, OT_FRAME_CLOCK, &c, sizeof c, NULL, 0);

  thread(NULL, &shared_seq, 0, 0);
  records(NULL, &shared_seq, 0, 3, 1000);
  thread(NULL, &shared_seq, 1, 0);
  corrupt_at = file_size(OT_LOG_SHARED_FILE);
  records(NULL, &shared_seq, 1, 2, 1100);
  stats(NULL, &shared_seq, 0, 3);
  lost(1, 5);
  records(NULL, &shared_seq, 0, 4, 1200);
  thread("0" OT_LOG_THREAD_SUFFIX, &s0, 0, shared_of[0]);
  records("0" OT_LOG_THREAD_SUFFIX, &s0, 0, 5, 1300);
  stats("0" OT_LOG_THREAD_SUFFIX, &s0, 0, 12);
  thread("2" OT_LOG_THREAD_SUFFIX, &s2, 2, 0);
  records("2" OT_LOG_THREAD_SUFFIX, &s2, 2, 6, 1400);
}

/* Times of a location's stream, and its records and LOST count. */
static uint64_t stream(const ot_run *run, uint32_t loc, uint64_t *times, uint64_t *nlost) {
  ot_reader *r = ot_run_records(run, loc);
  uint64_t n = 0;
  *nlost = 0;
  for (const ot_rec *rec; (rec = ot_run_next(r)) != NULL; n++) {
    if (rec->type == OT_LOST)
      *nlost += rec->a;
    else if (n < 16)
      times[n] = rec->ts;
  }
  ot_run_records_close(r);
  return n;
}

static uint64_t written(uint32_t loc) {
  return file_size(loc == OT_LOG_SHARED_LOC ? OT_LOG_SHARED_FILE
                   : loc == 0               ? "0" OT_LOG_THREAD_SUFFIX
                                            : "2" OT_LOG_THREAD_SUFFIX);
}

static void check_whole(const char *how, ot_run_written_fn fn) {
  static ot_run run;
  char what[96];
#define W(s) (snprintf(what, sizeof what, "%s: %s", how, s), what)
  CHECK_I64(W("load"), ot_run_load(&run, dir, 0, fn), 0);
  CHECK_U64(W("threads"), run.nthreads, 3);
  CHECK_U64(W("files"), run.nfiles, 3);
  CHECK_U64(W("files read as written"), run.nwritten, fn ? 3 : 0);
  CHECK_U64(W("damaged"), run.ndamaged, 0);
  const ot_run_thread *t = &run.threads[0];
  CHECK_I64(W("0 present, own"), t->present * 10 + t->own, 11);
  CHECK_U64(W("0 logged: both files"), t->logged, 12);
  CHECK_U64(W("0 records: its last STATS"), t->records, 12);
  CHECK_U64(W("0 last raw: in its own file"), t->last_raw, 1340);
  uint64_t ts[16] = {0}, nl = 0;
  CHECK_U64(W("0 stream"), stream(&run, 0, ts, &nl), 12);
  CHECK_U64(W("0 stream: shared first"), ts[0] * 1000000 + ts[3], 1000001200ull);
  CHECK_U64(W("0 stream: own after"), ts[7] * 1000 + ts[11], 1301340);
  t = &run.threads[1];
  CHECK_I64(W("1 present, own"), t->present * 10 + t->own, 10);
  CHECK_U64(W("1 logged, lost"), t->logged * 100 + t->lost, 205);
  CHECK_U64(W("1 last raw: in the shared file"), t->last_raw, 1110);
  CHECK_U64(W("1 stream: 2 records and a LOST"), stream(&run, 1, ts, &nl) * 100 + nl, 305);
  t = &run.threads[2];
  CHECK_I64(W("2 present, own"), t->present * 10 + t->own, 11);
  CHECK_U64(W("2 stream"), stream(&run, 2, ts, &nl), 6);
  CHECK_U64(W("2 last raw"), t->last_raw, 1450);
  ot_run_free(&run);
#undef W
}

int main(void) {
  if (ut_tmpdir(dir, sizeof dir, "unit_run_shared") != 0)
    return 1;
  snprintf(logdir, sizeof logdir, "%s/.log", dir);
  snprintf(shared, sizeof shared, "%s/%s", logdir, OT_LOG_SHARED_FILE);
  mkdir(logdir, 0700);
  write_log();
  check_whole("CRCs checked", NULL);
  check_whole("as written", written);

  /* A flipped payload byte in location 1's RECORDS frame of the shared file. */
  int fd = open(shared, O_RDWR);
  uint8_t b = 0;
  if (fd < 0 || pread(fd, &b, 1, (off_t)corrupt_at + 30) != 1)
    perror("unit_run_shared: corrupt");
  b ^= 0x40;
  if (fd >= 0 && pwrite(fd, &b, 1, (off_t)corrupt_at + 30) != 1)
    perror("unit_run_shared: corrupt");
  if (fd >= 0)
    close(fd);
  static ot_run run;
  CHECK_I64("gap: load", ot_run_load(&run, dir, 0, NULL), 0);
  CHECK_U64("gap: damaged 0 (gap) and 1 (shared only)", run.ndamaged, 2);
  const ot_run_thread *t = &run.threads[0];
  CHECK_I64("gap: 0 damaged, own file left out", t->damaged * 10 + t->own, 10);
  uint64_t ts[16] = {0}, nl = 0;
  CHECK_U64("gap: 0 stream: before the corrupt frame", stream(&run, 0, ts, &nl), 3);
  CHECK_U64("gap: 0 logged", t->logged, 3);
  CHECK_U64("gap: 0 last raw", t->last_raw, 1020);
  t = &run.threads[1];
  CHECK_I64("gap: 1 damaged", t->damaged, 1);
  CHECK_U64("gap: 1 stream: none", stream(&run, 1, ts, &nl), 0);
  t = &run.threads[2];
  CHECK_I64("gap: 2 whole", t->damaged * 100 + stream(&run, 2, ts, &nl), 6);
  ot_run_free(&run);

  /* The shared file's last frame (location 0's) torn: location 0 has a gap
   * before its own file, location 1 is whole. */
  char cmd[160];
  snprintf(cmd, sizeof cmd, "rm -f %s/*", logdir);
  if (system(cmd) != 0)
    perror("unit_run_shared: rm");
  memset(shared_of, 0, sizeof shared_of);
  shared_seq = 0;
  write_log();
  if (truncate(shared, (off_t)file_size(OT_LOG_SHARED_FILE) - 5) != 0)
    perror("unit_run_shared: truncate");
  CHECK_I64("torn: load", ot_run_load(&run, dir, 0, NULL), 0);
  CHECK_U64("torn: damaged: 0 only", run.ndamaged, 1);
  t = &run.threads[0];
  CHECK_I64("torn: 0 damaged, own file left out", t->damaged * 10 + t->own, 10);
  CHECK_U64("torn: 0 stream: its first RECORDS", stream(&run, 0, ts, &nl), 3);
  t = &run.threads[1];
  CHECK_I64("torn: 1 whole", t->damaged * 100 + stream(&run, 1, ts, &nl), 3);
  ot_run_free(&run);

  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    perror("unit_run_shared: cleanup");
  return ut_done("unit_run_shared");
}
