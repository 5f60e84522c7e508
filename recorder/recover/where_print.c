/* The "where" report (where.h): per location its last record's time, its
 * open constructs innermost first named by source line, the mutexes it
 * holds, and for a mutex it waits for, which location holds it; then every
 * cycle of such waits (a deadlock). */
#include "recover/where.h"

#include "core/clock.h"
#include "finalize/symbols.h"

#include <inttypes.h>
#include <omp-tools.h>
#include <string.h>

static double secs(const ot_where *w, uint64_t raw) {
  uint64_t a = ot_clock_to_ns(raw), b = ot_clock_to_ns(w->first_raw);
  return a > b ? (double)(a - b) * 1e-9 : 0.0;
}

/* "file:line" of a code pointer (a return address: the call is at cp-1). */
static void place(uint64_t cp, char *buf, size_t n) {
  ot_symbol s[8];
  if (!cp) {
    snprintf(buf, n, "?");
    return;
  }
  int k = ot_symbols_lookup(cp - 1, s, 8);
  const ot_symbol *f = &s[0];
  const char *file = f->file ? strrchr(f->file, '/') : NULL;
  if (k >= 1 && f->file && f->line)
    snprintf(buf, n, "%s:%u", file ? file + 1 : f->file, f->line);
  else if (k >= 1 && f->function && strcmp(f->function, "??") != 0)
    snprintf(buf, n, "%s+0x%" PRIx64, f->function, f->offset);
  else
    snprintf(buf, n, "0x%" PRIx64, cp);
}

static const char *sync_name(uint32_t k) {
  switch (k) {
  case ompt_sync_region_barrier_implicit:
  case ompt_sync_region_barrier_implicit_workshare:
  case ompt_sync_region_barrier_implicit_parallel:
    return "implicit barrier";
  case ompt_sync_region_barrier_implementation:
    return "barrier (runtime)";
  case ompt_sync_region_taskwait:
    return "taskwait";
  case ompt_sync_region_taskgroup:
    return "taskgroup";
  case ompt_sync_region_reduction:
    return "reduction";
  case ompt_sync_region_barrier_teams:
    return "teams barrier";
  default:
    return "barrier";
  }
}

static const char *work_name(uint32_t k) {
  static const char *const n[] = {"worksharing", "loop",       "sections", "single", "single",
                                  "workshare",   "distribute", "taskloop", "scope"};
  return k < sizeof n / sizeof *n ? n[k] : n[0];
}

static const char *mutex_name(uint32_t k) {
  switch (k) {
  case ompt_mutex_nest_lock:
  case ompt_mutex_test_nest_lock:
    return "nest lock";
  case ompt_mutex_critical:
    return "critical";
  case ompt_mutex_atomic:
    return "atomic";
  case ompt_mutex_ordered:
    return "ordered";
  default:
    return "lock";
  }
}

static const char *thread_type(int32_t t) {
  return t == ompt_thread_initial  ? "initial thread"
         : t == ompt_thread_worker ? "worker"
         : t == ompt_thread_other  ? "other thread"
                                   : "thread";
}

/* The location holding wait_id, or -1. */
static int holder(const ot_where *w, uint64_t wait_id, const where_held **h) {
  for (uint32_t i = 0; i < w->nlocs; i++)
    for (uint32_t k = 0; w->present[i] && k < w->locs[i].nheld; k++)
      if (w->locs[i].held[k].wait_id == wait_id) {
        *h = &w->locs[i].held[k];
        return (int)i;
      }
  return -1;
}

/* The mutex l waits for (its innermost frame is an acquire), or NULL. */
static const where_frame *waiting(const where_loc *l) {
  if (!l->depth || l->ended)
    return NULL;
  const where_frame *f = &l->stack[l->depth - 1];
  return f->what == W_ACQUIRE ? f : NULL;
}

static void print_wait(const ot_where *w, FILE *out, const where_frame *f, const char *at) {
  fprintf(out, "  waiting for lock 0x%" PRIx64 " (%s @ %s) since %.6f s", f->id, mutex_name(f->a),
          at, secs(w, f->raw));
  const where_held *h;
  int who = holder(w, f->id, &h);
  if (who < 0) {
    fprintf(out, ", held by no thread in the log\n");
    return;
  }
  char acq[256];
  place(h->cp, acq, sizeof acq);
  fprintf(out, ", held by thread %d (acquired @ %s at %.6f s)\n", who, acq, secs(w, h->raw));
}

