/* Run overview: program, threads, wall time, events, serial time (no thread
 * inside a parallel region or a fork) and its share of the run. */
#include "summary.h"

void overview_totals(const sm *s, uint32_t *threads, uint64_t *wall_ns, uint64_t *serial_ns) {
  *threads = 0;
  for (uint32_t i = 0; i < s->d->n_locations; i++)
    if (otr_location(s->a, i)->events)
      (*threads)++;
  *wall_ns = sm_ns(s, otr_last_time(s->a) - otr_first_time(s->a));
  *serial_ns = sm_ns(s, otr_serial_ticks(s->a));
}

void overview_report(sm *s, report *r) {
  uint32_t threads;
  uint64_t wall, serial;
  overview_totals(s, &threads, &wall, &serial);
  s->facts.wall_ns = wall;
  s->facts.serial_ns = serial;
  s->facts.threads = threads;
  rtable *t = rt_new(r, "overview", "run", "Run overview", true);
  rt_col(t, "program", "Program", RV_STR);
  rt_col(t, "threads", "Threads", RV_INT);
  rt_col(t, "wall_ns", "Wall time", RV_NS);
  rt_col(t, "events", "Events", RV_INT);
  rt_col(t, "serial_ns", "Serial time (outside parallel regions)", RV_NS);
  rt_col(t, "serial_share", "Serial share", RV_PCT);
  rt_col(t, "parallel_ns", "Time in parallel regions", RV_NS);
  rt_row(t);
  rt_str(t, s->d->program);
  rt_int(t, threads);
  rt_ns(t, wall);
  rt_int(t, (int64_t)otr_events_read(s->a));
  rt_ns(t, serial);
  rt_pct(t, wall ? (double)serial / (double)wall : 0);
  rt_ns(t, wall - serial);
}
