/* Run overview: program, threads, wall time, events, serial time (no thread
 * inside a parallel region, a fork or an MPI call) and its share of the
 * run, MPI-only time (a thread in an MPI call, none in a parallel region)
 * for programs that call MPI, and time in parallel regions (the rest). Measurement
 * gaps (records dropped while recording) are listed with the records lost
 * in each (unknown when the archive does not say) and their time is left
 * out: shares are of the measured time, wall time minus the gaps. */
#include "summary.h"

#include "xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

void sm_overview_totals(const sm *s, uint32_t *threads, uint64_t *wall_ns, uint64_t *serial_ns) {
  *threads = 0;
  for (uint32_t i = 0; i < s->d->n_locations; i++)
    if (otr_location(s->a, i)->events && !s->d->location_device[i])
      (*threads)++;
  uint64_t span = otr_last_time(s->a) - otr_first_time(s->a), lost = otr_lost_ticks(s->a);
  *wall_ns = sm_ns(s, span > lost ? span - lost : 0);
  *serial_ns = sm_ns(s, otr_serial_ticks(s->a));
}

static int by_loc_time(const void *x, const void *y) {
  const otr_gap *a = x, *b = y;
  if (a->loc != b->loc)
    return a->loc < b->loc ? -1 : 1;
  return a->t0 < b->t0 ? -1 : a->t0 > b->t0 ? 1 : 0;
}

/* Records lost in all gaps; false when a gap does not say (then *known is
 * the sum over the gaps that do). A stop (recovered run) loses nothing: the
 * program ended there. */
static bool lost_records(const otr_gap *g, uint32_t n, uint64_t *known) {
  bool all = true;
  *known = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (g[i].stopped || g[i].paused)
      continue;
    all = all && g[i].records_known;
    *known += g[i].records_known ? g[i].records : 0;
  }
  return all;
}

static void gaps_report(sm *s, report *r) {
  uint32_t n;
  const otr_gap *g = otr_gaps(s->a, &n);
  if (!n)
    return;
  otr_gap *v = otr_xmalloc(n * sizeof *v);
  uint32_t all = n;
  n = 0;
  for (uint32_t i = 0; i < all; i++)
    if (!g[i].paused) /* paused intervals are no gaps: the run overview has them */
      v[n++] = g[i];
  if (!n) {
    free(v);
    return;
  }
  qsort(v, n, sizeof *v, by_loc_time);
  rtable *t = rt_new(r, "overview", "gaps", "Measurement gaps (records missing)", false);
  rt_col(t, "thread", "Thread", RV_INT);
  rt_col(t, "start_ns", "Start", RV_NS);
  rt_col(t, "end_ns", "End", RV_NS);
  rt_col(t, "duration_ns", "Duration", RV_NS);
  rt_col(t, "lost_records", "Records lost", RV_INT);
  rt_col(t, "name", "Name", RV_STR);
  uint64_t first = otr_first_time(s->a);
  for (uint32_t i = 0; i < n; i++) {
    rt_row(t);
    rt_int(t, v[i].loc);
    rt_ns(t, sm_ns(s, v[i].t0 - first));
    rt_ns(t, sm_ns(s, v[i].t1 - first));
    rt_ns(t, sm_ns(s, v[i].t1 - v[i].t0));
    if (v[i].stopped)
      rt_null_as(t, "none (recording stopped)");
    else if (v[i].records_known)
      rt_int(t, (int64_t)v[i].records);
    else
      rt_null_as(t, "unknown");
    rt_str(t, s->d->location_names[v[i].loc]);
  }
  uint64_t known;
  bool stops = false;
  for (uint32_t i = 0; i < n; i++)
    stops = stops || v[i].stopped;
  rt_note(t,
          "records of these threads are missing (MeasurementOnOff: dropped on a full disk, "
          "or recording switched off); times from the first event; the gaps are left out "
          "of every figure of this report%s%s",
          lost_records(v, n, &known) ? ""
                                     : "; records lost: unknown where the archive does not say "
                                       "(written by another tool or an older omptrace)",
          stops ? "; 'none (recording stopped)': no gap, the thread's records end there (the "
                  "program did not finish), and its time to the end of the run is left out "
                  "as the stopped time of the run overview"
                : "");
  free(v);
}

/* The program calls MPI: some region is of paradigm MPI. */
static bool calls_mpi(const sm *s) {
  for (uint32_t r = 0; r < s->d->n_regions; r++)
    if (s->d->regions[r].paradigm == OTF2_PARADIGM_MPI)
      return true;
  return false;
}

static void finish(sm *s) {
  sm_facts *f = &s->facts;
  sm_overview_totals(s, &f->threads, &f->wall_ns, &f->serial_ns);
  f->mpi_only_ns = sm_ns(s, otr_mpi_only_ticks(s->a));
  const otr_gap *g = otr_gaps(s->a, &f->gaps);
  /* Time in gaps is only that of the gaps counted as such (records
   * missing); a stopped thread's time to the run's end is reported apart,
   * and both are left out of the measured time (wall_ns). */
  f->lost_ns = sm_ns(s, otr_missing_ticks(s->a));
  f->stopped_ns = sm_ns(s, otr_stopped_ticks(s->a));
  /* A recovered run: threads whose records end at an "omptrace::stopped"
   * OFF (one per thread; a thread counts once). */
  uint64_t first = otr_first_time(s->a), at = UINT64_MAX;
  f->stopped = 0;
  f->stopped_gaps = 0;
  for (uint32_t i = 0; i < f->gaps; i++) {
    if (!g[i].stopped)
      continue;
    bool dup = false;
    for (uint32_t j = 0; j < i && !dup; j++)
      dup = g[j].stopped && g[j].loc == g[i].loc;
    f->stopped += !dup;
    f->stopped_gaps++;
    at = g[i].t0 < at ? g[i].t0 : at;
  }
  f->stopped_at_ns = f->stopped ? sm_ns(s, at > first ? at - first : 0) : 0;
  f->paused_gaps = 0;
  for (uint32_t i = 0; i < f->gaps; i++)
    f->paused_gaps += g[i].paused;
  f->paused_ns = sm_ns(s, otr_paused_ticks(s->a, &f->pauses));
}

