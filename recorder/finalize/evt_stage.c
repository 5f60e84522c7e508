/* Event writers opened on demand (evt_stage.h): a location's first events
 * are kept, each after one word holding its length, until the location has
 * more than LOC_WORDS of them or all locations together more than
 * ALL_WORDS; without memory for that, a writer opens at its first event, as
 * before. Called from one thread at a time: the writer thread while it
 * runs, the replay's once it is joined (or throughout without it). */
#include "finalize/evt_stage.h"

#include <stdlib.h>
#include <string.h>

#define LOC_WORDS 1024u      /* 8 KiB per location */
#define ALL_WORDS (1u << 20) /* 8 MiB in all */

typedef struct kept {
  uint64_t *w;
  uint32_t n, cap; /* words used and allocated */
} kept;

static OTF2_Archive *archive;
static OTF2_EvtWriter **writers;
static uint64_t *counts;
static uint32_t nloc;
static ot_stage_play_fn play;
static kept *keep; /* per location; NULL: nothing is kept */
static size_t all; /* words kept in all */

void ot_stage_open(OTF2_Archive *a, OTF2_EvtWriter **w, uint64_t *events, uint32_t n,
                   ot_stage_play_fn p) {
  archive = a;
  writers = w;
  counts = events;
  nloc = n;
  play = p;
  keep = calloc(n ? n : 1, sizeof *keep);
  all = 0;
}

/* Plays (ok) or releases what location loc kept, and forgets it. */
static OTF2_ErrorCode flush_kept(uint32_t loc, int ok) {
  OTF2_ErrorCode e = OTF2_SUCCESS;
  if (!keep)
    return e;
  kept *k = &keep[loc];
  for (uint32_t i = 0; i < k->n; i += 1 + (uint32_t)k->w[i]) {
    if (ok && e == OTF2_SUCCESS)
      e = play(writers[loc], &k->w[i + 1]);
    else
      play(NULL, &k->w[i + 1]);
  }
  all -= k->n;
  free(k->w);
  *k = (kept){NULL, 0, 0};
  return e;
}

/* Opens loc's writer and plays what it kept first. */
static OTF2_ErrorCode open_writer(uint32_t loc) {
  writers[loc] = OTF2_Archive_GetEvtWriter(archive, loc);
  if (!writers[loc]) {
    flush_kept(loc, 0);
    return OTF2_ERROR_INVALID_CALL;
  }
  return flush_kept(loc, 1);
}

/* Keeps the event if the limits allow; 0 when kept. */
static int keep_event(uint32_t loc, const uint64_t *event, size_t words) {
  if (!keep)
    return -1;
  kept *k = &keep[loc];
  size_t need = (size_t)k->n + 1 + words;
  if (need > LOC_WORDS || all + 1 + words > ALL_WORDS)
    return -1;
  if (need > k->cap) {
    uint32_t cap = k->cap ? 2 * k->cap : 64;
    while (cap < need)
      cap *= 2;
    if (cap > LOC_WORDS)
      cap = LOC_WORDS;
    uint64_t *w = realloc(k->w, cap * sizeof *w);
    if (!w)
      return -1;
    k->w = w;
    k->cap = cap;
  }
  k->w[k->n] = words;
  memcpy(&k->w[k->n + 1], event, words * sizeof *event);
  k->n = (uint32_t)need;
  all += 1 + words;
  return 0;
}

OTF2_ErrorCode ot_stage_event(uint32_t loc, const uint64_t *event, size_t words) {
  if (writers[loc])
    return play(writers[loc], event);
  if (keep_event(loc, event, words) == 0)
    return OTF2_SUCCESS;
  OTF2_ErrorCode e = open_writer(loc);
  if (e != OTF2_SUCCESS) {
    play(NULL, event);
    return e;
  }
  return play(writers[loc], event);
}

OTF2_ErrorCode ot_stage_close(int ok) {
  OTF2_ErrorCode e = OTF2_SUCCESS;
  for (uint32_t loc = 0; loc < nloc; loc++) {
    if (writers[loc])
      continue;
    if (!ok || e != OTF2_SUCCESS) {
      flush_kept(loc, 0);
      continue;
    }
    e = open_writer(loc);
    if (e == OTF2_SUCCESS)
      e = OTF2_EvtWriter_GetNumberOfEvents(writers[loc], &counts[loc]);
    if (writers[loc]) { /* closed now: the next location reuses its chunk */
      OTF2_ErrorCode ce = OTF2_Archive_CloseEvtWriter(archive, writers[loc]);
      writers[loc] = NULL;
      if (e == OTF2_SUCCESS)
        e = ce;
    }
  }
  free(keep);
  keep = NULL;
  all = 0;
  return e;
}
