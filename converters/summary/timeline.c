/* The timeline strip: every thread's time in TL_BINS bins over the run,
 * per state group, filled from the reader's spans during the one pass. The
 * bins start at the first event and cover the rest of the archive's
 * ClockProperties range; an event past it (or an archive without one)
 * doubles the bin width, merging bins pairwise, so memory stays TL_BINS x
 * groups per thread whatever the trace length. Only collected when
 * o.timeline is set (the HTML report). */
#include "timeline.h"
#include "summary.h"

#include "xalloc.h"

#include <stdlib.h>

/* Groups binned during the pass; OUTSIDE becomes serial or idle at the end,
 * once the reader knows which threads fork; EDGE (before a thread's first
 * and after its last event) is idle. */
enum { G_WORK, G_BARRIER, G_TASKWAIT, G_SYNC, G_OVERHEAD, G_OUTSIDE, G_MPI, G_EDGE, G_COUNT };

struct sm_timeline {
  uint64_t origin, width;             /* ticks */
  bool started;                       /* origin and width set */
  uint64_t (*bins)[TL_BINS][G_COUNT]; /* per location */
};

static int group_of(otr_cat c) {
  switch (c) {
  case OTR_T_WORK:
    return G_WORK;
  case OTR_T_IBARRIER:
  case OTR_T_EBARRIER:
    return G_BARRIER;
  case OTR_T_TASKWAIT:
  case OTR_T_TASKGROUP:
    return G_TASKWAIT;
  case OTR_T_LOCK:
  case OTR_T_CRITICAL:
  case OTR_T_ORDERED:
    return G_SYNC;
  case OTR_T_OUTSIDE:
    return G_OUTSIDE;
  case OTR_T_MPI:
    return G_MPI;
  default:
    return G_OVERHEAD;
  }
}

static void init(sm *s) {
  if (!s->o.timeline)
    return;
  sm_timeline *tl = otr_xcalloc(1, sizeof *tl);
  uint32_t n = s->d->n_locations;
  tl->bins = otr_xcalloc(n ? n : 1, sizeof *tl->bins);
  s->timeline = tl;
}

/* At the first span: the reader has read the run's first event (events
 * come in time order), and the recorder's clock range may start earlier. */
static void start(sm *s, sm_timeline *tl) {
  uint64_t end = s->d->offset + s->d->length;
  tl->origin = otr_first_time(s->a);
  tl->width = s->d->length > 0 && end > tl->origin ? (end - tl->origin) / TL_BINS + 1 : 1;
  tl->started = true;
}

/* Halves the resolution: bin i becomes old bins 2i and 2i+1. */
static void widen(sm_timeline *tl, uint32_t nloc) {
  for (uint32_t l = 0; l < nloc; l++) {
    uint64_t(*b)[G_COUNT] = tl->bins[l];
    for (uint32_t i = 0; i < TL_BINS; i++)
      for (int g = 0; g < G_COUNT; g++)
        b[i][g] = i < TL_BINS / 2 ? b[2 * i][g] + b[2 * i + 1][g] : 0;
  }
  tl->width *= 2;
}

/* Adds [t0, t1) of location l to group g. */
static void bin_add(sm *s, sm_timeline *tl, uint32_t l, int g, uint64_t t0, uint64_t t1) {
  if (!tl->started)
    start(s, tl);
  t0 = t0 < tl->origin ? tl->origin : t0;
  if (t1 <= t0)
    return;
  while ((t1 - 1 - tl->origin) / tl->width >= TL_BINS)
    widen(tl, s->d->n_locations);
  uint64_t(*b)[G_COUNT] = tl->bins[l];
  for (uint64_t t = t0; t < t1;) {
    uint64_t i = (t - tl->origin) / tl->width, end = tl->origin + (i + 1) * tl->width;
    end = end < t1 ? end : t1;
    b[i][g] += end - t;
    t = end;
  }
}

