/* Rebuilding each location's state at its last record (where.h): one pass
 * over every thread log that keeps a stack of open constructs and the set
 * of held mutexes, then a pass that finds where the parallel regions and
 * tasks still open were created (their code pointers are recorded on the
 * thread that forked or created them). Reads the log through the run
 * (finalize/run.h): validated frames only, so a growing log is fine. */
#include "recover/where.h"

#include "buffer/record.h"
#include "finalize/run.h"
#include "finalize/scan.h"
#include "finalize/symbols.h"

#include <omp-tools.h>
#include <stdlib.h>
#include <string.h>

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t size) {
  if (need <= *cap)
    return p;
  uint32_t c = *cap ? *cap : 8;
  while (c < need)
    c *= 2;
  void *q = realloc(p, (size_t)c * size);
  if (!q) {
    perror("omptrace-recover");
    exit(1);
  }
  memset((char *)q + (size_t)*cap * size, 0, (size_t)(c - *cap) * size);
  *cap = c;
  return q;
}

static void push(where_loc *l, uint8_t what, const ot_rec *r, uint32_t a, uint64_t id,
                 uint64_t cp) {
  l->stack = grow(l->stack, &l->cap, l->depth + 1, sizeof *l->stack);
  l->stack[l->depth++] = (where_frame){what, a, 0, id, cp, r->ts};
}

/* Closes the innermost open frame of kind `what` (and anything left open
 * above it: an end the runtime never reported). No match: ignored. */
static void pop(where_loc *l, uint8_t what) {
  for (uint32_t i = l->depth; i-- > 0;)
    if (l->stack[i].what == what) {
      l->depth = i;
      return;
    }
}

static int find_task(const where_loc *l, uint64_t id) {
  for (uint32_t i = l->depth; i-- > 0;)
    if (l->stack[i].what == W_TASK && l->stack[i].id == id)
      return (int)i;
  return -1;
}

/* A task switch: a finished prior task leaves the stack; switching back to
 * a suspended task closes what ran above it; a new explicit task opens. */
static void schedule(where_loc *l, const ot_rec *r) {
  int done = r->kind == ompt_task_complete || r->kind == ompt_task_cancel ||
             r->kind == ompt_task_detach || r->kind == ompt_task_late_fulfill;
  int at = find_task(l, r->b);
  if (done && at >= 0)
    l->depth = (uint32_t)at;
  at = find_task(l, r->c);
  if (at >= 0)
    l->depth = (uint32_t)at + 1;
  else if (OT_TASK_GEN(r->c) != 0)
    push(l, W_TASK, r, 0, r->c, 0);
}

static where_held *held_of(where_loc *l, uint64_t wait_id) {
  for (uint32_t i = 0; i < l->nheld; i++)
    if (l->held[i].wait_id == wait_id)
      return &l->held[i];
  return NULL;
}

static uint64_t outer_cp(const where_loc *l) {
  for (uint32_t i = l->depth; i-- > 0;)
    if (l->stack[i].cp)
      return l->stack[i].cp;
  return 0;
}

static void acquired(where_loc *l, const ot_rec *r) {
  pop(l, W_ACQUIRE);
  where_held *h = held_of(l, r->b);
  if (h) { /* acquired again without a release we saw */
    h->depth++;
    return;
  }
  l->held = grow(l->held, &l->capheld, l->nheld + 1, sizeof *l->held);
  l->held[l->nheld++] = (where_held){r->b, r->c, r->ts, outer_cp(l), r->kind, 1};
}

static void released(where_loc *l, const ot_rec *r, int all) {
  where_held *h = held_of(l, r->b);
  if (!h)
    return;
  if (!all && h->depth > 1) {
    h->depth--;
    return;
  }
  *h = l->held[--l->nheld];
}

static void apply_sync(where_loc *l, const ot_rec *r) {
  switch (r->type) {
  case OT_SYNC_BEGIN:
    push(l, W_SYNC, r, r->kind, r->c, r->b);
    break;
  case OT_SYNC_END:
    pop(l, W_SYNC);
    break;
  case OT_SYNC_WAIT_BEGIN:
    push(l, W_SYNC_WAIT, r, r->kind, r->c, r->b);
    break;
  case OT_SYNC_WAIT_END:
    pop(l, W_SYNC_WAIT);
    break;
  case OT_REDUCTION_BEGIN:
    push(l, W_REDUCTION, r, r->kind, r->c, r->b);
    break;
  case OT_REDUCTION_END:
    pop(l, W_REDUCTION);
    break;
  default:
    break;
  }
}

