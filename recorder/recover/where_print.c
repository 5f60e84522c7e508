/* The "where" report (where.h): per location its last record's time, its
 * open constructs innermost first named by source line, the mutexes it
 * holds, and for a mutex it waits for, which location holds it; then every
 * cycle of such waits (a deadlock). */
#include "recover/where.h"

#include "core/clock.h"
#include "core/constructs.h"
#include "finalize/symbols.h"

#include <inttypes.h>
#include <omp-tools.h>
#include <string.h>

static double secs(const ot_where *w, uint64_t raw) {
  uint64_t a = ot_clock_to_ns(raw), b = ot_clock_to_ns(w->first_raw);
  return a > b ? (double)(a - b) * 1e-9 : 0.0;
}

/* The archive's region name of construct c at cp ("barrier @ file.c:12",
 * or "@ function+0x.." without line information): core/srcloc.c. */
static void region_name(char *buf, size_t n, enum ot_construct c, uint64_t cp) {
  ot_symbol s[8];
  int k = cp ? ot_symbols_lookup(cp - 1, s, 8) : 0;
  ot_srcloc_region_name(buf, n, ot_construct_name(c), cp, s, k);
}

/* The place alone, as the region name gives it ("file.c:12"), "?" for 0. */
static void place(uint64_t cp, char *buf, size_t n) {
  char name[512];
  ot_symbol s[8];
  int k = cp ? ot_symbols_lookup(cp - 1, s, 8) : 0;
  ot_srcloc_region_name(name, sizeof name, "", cp, s, k);
  snprintf(buf, n, "%s", strncmp(name, " @ ", 3) == 0 ? name + 3 : "?");
}

static const char *mutex_name(uint32_t k) {
  enum ot_construct c, wait, sblock;
  ot_mutex_constructs(k, &c, &wait, &sblock);
  return ot_construct_name(c);
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

static void print_wait(const ot_where *w, FILE *out, const where_frame *f, uint64_t cp) {
  char name[512];
  enum ot_construct c, wait, sblock;
  ot_mutex_constructs(f->a, &c, &wait, &sblock);
  region_name(name, sizeof name, c, cp);
  fprintf(out, "  waiting for lock 0x%" PRIx64 " (%s) since %.6f s", f->id, name, secs(w, f->raw));
  const where_held *h;
  int who = holder(w, f->id, &h);
  if (who < 0) {
    fprintf(out, ", held by no thread in the log\n");
    return;
  }
  char acq[512];
  place(h->cp ? h->cp : h->outer_cp, acq, sizeof acq);
  fprintf(out, ", held by thread %d (acquired @ %s at %.6f s)\n", who, acq, secs(w, h->raw));
}

/* Each frame named by the archive's region of its construct, at its code
 * pointer or, as finalize does for one outside the program (NULL, or
 * libomp's own address), the innermost enclosing construct's. */
static void print_frame(const ot_where *w, FILE *out, const where_loc *l, uint32_t k) {
  const where_frame *f = &l->stack[k];
  uint64_t cp = f->cp;
  for (uint32_t j = k; !ot_symbols_user_cp(cp) && j-- > 0;)
    if (l->stack[j].cp)
      cp = l->stack[j].cp;
  char name[512] = "";
  enum ot_construct c = OC_COUNT, wait = OC_COUNT;
  double t = secs(w, f->raw);
  switch (f->what) {
  case W_PARALLEL:
    region_name(name, sizeof name, OC_PARALLEL, cp);
    fprintf(out, "  %s (forked here at %.6f s)\n", name, t);
    break;
  case W_IMPLICIT:
    region_name(name, sizeof name, OC_PARALLEL, cp);
    fprintf(out, "  implicit task %u of %u in %s since %.6f s\n", f->a, f->b, name, t);
    break;
  case W_INITIAL:
    fprintf(out, "  initial task since %.6f s\n", t);
    break;
  case W_SYNC:
  case W_SYNC_WAIT:
    ot_sync_constructs(f->a, &c, &wait);
    region_name(name, sizeof name, f->what == W_SYNC ? c : wait, cp);
    fprintf(out, "  %s since %.6f s\n", name, t);
    break;
  case W_ACQUIRE:
    print_wait(w, out, f, cp);
    break;
  default:
    c = f->what == W_TASK     ? OC_TASK
        : f->what == W_WORK   ? ot_work_construct(f->a)
        : f->what == W_MASKED ? OC_MASKED
                              : OC_REDUCTION;
    region_name(name, sizeof name, c, cp);
    fprintf(out, "  %s since %.6f s\n", name, t);
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
    char at[512];
    place(l->held[k].cp ? l->held[k].cp : l->held[k].outer_cp, at, sizeof at);
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