static void print_frame(const ot_where *w, FILE *out, const where_loc *l, uint32_t k) {
  const where_frame *f = &l->stack[k];
  uint64_t cp = f->cp;
  for (uint32_t j = k; !cp && j-- > 0;) /* e.g. a worker's end barrier: no code pointer */
    cp = l->stack[j].cp;
  char at[256] = "";
  if (f->what != W_INITIAL)
    place(cp, at, sizeof at);
  double t = secs(w, f->raw);
  switch (f->what) {
  case W_PARALLEL:
    fprintf(out, "  parallel @ %s (forked here at %.6f s)\n", at, t);
    break;
  case W_IMPLICIT:
    fprintf(out, "  implicit task %u of %u in parallel @ %s since %.6f s\n", f->a, f->b, at, t);
    break;
  case W_INITIAL:
    fprintf(out, "  initial task since %.6f s\n", t);
    break;
  case W_TASK:
    fprintf(out, "  task @ %s since %.6f s\n", at, t);
    break;
  case W_SYNC:
    fprintf(out, "  %s @ %s since %.6f s\n", sync_name(f->a), at, t);
    break;
  case W_SYNC_WAIT:
    fprintf(out, "  waiting in %s @ %s since %.6f s\n", sync_name(f->a), at, t);
    break;
  case W_WORK:
    fprintf(out, "  %s @ %s since %.6f s\n", work_name(f->a), at, t);
    break;
  case W_MASKED:
    fprintf(out, "  masked @ %s since %.6f s\n", at, t);
    break;
  case W_REDUCTION:
    fprintf(out, "  reduction @ %s since %.6f s\n", at, t);
    break;
  default:
    print_wait(w, out, f, at);
    break;
  }
}

static void print_loc(const ot_where *w, FILE *out, const where_loc *l) {
  fprintf(out, "thread %u (%s, tid %d): ", l->loc, thread_type(l->type), (int)l->tid);
  if (!l->records) {
    fprintf(out, "no records%s\n", l->damaged ? " (its log ends in a damaged frame)" : "");
    return;
  }
  fprintf(out, "last record at %.6f s, %s%s\n", secs(w, l->last_raw),
          l->ended ? "thread ended" : "still running",
          l->damaged ? " (its log ends in a damaged frame)" : "");
  if (l->ended)
    return;
  for (uint32_t k = l->depth; k-- > 0;)
    print_frame(w, out, l, k);
  for (uint32_t k = 0; k < l->nheld; k++) {
    char at[256];
    place(l->held[k].cp, at, sizeof at);
    fprintf(out, "  holds %s 0x%" PRIx64 " (acquired @ %s at %.6f s)\n",
            mutex_name(l->held[k].kind), l->held[k].wait_id, at, secs(w, l->held[k].raw));
  }
}

/* Follows "waits for a mutex held by" from start; prints the cycle once
 * (from its lowest location) when it comes back to start. */
static int print_cycle(const ot_where *w, FILE *out, uint32_t start) {
  uint32_t cur = start;
  for (uint32_t steps = 0; steps < w->nlocs; steps++) {
    const where_frame *f = waiting(&w->locs[cur]);
    const where_held *h;
    int next = f ? holder(w, f->id, &h) : -1;
    if (next < 0 || (uint32_t)next < start)
      return 0;
    cur = (uint32_t)next;
    if (cur == start)
      break;
  }
  if (cur != start)
    return 0;
  fprintf(out, "deadlock:");
  do {
    const where_frame *f = waiting(&w->locs[cur]);
    const where_held *h;
    int next = holder(w, f->id, &h);
    fprintf(out, " thread %u waits for lock 0x%" PRIx64 " held by thread %d;", cur, f->id, next);
    cur = (uint32_t)next;
  } while (cur != start);
  fprintf(out, " none of them can go on\n");
  return 1;
}

void ot_where_print(const ot_where *w, FILE *out, const char *title) {
  uint32_t n, early = ot_where_ended_early(w, &n);
  fprintf(out, "where: %s: %u thread%s, %u still running at their last record\n", title, n,
          n == 1 ? "" : "s", early);
  for (uint32_t i = 0; i < w->nlocs; i++)
    if (w->present[i])
      print_loc(w, out, &w->locs[i]);
  int cycles = 0;
  for (uint32_t i = 0; i < w->nlocs; i++)
    if (w->present[i] && waiting(&w->locs[i]))
      cycles += print_cycle(w, out, i);
  if (!cycles)
    fprintf(out, "no deadlock among mutex waits\n");
}