static void apply_mutex(where_loc *l, const ot_rec *r) {
  switch (r->type) {
  case OT_MUTEX_ACQUIRE:
    push(l, W_ACQUIRE, r, r->kind, r->b, r->c);
    break;
  case OT_MUTEX_ACQUIRED:
    acquired(l, r);
    break;
  case OT_MUTEX_RELEASED:
    released(l, r, 1);
    break;
  case OT_NEST_LOCK:
    if (r->kind == ompt_scope_begin)
      acquired(l, r);
    else
      released(l, r, 0);
    break;
  default:
    break;
  }
}

static void apply(where_loc *l, const ot_rec *r) {
  switch (r->type) {
  case OT_PARALLEL_BEGIN:
    push(l, W_PARALLEL, r, r->a, r->c, r->b);
    break;
  case OT_PARALLEL_END:
    pop(l, W_PARALLEL);
    break;
  case OT_IMPLICIT_BEGIN:
    push(l, r->kind & ompt_task_initial ? W_INITIAL : W_IMPLICIT, r, (uint32_t)r->c, r->b, 0);
    l->stack[l->depth - 1].b = r->a;
    break;
  case OT_IMPLICIT_END:
    pop(l, r->kind & ompt_task_initial ? W_INITIAL : W_IMPLICIT);
    break;
  case OT_TASK_SCHEDULE:
    schedule(l, r);
    break;
  case OT_WORK_BEGIN:
    push(l, W_WORK, r, r->kind, r->c, r->b);
    break;
  case OT_WORK_END:
    pop(l, W_WORK);
    break;
  case OT_MASKED_BEGIN:
    push(l, W_MASKED, r, 0, r->c, r->b);
    break;
  case OT_MASKED_END:
    pop(l, W_MASKED);
    break;
  default:
    apply_sync(l, r);
    apply_mutex(l, r);
    break;
  }
}

/* What a pass does with one record of location l. */
typedef void (*rec_fn)(ot_where *w, where_loc *l, const ot_rec *r);

static void each_record(ot_where *w, const ot_run *run, rec_fn fn) {
  for (uint32_t i = 0; i < w->nlocs; i++) {
    if (!w->present[i])
      continue;
    ot_reader *rd = ot_run_records(run, i);
    for (const ot_rec *r; (r = ot_run_next(rd)) != NULL;)
      fn(w, &w->locs[i], r);
    ot_run_records_close(rd);
  }
}

static void state_pass(ot_where *w, where_loc *l, const ot_rec *r) {
  if (!l->records++)
    l->first_raw = r->ts;
  if (r->ts < w->first_raw)
    w->first_raw = r->ts;
  l->last_raw = r->ts;
  l->last_type = r->type;
  l->ended = r->type == OT_THREAD_END;
  if (w->stacks)
    apply(l, r);
}

/* Second pass: the code pointers of still-open implicit tasks (from their
 * parallel begin) and explicit tasks (from their creation). */
static void origin_pass(ot_where *w, where_loc *l, const ot_rec *r) {
  (void)l;
  int par = r->type == OT_PARALLEL_BEGIN, task = r->type == OT_TASK_CREATE;
  if (!par && !task)
    return;
  for (uint32_t i = 0; i < w->nlocs; i++)
    for (uint32_t k = 0; k < w->locs[i].depth; k++) {
      where_frame *f = &w->locs[i].stack[k];
      if (f->cp == 0 && f->id == r->c &&
          (par ? f->what == W_IMPLICIT || f->what == W_PARALLEL : f->what == W_TASK))
        f->cp = r->b;
    }
}

/* Third pass, as finalize names a mutex (finalize/replay.c, mutex_acquire):
 * a wait or hold whose code pointer is no place in the program (libomp's
 * own address, or the return of a call it tail-calls, at -O2) takes the
 * first code pointer in the program of any acquisition of the same mutex
 * (locations in order, as finalize's scan); where_print.c falls back on
 * the enclosing construct's. */
