/* Measurement gaps and foreign events: the checks that keep a damaged or
 * partial archive from being reported as a complete run.
 * - MeasurementOnOff(OFF) .. (ON) on a location marks records that were
 *   dropped (the recorder's disk was full); the OFF record's attribute
 *   "omptrace::lost_records" says how many. Everything open there is closed
 *   at the gap's start. The union of all locations' gaps is the lost time:
 *   it goes to no category on any location (the run is incomplete then)
 *   and is left out of serial time and of the run's measured time.
 * - An OFF with "omptrace::stopped" (written by `omptrace recover`) marks
 *   where a thread's records end because the program died: its gap is a
 *   stop, reported once as "recording stopped early".
 * - An OFF with "omptrace::paused" marks a paused interval (omp_control_tool
 *   pause or end, OMPTRACE_START=paused): left out like a gap, but nothing
 *   is missing; readers report it as paused time, never as lost.
 * - Every event must lie inside the clock properties' range: an event file
 *   swapped in from another run does not. */
#include "locstate.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>

uint64_t otr_lost_until(const otr_archive *a, uint64_t t) {
  return a->lost + (a->n_off && t > a->off_since ? t - a->off_since : 0);
}

void otr_measurement_off(otr_archive *a, otr_locstate *ls, bool known, uint64_t records,
                         bool stopped) {
  if (ls->off) { /* a second OFF adds to the gap */
    ls->off_known = ls->off_known && known;
    ls->off_records += records;
    ls->off_stopped = ls->off_stopped || stopped;
    return;
  }
  ls->off_known = known;
  ls->off_records = records;
  ls->off_stopped = stopped;
  while (ls->depth) /* the recorder closes them itself; other writers may not */
    otr_pop(a, ls);
  ls->has_team = false;
  ls->fork_n = 0;
  ls->cur_task = 0;
  ls->mutex_open = false;
  ls->pm_valid = false;
  ls->off = true;
  ls->off_t = now(ls);
  if (a->n_off++ == 0)
    a->off_since = ls->off_t;
}

static void add_gap(otr_archive *a, uint32_t loc, uint64_t t0, uint64_t t1) {
  if (a->ngaps == a->capgaps) {
    a->capgaps = a->capgaps ? 2 * a->capgaps : 8;
    a->gaps = otr_xrealloc(a->gaps, a->capgaps * sizeof *a->gaps);
  }
  a->gaps[a->ngaps++] = (otr_gap){loc, t0, t1, 0, false, false, false};
}

static void gap_end(otr_archive *a, otr_locstate *ls, uint64_t t) {
  ls->off = false;
  add_gap(a, ls->pub.index, ls->off_t, t);
  a->gaps[a->ngaps - 1].records = ls->off_records;
  a->gaps[a->ngaps - 1].records_known = ls->off_known;
  a->gaps[a->ngaps - 1].stopped = ls->off_stopped;
  a->gaps[a->ngaps - 1].paused = ls->off_paused;
  if (--a->n_off == 0)
    a->lost += t - a->off_since;
}

void otr_measurement_on(otr_archive *a, otr_locstate *ls) {
  if (ls->off)
    gap_end(a, ls, now(ls));
}

/* At the end of the run: a gap that never ended lasts to the run's end. */
void otr_gaps_finish(otr_archive *a) {
  for (uint32_t i = 0; i < a->d.n_locations; i++)
    if (a->ls[i].off)
      gap_end(a, &a->ls[i], a->last);
}

/* The clock properties give the range of every event's time. */
void otr_check_range(otr_archive *a, otr_locstate *ls, uint64_t t) {
  uint64_t lo = a->d.offset, len = a->d.length;
  if (a->out_of_range || !len || (t >= lo && t - lo <= len))
    return;
  a->out_of_range = true;
  a->bad_loc = ls->pub.index;
  a->bad_t = t;
}

static void fmt_time(char *b, size_t n, const otr_archive *a, uint64_t ticks) {
  double ns = (double)otr_ns(a, ticks);
  if (ns < 1e3)
    snprintf(b, n, "%.0f ns", ns);
  else if (ns < 1e6)
    snprintf(b, n, "%.1f us", ns / 1e3);
  else if (ns < 1e9)
    snprintf(b, n, "%.1f ms", ns / 1e6);
  else
    snprintf(b, n, "%.1f s", ns / 1e9);
}

void otr_range_message(const otr_archive *a, char *err, size_t errlen) {
  char at[32], len[32];
  uint64_t lo = a->d.offset;
  fmt_time(at, sizeof at, a, a->bad_t >= lo ? a->bad_t - lo : lo - a->bad_t);
  fmt_time(len, sizeof len, a, a->d.length);
  snprintf(err, errlen,
           "the events of %s do not belong to this archive: one lies %s %s the start of a run "
           "that lasted %s (its clock properties); the event file comes from another run",
           a->d.location_names[a->bad_loc], at, a->bad_t >= lo ? "after" : "before", len);
}

const otr_gap *otr_gaps(const otr_archive *a, uint32_t *n) {
  *n = a->ngaps;
  return a->gaps;
}

uint64_t otr_lost_ticks(const otr_archive *a) {
  return a->lost;
}

static int by_start(const void *x, const void *y) {
  const otr_gap *p = x, *q = y;
  return p->t0 < q->t0 ? -1 : p->t0 > q->t0;
}

/* The union of the gaps of all locations that keep() takes, and how many
 * intervals it makes (overlapping gaps count once). */
static uint64_t union_ticks(const otr_archive *a, bool (*keep)(const otr_gap *),
                            uint32_t *intervals) {
  otr_gap *v = otr_xmalloc((a->ngaps ? a->ngaps : 1) * sizeof *v);
  uint32_t n = 0;
  for (uint32_t i = 0; i < a->ngaps; i++)
    if (keep(&a->gaps[i]))
      v[n++] = a->gaps[i];
  if (n)
    qsort(v, n, sizeof *v, by_start);
  uint64_t total = 0, end = 0;
  *intervals = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (i == 0 || v[i].t0 > end) { /* a new interval */
      (*intervals)++;
      total += v[i].t1 - v[i].t0;
      end = v[i].t1;
    } else if (v[i].t1 > end) {
      total += v[i].t1 - end;
      end = v[i].t1;
    }
  }
  free(v);
  return total;
}

static bool is_paused(const otr_gap *g) {
  return g->paused;
}
static bool is_missing(const otr_gap *g) {
  return !g->paused && !g->stopped;
}
static bool not_paused(const otr_gap *g) {
  return !g->paused;
}

uint64_t otr_paused_ticks(const otr_archive *a, uint32_t *intervals) {
  return union_ticks(a, is_paused, intervals);
}

uint64_t otr_missing_ticks(const otr_archive *a) {
  uint32_t n;
  return union_ticks(a, is_missing, &n);
}

uint64_t otr_stopped_ticks(const otr_archive *a) {
  uint32_t n;
  uint64_t all = union_ticks(a, not_paused, &n), missing = union_ticks(a, is_missing, &n);
  return all > missing ? all - missing : 0;
}