static void report_run(sm *s, report *r) {
  uint32_t threads = s->facts.threads, ngaps = s->facts.gaps;
  uint64_t wall = s->facts.wall_ns, serial = s->facts.serial_ns, mpi = s->facts.mpi_only_ns;
  bool has_mpi = calls_mpi(s);
  rtable *t = rt_new(r, "overview", "run", "Run overview", true);
  rt_col(t, "program", "Program", RV_STR);
  rt_col(t, "threads", "Threads", RV_INT);
  if (s->d->n_devices)
    rt_col(t, "devices", "Offload devices", RV_INT);
  rt_col(t, "wall_ns", "Wall time", RV_NS);
  rt_col(t, "events", "Events", RV_INT);
  rt_col(t, "gaps", "Measurement gaps (records missing)", RV_INT);
  rt_col(t, "lost_records", "Records lost in gaps", RV_INT);
  rt_col(t, "lost_ns", "Time in gaps (left out)", RV_NS);
  rt_col(t, "stopped_threads", "Threads whose recording stopped early", RV_INT);
  rt_col(t, "stopped_ns", "Time after stopped threads' last records (left out)", RV_NS);
  rt_col(t, "pauses", "Paused intervals (omp_control_tool)", RV_INT);
  rt_col(t, "paused_ns", "Paused time (left out)", RV_NS);
  rt_col(t, "measured_ns", "Measured time (wall time minus gaps, stops and pauses)", RV_NS);
  rt_col(t, "serial_ns",
         has_mpi ? "Serial time (outside parallel regions and MPI calls)"
                 : "Serial time (outside parallel regions)",
         RV_NS);
  rt_col(t, "serial_share", "Serial share", RV_PCT);
  if (has_mpi) {
    rt_col(t, "mpi_ns", "MPI time (a thread in an MPI call, none in a parallel region)", RV_NS);
    rt_col(t, "mpi_share", "MPI share", RV_PCT);
  }
  rt_col(t, "parallel_ns", "Time in parallel regions", RV_NS);
  rt_row(t);
  rt_str(t, s->d->program);
  rt_int(t, threads);
  if (s->d->n_devices)
    rt_int(t, s->d->n_devices);
  rt_ns(t, sm_ns(s, otr_last_time(s->a) - otr_first_time(s->a)));
  rt_int(t, (int64_t)otr_events_read(s->a));
  rt_int(t, ngaps - s->facts.stopped_gaps - s->facts.paused_gaps);
  uint64_t known;
  if (lost_records(otr_gaps(s->a, &ngaps), ngaps, &known)) {
    rt_int(t, (int64_t)known);
  } else {
    char b[64];
    snprintf(b, sizeof b, known ? "unknown (at least %" PRIu64 ")" : "unknown", known);
    rt_null_as(t, b);
  }
  rt_ns(t, s->facts.lost_ns);
  rt_int(t, s->facts.stopped);
  rt_ns(t, s->facts.stopped_ns);
  rt_int(t, s->facts.pauses);
  rt_ns(t, s->facts.paused_ns);
  rt_ns(t, wall);
  rt_ns(t, serial);
  rt_pct(t, wall ? (double)serial / (double)wall : 0);
  if (has_mpi) {
    rt_ns(t, mpi);
    rt_pct(t, wall ? (double)mpi / (double)wall : 0);
  }
  rt_ns(t, wall > serial + mpi ? wall - serial - mpi : 0);
  if (s->facts.stopped) {
    char at[32], left[32];
    fmt_ns(at, sizeof at, (double)s->facts.stopped_at_ns);
    fmt_ns(left, sizeof left, (double)s->facts.stopped_ns);
    rt_note(t,
            "recording stopped early: the program did not finish and this archive was recovered "
            "from its record log (omptrace recover); the records of %u thread%s end early, the "
            "first at %s from the first event; the %s from a thread's last record to the end of "
            "the run is left out (no record is missing there, but what that thread did is not "
            "known); shares and every figure below are of the measured time",
            s->facts.stopped, s->facts.stopped == 1 ? "" : "s", at, left);
  } else if (ngaps > s->facts.stopped_gaps + s->facts.paused_gaps) {
    rt_note(t, "records are missing: shares and every figure below are of the measured time");
  } else if (s->facts.pauses) {
    rt_note(t, "recording was paused (omp_control_tool or OMPTRACE_START=paused): the paused "
               "time is no idle time; shares and every figure below are of the measured time");
  }
  gaps_report(s, r);
  sm_filtered_report(s, r);
  sm_throttled_report(s, r);
}

const sm_analysis sm_overview_analysis = {.finish = finish, .report = report_run};
