/* Paused intervals from the recorded state changes. Changes are recorded
 * under one lock in the order they happen (events/control.c), so sorting
 * them by time and replaying the state machine gives the intervals; a
 * change to the state already in force (a thread that began paused) adds
 * nothing. */
#include "finalize/pauses.h"
#include "buffer/record.h"
#include "finalize/grow.h"

#include <stdlib.h>

typedef struct change {
  uint64_t ts;
  uint8_t kind;
  uint32_t command;
} change;

static change *changes;
static uint32_t nchanges, capchanges;
static ot_pause *pauses;
static uint32_t npauses, cappauses;

int ot_pauses_note(uint64_t ts, uint8_t kind, uint32_t command) {
  change *c = ot_grow(changes, &capchanges, (uint64_t)nchanges + 1, sizeof *c, 16);
  if (!c)
    return -1;
  changes = c;
  changes[nchanges++] = (change){ts, kind, command};
  return 0;
}

static int by_time(const void *a, const void *b) {
  const change *x = a, *y = b;
  return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static const char *why(const change *c) {
  if (c->kind == OT_CTL_ENDED)
    return "recording ended (omp_control_tool_end)";
  return c->command ? "recording paused (omp_control_tool_pause)"
                    : "recording paused (OMPTRACE_START=paused)";
}

static void open_pause(const change *c) {
  ot_pause *p = ot_grow(pauses, &cappauses, (uint64_t)npauses + 1, sizeof *p, 8);
  if (!p)
    return; /* out of memory: the pause is left out */
  pauses = p;
  pauses[npauses++] = (ot_pause){c->ts, UINT64_MAX, why(c)};
}

void ot_pauses_build(void) {
  if (nchanges)
    qsort(changes, nchanges, sizeof *changes, by_time);
  enum { ON, PAUSED, ENDED } s = ON;
  for (uint32_t i = 0; i < nchanges && s != ENDED; i++) {
    const change *c = &changes[i];
    if (c->kind == OT_CTL_RESUMED && s == PAUSED) {
      if (npauses)
        pauses[npauses - 1].on = c->ts;
      s = ON;
    } else if (c->kind == OT_CTL_PAUSED && s == ON) {
      open_pause(c);
      s = PAUSED;
    } else if (c->kind == OT_CTL_ENDED) {
      if (s == ON)
        open_pause(c);
      else if (npauses)
        pauses[npauses - 1].why = why(c);
      s = ENDED;
    }
  }
}

uint32_t ot_pauses_count(void) {
  return npauses;
}

const ot_pause *ot_pauses_at(uint32_t i) {
  return &pauses[i];
}

void ot_pauses_free(void) {
  free(changes);
  free(pauses);
  changes = NULL;
  pauses = NULL;
  nchanges = capchanges = npauses = cappauses = 0;
}
