/* unit_scan_feed: finalize's scan fed during the run (recorder/finalize/
 * scan.c, scan_feed.h) gives the tables of a pass over the log. A log of
 * three locations is scanned by a pass, then fed as a flusher would, in
 * pieces and locations interleaved out of order (location 2 first, a
 * parallel region first seen by a later location, a wait id's code
 * pointers seen in the other order, pauses, throttled counts, LOST
 * frames): every table compares equal. A feed that does not match the log
 * (a record short, or a frame written in a signal handler) is not used:
 * the pass runs and gives the same tables. Linked with omptrace_pipeline. */
#include "check.h"
#include "finalize/pauses.h"
#include "finalize/run.h"
#include "finalize/scan_ext.h"
#include "finalize/scan_feed.h"
#include "finalize/throttled.h"
#include "frame_file.h"
#include "log/codec.h"
#include "log/frame.h"
#include "log/meta.h"

#include <omp-tools.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NLOC 3
#define MAXREC 64

static char dir[64], logdir[96], path[160];
static uint32_t seq;
static ot_rec recs[NLOC][MAXREC];
static uint32_t nrecs[NLOC];

static void put(unsigned type, const void *a, size_t alen, const void *b, size_t blen) {
  ut_frame_append(path, &seq, type, a, alen, b, blen);
}

static void add(uint32_t loc, uint64_t ts, unsigned type, unsigned kind, uint32_t a, uint64_t b,
                uint64_t c) {
  recs[loc][nrecs[loc]++] =
      (ot_rec){.ts = ts, .type = (uint8_t)type, .kind = (uint8_t)kind, .a = a, .b = b, .c = c};
}

#define P1 0x100000001ull
#define P2 0x100000002ull
#define P3 0x100000003ull
#define W1 0x7000
#define W2 0x7008
#define SITE_TASK(s, n) (((uint64_t)(s) << 32) | (n))

/* Location 0 the master of P1, 1 its other member and master of P2 (seen by
 * location 2 first), waits on W1 from two sites, a pause, a throttled
 * count, a barrier after a loop ending the region (NULL parallel data). */
static void make_records(void) {
  add(0, 10, OT_IMPLICIT_BEGIN, ompt_task_initial, 1, 0, 0);
  add(0, 20, OT_PARALLEL_BEGIN, 0, 2, 0x4010, P1);
  add(0, 21, OT_IMPLICIT_BEGIN, ompt_task_implicit, 2, P1, 0);
  add(0, 30, OT_MUTEX_ACQUIRE, 1, 0, W1, 0x4020);
  add(0, 31, OT_TASK_CREATE, 0, ompt_task_explicit | ompt_task_untied, 0x4030, SITE_TASK(3, 1));
  add(0, 40, OT_WORK_END, 1, 0, 0x4040, 0);
  add(0, 41, OT_SYNC_BEGIN, ompt_sync_region_barrier_implicit, 0, 0, P1);
  add(0, 49, OT_SYNC_END, ompt_sync_region_barrier_implicit, 0, 0, 0);
  add(0, 50, OT_CONTROL_TOOL, OT_CTL_PAUSED, 1, 0, 0);
  add(0, 60, OT_CONTROL_TOOL, OT_CTL_RESUMED, 2, 0, 0);
  add(0, 90, OT_IMPLICIT_END, ompt_task_implicit, 2, P1, 0);
  add(0, 95, OT_PARALLEL_END, 0, 0, 0x4010, P1);
  add(0, 96, OT_PARALLEL_BEGIN, 0, 2, 0x4050, P3);
  add(0, 97, OT_IMPLICIT_BEGIN, ompt_task_implicit, 2, P3, 0);
  add(0, 98, OT_IMPLICIT_END, ompt_task_implicit, 2, P3, 0);
  add(0, 99, OT_PARALLEL_END, 0, 0, 0x4050, P3);

  add(1, 22, OT_IMPLICIT_BEGIN, ompt_task_implicit, 2, P1, 1);
  add(1, 23, OT_PARALLEL_BEGIN, 0, 2, 0x5010, P2);
  add(1, 24, OT_IMPLICIT_BEGIN, ompt_task_implicit, 2, P2, 0);
  add(1, 25, OT_MUTEX_ACQUIRE, 1, 0, W1,
      0x5020); /* W1's first code pointer in scan order: 0x4020 */
  add(1, 26, OT_MUTEX_ACQUIRE, 1, 0, W2, 0);
  add(1, 27, OT_MUTEX_ACQUIRE, 1, 0, W2, 0x5030);
  add(1, 28, OT_THROTTLED, 0, 100, 0x5040, 5);
  add(1, 80, OT_IMPLICIT_END, ompt_task_implicit, 2, P2, 0);
  add(1, 81, OT_PARALLEL_END, 0, 0, 0x5010, P2);
  add(1, 89, OT_IMPLICIT_END, ompt_task_implicit, 2, P1, 1);

  /* P3 (location 0's last region) and P2 fed before their masters' records. */
  add(2, 97, OT_IMPLICIT_BEGIN, ompt_task_implicit, 2, P3, 1);
  add(2, 98, OT_IMPLICIT_END, ompt_task_implicit, 2, P3, 1);
  add(2, 24, OT_IMPLICIT_BEGIN, ompt_task_implicit, 2, P2, 1);
  add(2, 25, OT_MUTEX_ACQUIRE, 1, 0, W2, 0x6030);
  add(2, 26, OT_TASK_CREATE, 0, ompt_task_explicit, 0x6040, SITE_TASK(4, 1));
  add(2, 79, OT_IMPLICIT_END, ompt_task_implicit, 2, P2, 1);
}