static void span(sm *s, const otr_loc *l, otr_cat cat, uint64_t t0, uint64_t t1,
                 const otr_frame *top) {
  (void)top;
  if (s->timeline && l->index < s->d->n_locations)
    bin_add(s, s->timeline, l->index, group_of(cat), t0, t1);
}

/* Before a thread's first event and after its last (all of the run for a
 * thread without events) it is idle, as the per-thread table counts it (a
 * worker, or an MPI rank, that started late is idle until then): binned
 * too, so that strips and per-thread totals agree. */
static void bin_edges(sm *s, sm_timeline *tl) {
  uint64_t first = otr_first_time(s->a), last = otr_last_time(s->a);
  for (uint32_t l = 0; l < s->d->n_locations; l++) {
    const otr_loc *loc = otr_location(s->a, l);
    if (!loc->events) {
      bin_add(s, tl, l, G_EDGE, first, last);
      continue;
    }
    bin_add(s, tl, l, G_EDGE, first, loc->first);
    bin_add(s, tl, l, G_EDGE, loc->last, last);
  }
}

/* The state of bin i of location l: its largest group (the earlier group
 * on a tie), TL_NONE when it holds no time. */
static tl_state state_of(uint64_t bin[G_COUNT], bool forked) {
  static const tl_state st[G_COUNT] = {TL_WORK,     TL_BARRIER, TL_TASKWAIT, TL_SYNC,
                                       TL_OVERHEAD, TL_IDLE,    TL_MPI,      TL_IDLE};
  int best = -1;
  for (int g = 0; g < G_COUNT; g++)
    if (bin[g] && (best < 0 || bin[g] > bin[best]))
      best = g;
  if (best < 0)
    return TL_NONE;
  return best == G_OUTSIDE && forked ? TL_SERIAL : st[best];
}

/* Bins up to the last event only: a run shorter than the clock range
 * leaves no trailing empty bins. */
static uint32_t bins_used(const sm *s) {
  const sm_timeline *tl = s->timeline;
  uint64_t last = otr_last_time(s->a);
  if (!tl->started || last < tl->origin)
    return 0;
  uint64_t n = (last - tl->origin) / tl->width + 1;
  return n < TL_BINS ? (uint32_t)n : TL_BINS;
}

static void report_timeline(sm *s, report *r) {
  sm_timeline *tl = s->timeline;
  if (!tl)
    return;
  if (tl->started)
    bin_edges(s, tl);
  uint32_t nb = bins_used(s);
  uint64_t first = otr_first_time(s->a);
  rtable *k = rt_new(r, "timeline", "range", "Timeline bins", true);
  rt_col(k, "start_ns", "Start (from the first event)", RV_NS);
  rt_col(k, "bin_ns", "Bin width", RV_NS);
  rt_col(k, "bins", "Bins", RV_INT);
  rt_row(k);
  rt_ns(k, tl->origin > first ? sm_ns(s, tl->origin - first) : 0);
  rt_ns(k, sm_ns(s, tl->width));
  rt_int(k, nb);
  rtable *t = rt_new(r, "timeline", "strips", "Timeline per thread", false);
  rt_col(t, "thread", "Thread", RV_INT);
  rt_col(t, "name", "Name", RV_STR);
  rt_col(t, "states", "State per bin", RV_INTLIST);
  double v[TL_BINS];
  for (uint32_t l = 0; l < s->d->n_locations; l++) {
    bool forked = otr_location(s->a, l)->forked;
    for (uint32_t i = 0; i < nb; i++)
      v[i] = state_of(tl->bins[l][i], forked);
    rt_row(t);
    rt_int(t, l);
    rt_str(t, s->d->location_names[l]);
    rt_list(t, v, nb);
  }
}

static void free_timeline(sm *s) {
  if (!s->timeline)
    return;
  free(s->timeline->bins);
  free(s->timeline);
  s->timeline = NULL;
}

const sm_analysis sm_timeline_analysis = {
    .init = init,
    .hooks = {.span = span},
    .report = report_timeline,
    .free = free_timeline,
};