static void lock_site_pass(ot_where *w, where_loc *l, const ot_rec *r) {
  (void)l;
  if (r->type != OT_MUTEX_ACQUIRE || !ot_symbols_user_cp(r->c))
    return;
  for (uint32_t i = 0; i < w->nlocs; i++) {
    where_loc *o = &w->locs[i];
    for (uint32_t k = 0; k < o->depth; k++)
      if (o->stack[k].what == W_ACQUIRE && o->stack[k].id == r->b && !o->stack[k].cp)
        o->stack[k].cp = r->c;
    for (uint32_t k = 0; k < o->nheld; k++)
      if (o->held[k].wait_id == r->b && !o->held[k].cp)
        o->held[k].cp = r->c;
  }
}

/* Clears the mutex code pointers outside the program; 1 when there were. */
static int clear_runtime_lock_cps(ot_where *w) {
  int any = 0;
  for (uint32_t i = 0; i < w->nlocs; i++) {
    where_loc *l = &w->locs[i];
    for (uint32_t k = 0; k < l->depth; k++)
      if (l->stack[k].what == W_ACQUIRE && !ot_symbols_user_cp(l->stack[k].cp)) {
        l->stack[k].cp = 0;
        any = 1;
      }
    for (uint32_t k = 0; k < l->nheld; k++)
      if (!ot_symbols_user_cp(l->held[k].cp)) {
        l->held[k].cp = 0;
        any = 1;
      }
  }
  return any;
}

static int needs_origin(const ot_where *w) {
  for (uint32_t i = 0; i < w->nlocs; i++)
    for (uint32_t k = 0; k < w->locs[i].depth; k++)
      if (w->locs[i].stack[k].cp == 0 && w->locs[i].stack[k].what != W_INITIAL)
        return 1;
  return 0;
}

/* ot_scan_observer: the state pass on the scan's records. */
static void follow(void *ctx, uint32_t loc, const ot_rec *r) {
  ot_where *w = ctx;
  if (loc < w->nlocs && w->present[loc])
    state_pass(w, &w->locs[loc], r);
}

static int setup(ot_where *w, const ot_run *run, int stacks) {
  memset(w, 0, sizeof *w);
  w->first_raw = UINT64_MAX;
  w->stacks = stacks;
  w->nlocs = run->nthreads;
  w->locs = calloc(w->nlocs ? w->nlocs : 1, sizeof *w->locs);
  w->present = calloc(w->nlocs ? w->nlocs : 1, 1);
  if (!w->locs || !w->present)
    return -1;
  for (uint32_t i = 0; i < w->nlocs; i++) {
    const ot_run_thread *t = &run->threads[i];
    w->present[i] = (uint8_t)(t->present != 0);
    w->locs[i] = (where_loc){.loc = i, .type = t->type, .tid = t->tid, .damaged = t->damaged};
  }
  return 0;
}

int ot_where_follow(ot_where *w, const ot_run *run) {
  if (setup(w, run, 0) != 0)
    return -1;
  ot_scan_observe(follow, w);
  return 0;
}

int ot_where_scan(ot_where *w, const ot_run *run, int stacks) {
  if (setup(w, run, stacks) != 0)
    return -1;
  each_record(w, run, state_pass);
  if (needs_origin(w))
    each_record(w, run, origin_pass);
  if (stacks) {
    ot_symbols_open(run); /* names addresses only when the modules are gone */
    if (clear_runtime_lock_cps(w))
      each_record(w, run, lock_site_pass);
  }
  if (w->first_raw == UINT64_MAX)
    w->first_raw = 0;
  return 0;
}

uint32_t ot_where_ended_early(const ot_where *w, uint32_t *n) {
  uint32_t early = 0;
  *n = 0;
  for (uint32_t i = 0; i < w->nlocs; i++)
    if (w->present[i]) {
      ++*n;
      early += !w->locs[i].ended;
    }
  return early;
}

void ot_where_free(ot_where *w) {
  ot_scan_observe(NULL, NULL);
  for (uint32_t i = 0; i < w->nlocs; i++) {
    free(w->locs[i].stack);
    free(w->locs[i].held);
  }
  free(w->locs);
  free(w->present);
  memset(w, 0, sizeof *w);
}