/* Location loc's log: its records in frames of `per` records, a LOST frame
 * of 7 after the first frame of location 2. */
static void write_location(uint32_t loc, uint32_t per) {
  snprintf(path, sizeof path, "%s/%u%s", logdir, loc, OT_LOG_THREAD_SUFFIX);
  unlink(path);
  seq = 0;
  ot_log_thread t = {loc, loc ? 2 : 1, (int32_t)(100 + loc), 0, 0, 0};
  put(OT_FRAME_THREAD, &t, sizeof t, NULL, 0);
  for (uint32_t i = 0; i < nrecs[loc]; i += per) {
    uint32_t n = nrecs[loc] - i < per ? nrecs[loc] - i : per;
    uint8_t enc[4096];
    ot_log_records rh = {0, 0};
    rh.bytes = (uint32_t)ot_codec_encode((const uint8_t *)&recs[loc][i],
                                         (const uint8_t *)&recs[loc][i + n], enc, &rh.nrec);
    put(OT_FRAME_RECORDS, &rh, sizeof rh, enc, rh.bytes);
    if (loc == 2 && i == 0) {
      ot_log_lost l = {7, 11, 12};
      put(OT_FRAME_LOST, &l, sizeof l, NULL, 0);
    }
  }
}

static void write_log(void) {
  snprintf(path, sizeof path, "%s/%s", logdir, OT_LOG_PROCESS_FILE);
  seq = 0;
  char text[512];
  size_t len = 0;
  const char *kv[] = {"version", "1",     "program",   "prog",     "pid", "4242", "host",
                      "node",    "clock", "monotonic", "finished", "1",   NULL};
  for (const char *const *p = kv; p[0]; p += 2)
    ot_meta_put(text, sizeof text, &len, p[0], p[1]);
  put(OT_FRAME_META, text, len, NULL, 0);
  ot_log_clock c = {0, 0};
  put(OT_FRAME_CLOCK, &c, sizeof c, NULL, 0);
  for (uint32_t loc = 0; loc < NLOC; loc++)
    write_location(loc, 4);
}

/* The scan's tables as text. */
static void tables(char *out, size_t cap) {
  size_t n = 0;
  n += (size_t)snprintf(out + n, cap - n, "records %llu lost %llu pauses %u\n",
                        (unsigned long long)ot_scan_records(), (unsigned long long)ot_scan_lost(),
                        ot_pauses_count());
  for (uint64_t i = 0; i < ot_scan_parallel_count() && n < cap; i++) {
    const ot_parallel_info *p = ot_scan_parallel_at(i);
    uint32_t nm;
    const uint32_t *m = ot_scan_members(i, &nm);
    n += (size_t)snprintf(out + n, cap - n,
                          "par %llx parent %llx begin %llu end %llu cp %llx master %u size %u "
                          "kind %u members %u:",
                          (unsigned long long)p->id, (unsigned long long)p->parent_id,
                          (unsigned long long)p->begin_raw, (unsigned long long)p->end_raw,
                          (unsigned long long)p->codeptr, p->master_loc, p->team_size, p->kind, nm);
    for (uint32_t k = 0; k < nm && n < cap; k++)
      n += (size_t)snprintf(out + n, cap - n, " %d", (int)m[k]);
    if (n < cap)
      n += (size_t)snprintf(out + n, cap - n, "\n");
  }
  if (n < cap)
    snprintf(out + n, cap - n,
             "W1 %llx W2 %llx untied %d/%d site3 %llx site4 %llx ends(0,6) %d ends(0,5) %d\n",
             (unsigned long long)ot_scan_wait_codeptr(W1),
             (unsigned long long)ot_scan_wait_codeptr(W2), ot_scan_task_untied(SITE_TASK(3, 9)),
             ot_scan_task_untied(SITE_TASK(4, 9)), (unsigned long long)ot_scan_site_codeptr(3),
             (unsigned long long)ot_scan_site_codeptr(4), ot_scan_ends_parallel(0, 6),
             ot_scan_ends_parallel(0, 5));
}

