/* unit_evt_stage: finalize/evt_stage.c's writers opened on demand, on real
 * OTF2 archives in a temporary directory. A location's events are kept
 * until its writer opens, then played first and in order; a location with
 * more than 8 KiB of them, or one that would take all kept events past
 * 8 MiB, gets its writer at once; at the end every other location is
 * written and closed in turn (an empty one too: its file exists) and
 * counted; without ok, kept events are only released. */
#include "check.h"
#include "finalize/evt_stage.h"
#include "finalize/otf2_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXLOC 1100
#define MAXEV 400

static OTF2_EvtWriter *writers[MAXLOC];
static uint64_t counts[MAXLOC];
static uint32_t played[MAXLOC], order_bad, wrong_writer, released;

/* An event here: location, sequence number, then padding to its length. */
static OTF2_ErrorCode play(OTF2_EvtWriter *w, const uint64_t *ev) {
  uint32_t loc = (uint32_t)ev[0];
  if (!w) {
    released++;
    return OTF2_SUCCESS;
  }
  if (w != writers[loc])
    wrong_writer++;
  if (ev[1] != played[loc])
    order_bad++;
  played[loc]++;
  return OTF2_EvtWriter_Enter(w, NULL, 1000 + ev[1], 0);
}

static OTF2_ErrorCode feed(uint32_t loc, uint32_t n, size_t words) {
  uint64_t ev[16] = {0};
  OTF2_ErrorCode e = OTF2_SUCCESS;
  for (uint32_t i = 0; i < n && e == OTF2_SUCCESS; i++) {
    ev[0] = loc;
    ev[1] = i; /* each location is fed once */
    e = ot_stage_event(loc, ev, words);
  }
  return e;
}

/* A fresh archive in root/name (dir receives the path) with nloc locations
 * staged, the counters cleared; NULL when it cannot open. */
static OTF2_Archive *start(const char *root, const char *name, uint32_t nloc, char dir[512]) {
  snprintf(dir, 512, "%s/%s", root, name);
  memset(writers, 0, sizeof writers);
  memset(counts, 0, sizeof counts);
  memset(played, 0, sizeof played);
  order_bad = wrong_writer = released = 0;
  OTF2_Archive *a = ot_otf2_open(dir);
  CHECK_TRUE("archive opens", a != NULL);
  if (a)
    ot_stage_open(a, writers, counts, nloc, play);
  return a;
}

static void finish(OTF2_Archive *a, uint32_t nloc) {
  for (uint32_t i = 0; i < nloc; i++)
    if (writers[i])
      OTF2_Archive_CloseEvtWriter(a, writers[i]);
  OTF2_Archive_CloseEvtFiles(a);
  OTF2_Archive_Close(a);
  ot_otf2_closed();
}

static int evt_file(const char *dir, uint32_t loc) {
  char path[600];
  struct stat st;
  snprintf(path, sizeof path, "%s/traces/%u.evt", dir, loc);
  return stat(path, &st) == 0;
}

/* Locations 0 (10 small events), 1 (300 events of 4 words: its 205th
 * overflows 1024 words with the length words), 2 (none), 3 (one). */
static void small_and_large(const char *root) {
  char dir[512];
  OTF2_Archive *a = start(root, "a", 4, dir);
  if (!a)
    return;
  feed(0, 10, 3);
  CHECK_TRUE("loc 0: kept, no writer", writers[0] == NULL && played[0] == 0);
  uint64_t ev[4] = {1, 0, 0, 0};
  for (uint32_t i = 0; i < 300; i++) {
    ev[1] = i;
    ot_stage_event(1, ev, 4);
    if (i == 203)
      CHECK_TRUE("loc 1: 204 events kept", writers[1] == NULL && played[1] == 0);
    if (i == 204)
      CHECK_U64("loc 1: writer opens at event 205, the kept ones first", played[1], 205);
  }
  CHECK_U64("loc 1: every event played", played[1], 300);
  feed(3, 1, 2);
  CHECK_U64("ot_stage_close", ot_stage_close(1), OTF2_SUCCESS);
  CHECK_U64("loc 0 played at the end", played[0], 10);
  CHECK_U64("loc 0 counted", counts[0], 10);
  CHECK_U64("loc 3 counted", counts[3], 1);
  CHECK_U64("loc 2 (empty) counted", counts[2], 0);
  CHECK_TRUE("closed at the end: writers NULL again", !writers[0] && !writers[2] && !writers[3]);
  CHECK_TRUE("loc 1 left open for the caller", writers[1] != NULL);
  CHECK_U64("events in order", order_bad, 0);
  CHECK_U64("each event to its location's writer", wrong_writer, 0);
  finish(a, 4);
  for (uint32_t loc = 0; loc < 4; loc++)
    CHECK_TRUE("an event file per location", evt_file(dir, loc));
}

/* Without ok nothing kept is written: it is released. */
static void not_ok(const char *root) {
  char dir[512];
  OTF2_Archive *a = start(root, "b", 2, dir);
  if (!a)
    return;
  feed(0, 3, 3);
  feed(1, 2, 3);
  CHECK_U64("ot_stage_close(0)", ot_stage_close(0), OTF2_SUCCESS);
  CHECK_U64("kept events released", released, 5);
  CHECK_U64("none played", played[0] + played[1], 0);
  CHECK_TRUE("no writer", !writers[0] && !writers[1]);
  finish(a, 2);
}

/* 1100 locations of 250 events of 3 words (1000 kept words each): after
 * 1048 of them the 8 MiB of all kept words are reached, and from location
 * 1048 on each gets its writer at its 145th event. */
static void all_kept_limit(const char *root) {
  char dir[512];
  OTF2_Archive *a = start(root, "c", MAXLOC, dir);
  if (!a)
    return;
  uint64_t ev[3] = {0, 0, 0};
  uint32_t opened_at = 0;
  for (uint32_t loc = 0; loc < MAXLOC; loc++)
    for (uint32_t i = 0; i < 250; i++) {
      ev[0] = loc;
      ev[1] = i;
      ot_stage_event(loc, ev, 3);
      if (loc == 1048 && writers[loc] && !opened_at)
        opened_at = i + 1;
    }
  CHECK_TRUE("location 1047 kept whole", writers[1047] == NULL && played[1047] == 0);
  CHECK_U64("location 1048's writer opens at its 145th event", opened_at, 145);
  CHECK_U64("location 1048 played whole", played[1048], 250);
  CHECK_TRUE("location 1099 has its writer", writers[MAXLOC - 1] != NULL);
  CHECK_U64("ot_stage_close", ot_stage_close(1), OTF2_SUCCESS);
  uint64_t total = 0;
  for (uint32_t loc = 0; loc < MAXLOC; loc++)
    total += played[loc];
  CHECK_U64("every event played", total, (uint64_t)MAXLOC * 250);
  CHECK_U64("counted", counts[0] + counts[1047], 500);
  CHECK_U64("events in order", order_bad, 0);
  finish(a, MAXLOC);
}

int main(void) {
  char root[64];
  if (ut_tmpdir(root, sizeof root, "unit_evt_stage") != 0)
    return 1;
  small_and_large(root);
  not_ok(root);
  all_kept_limit(root);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0)
    fprintf(stderr, "cannot remove %s\n", root);
  return ut_done("unit_evt_stage");
}