/* Feeds location loc's records [from, to), the LOST record after record 4
 * of location 2 (as its log has it). */
static void feed(uint32_t loc, uint32_t from, uint32_t to) {
  for (uint32_t i = from; i < to; i++) {
    ot_scan_feed(loc, (const uint8_t *)&recs[loc][i], 1, 0);
    if (loc == 2 && i == 3) {
      ot_rec lost = {.ts = 12, .type = OT_LOST, .a = 7, .b = 11, .c = 12};
      ot_scan_feed(loc, (const uint8_t *)&lost, 1, 0);
    }
  }
}

/* Interleaved as a flusher with passes of a few records each would feed,
 * later locations first. */
static void feed_all(void) {
  feed(2, 0, 2);
  feed(1, 0, 5);
  feed(2, 2, 4);
  feed(0, 0, 6);
  feed(1, 5, nrecs[1]);
  feed(2, 4, nrecs[2]);
  feed(0, 6, nrecs[0]);
}

static char want[8192], got[8192];

/* A record more than the log holds. */
static void one_more(void) {
  ot_scan_feed(0, (const uint8_t *)&recs[0][0], 1, 0);
}

/* A frame written by a signal handler. */
static void from_signal(void) {
  ot_scan_feed(0, NULL, 0, 1);
}

/* Every record fed as feed_all does, then spoil (NULL: nothing): the scan
 * gives the pass's tables, taken from the feed or not (used). */
static void fed_case(const ot_run *run, const char *what, void (*spoil)(void), int used) {
  char m[96];
  feed_all();
  if (spoil)
    spoil();
  CHECK_I64(what, ot_scan_run(run), 0);
  snprintf(m, sizeof m, "%s: the feed %s", what, used ? "used" : "not used");
  CHECK_I64(m, ot_scan_was_fed(), used);
  tables(got, sizeof got);
  snprintf(m, sizeof m, "%s: the pass's tables", what);
  CHECK_STR(m, got, want);
  ot_scan_free();
  ot_throttled_free();
}

int main(void) {
  if (ut_tmpdir(dir, sizeof dir, "unit_scan_feed") != 0)
    return 1;
  snprintf(logdir, sizeof logdir, "%s/.log", dir);
  mkdir(logdir, 0700);
  make_records();
  write_log();
  static ot_run run;
  CHECK_I64("load", ot_run_load(&run, dir, 0, NULL), 0);

  /* The pass (omptrace-recover's way). */
  CHECK_I64("pass", ot_scan_run(&run), 0);
  CHECK_I64("pass: not fed", ot_scan_was_fed(), 0);
  tables(want, sizeof want);
  ot_scan_free();
  ot_throttled_free();
  CHECK_TRUE("the pass: P1, P3, P2 (location order)",
             strstr(want, "par 100000003") < strstr(want, "par 100000002") &&
                 strstr(want, "par 100000001") < strstr(want, "par 100000002") &&
                 strstr(want, "par 100000001"));
  CHECK_TRUE("W1's first code pointer in location order", strstr(want, "W1 4020 W2 5030") != NULL);
  CHECK_TRUE("the pause", strstr(want, "pauses 1") != NULL);
  CHECK_TRUE("the barrier ends P1", strstr(want, "ends(0,6) 1 ends(0,5) 0") != NULL);

  /* The same records fed out of order, in the recording process: taken
   * from the feed; then spoilt two ways: the pass runs. */
  run.live = 1;
  fed_case(&run, "fed", NULL, 1);
  fed_case(&run, "one too many", one_more, 0);
  fed_case(&run, "in a signal handler", from_signal, 0);

  ot_run_free(&run);
  for (uint32_t loc = 0; loc < NLOC; loc++) {
    snprintf(path, sizeof path, "%s/%u%s", logdir, loc, OT_LOG_THREAD_SUFFIX);
    unlink(path);
  }
  snprintf(path, sizeof path, "%s/%s", logdir, OT_LOG_PROCESS_FILE);
  unlink(path);
  rmdir(logdir);
  rmdir(dir);
  return ut_done("unit_scan_feed");
}
