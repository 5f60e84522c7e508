/* The driver: the reader's event stream, cut to the kept threads, the time
 * window and the event budget, as balanced open/close calls and flow arrows
 * on a format writer. Each kept location has its own stack of open regions
 * so regions crossing a cut edge are opened or closed at the edge. Memory
 * grows with locations, nesting depth, tasks created and not yet started
 * and locks in use; not with events. */
#include "convert.h"
#include "keymap.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  uint32_t region;
  uint64_t enter;
} frame;

typedef struct {
  frame *stack;
  uint32_t depth, cap, shown; /* frames [0, shown) are open in the output */
  bool off, paused;
  uint64_t off_t;
} lstate;

enum { RUNNING, STOP_END, STOP_MAX };

typedef struct {
  otr_archive *a;
  const otr_defs *d;
  const cv_cut *cut;
  cv_sink *s;
  cv_out *o;
  bool *keep;
  lstate *ls;
  int stop;
  uint64_t stop_t, stop_closed, next_flow;
  cv_keymap tasks, locks;
} drv;

static uint64_t ns(const drv *v, uint64_t ticks) {
  return ticks > v->d->offset ? otr_ns(v->a, ticks - v->d->offset) : 0;
}

/* Closes everything shown on every location at t; no output after. */
static void stop(drv *v, uint64_t t, int why) {
  v->stop = why;
  v->stop_t = t;
  for (uint32_t i = 0; i < v->d->n_locations; i++) {
    lstate *l = &v->ls[i];
    for (; l->shown; l->shown--, v->stop_closed++)
      v->s->close(v->s->w, i, l->stack[l->shown - 1].region, t, NULL);
    if (l->off && v->keep[i] && t > l->off_t)
      v->s->off(v->s->w, i, l->off_t > v->cut->begin ? l->off_t : v->cut->begin, t, l->paused);
    l->off = false;
  }
}

static void tick(drv *v, uint64_t t) {
  if (v->stop == RUNNING && t >= v->cut->end)
    stop(v, v->cut->end, STOP_END);
}

static bool visible(const drv *v, uint32_t loc, uint64_t t) {
  return v->keep[loc] && v->stop == RUNNING && t >= v->cut->begin && t < v->cut->end;
}

/* May an event start at t on loc? Opens the regions entered before the
 * window began; stops at the event budget. */
static bool admit(drv *v, uint32_t loc, uint64_t t) {
  if (!visible(v, loc, t))
    return false;
  if (v->cut->max_events && v->o->events >= v->cut->max_events) {
    stop(v, t, STOP_MAX);
    return false;
  }
  lstate *l = &v->ls[loc];
  for (; l->shown < l->depth; l->shown++) {
    const frame *f = &l->stack[l->shown];
    v->s->open(v->s->w, loc, f->region, f->enter > v->cut->begin ? f->enter : v->cut->begin);
  }
  return true;
}

static void flow(drv *v, const char *kind, const cv_pending *from, uint32_t loc, uint64_t t) {
  if (admit(v, loc, t))
    v->s->flow(v->s->w, kind, v->next_flow++, from->loc, from->t, loc, t);
}

static void on_enter(void *u, const otr_loc *ol, const otr_frame *f) {
  drv *v = u;
  uint64_t t = ns(v, f->enter);
  tick(v, t);
  lstate *l = &v->ls[ol->index];
  if (l->depth == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->stack = otr_xrealloc(l->stack, l->cap * sizeof *l->stack);
  }
  l->stack[l->depth++] = (frame){f->region, t};
  if (!admit(v, ol->index, t))
    return;
  cv_pending c;
  if (f->cls == OTR_C_TASK && cv_keymap_take(&v->tasks, f->task, &c))
    flow(v, "task", &c, ol->index, t);
}

static void on_leave(void *u, const otr_loc *ol, const otr_frame *f, const otr_frame *parent,
                     uint64_t tt, const double *mdelta) {
  (void)parent, (void)f;
  drv *v = u;
  uint64_t t = ns(v, tt);
  tick(v, t);
  lstate *l = &v->ls[ol->index];
  if (!l->depth)
    return;
  if (l->shown < l->depth) /* entered before the window began */
    admit(v, ol->index, t);
  l->depth--;
  if (l->shown > l->depth) {
    l->shown = l->depth;
    v->s->close(v->s->w, ol->index, l->stack[l->depth].region, t, mdelta);
  }
}

static void on_sample(void *u, const otr_loc *ol, uint64_t tt, uint32_t ctx, uint32_t gen) {
  drv *v = u;
  uint64_t t = ns(v, tt);
  tick(v, t);
  if (admit(v, ol->index, t))
    v->s->sample(v->s->w, ol->index, t, ctx, gen);
}

static void on_task_create(void *u, const otr_loc *ol, uint64_t tt, uint64_t task) {
  drv *v = u;
  uint64_t t = ns(v, tt);
  tick(v, t);
  if (visible(v, ol->index, t))
    cv_keymap_put(&v->tasks, task, ol->index, t);
}

static void on_release(void *u, const otr_loc *ol, uint32_t lock, uint32_t order, uint64_t tt) {
  (void)order;
  drv *v = u;
  uint64_t t = ns(v, tt);
  tick(v, t);
  if (visible(v, ol->index, t))
    cv_keymap_put(&v->locks, lock, ol->index, t);
}

static void on_acquire(void *u, const otr_loc *ol, uint32_t lock, uint32_t order, uint64_t wait0,
                       uint64_t tt, uint32_t site) {
  (void)order, (void)wait0, (void)site;
  drv *v = u;
  uint64_t t = ns(v, tt);
  tick(v, t);
  cv_pending r;
  if (!visible(v, ol->index, t) || !cv_keymap_take(&v->locks, lock, &r))
    return;
  if (r.loc != ol->index) /* who made this thread wait */
    flow(v, "lock", &r, ol->index, t);
}

static void on_metric(void *u, const otr_loc *ol, uint64_t tt, const double *values) {
  drv *v = u;
  uint64_t t = ns(v, tt);
  tick(v, t);
  if (admit(v, ol->index, t))
    v->s->counter(v->s->w, ol->index, t, values);
}

static void on_onoff(void *u, const otr_loc *ol, uint64_t tt, bool on, bool paused) {
  drv *v = u;
  uint64_t t = ns(v, tt);
  tick(v, t);
  lstate *l = &v->ls[ol->index];
  if (!on) {
    if (!l->off) /* a second OFF extends the gap */
      l->off_t = t;
    l->off = true;
    l->paused = paused;
    return;
  }
  bool was = l->off;
  l->off = false;
  if (was && t > v->cut->begin && admit(v, ol->index, t))
    v->s->off(v->s->w, ol->index, l->off_t > v->cut->begin ? l->off_t : v->cut->begin, t,
              l->paused);
}

static void on_chunk(void *u, const otr_loc *ol, uint64_t tt, const otr_frame *top,
                     const char *kind, uint64_t first, uint64_t iterations) {
  (void)top;
  drv *v = u;
  uint64_t t = ns(v, tt);
  tick(v, t);
  if (v->s->chunk && admit(v, ol->index, t))
    v->s->chunk(v->s->w, ol->index, t, kind, first, iterations);
}

/* MPI: an arrow from the send record to its receive's record, when both
 * ends are kept (the receive's MPI call is still open: the reader delivers
 * a message before the Leave that completes it). */
static void on_message(void *u, const otr_msg *m) {
  drv *v = u;
  uint64_t t0 = ns(v, m->send_t), t1 = ns(v, m->recv_t);
  if (visible(v, m->send_loc, t0) && admit(v, m->recv_loc, t1))
    v->s->flow(v->s->w, "message", v->next_flow++, m->send_loc, t0, m->recv_loc, t1);
}

static void report_cut(const drv *v, uint64_t last) {
  const cv_cut *c = v->cut;
  if (c->threads) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < v->d->n_locations; i++)
      kept += v->keep[i];
    fprintf(stderr, "omptrace-convert: --threads %s: kept %u of %u threads\n", c->threads, kept,
            v->d->n_locations);
  }
  if (c->begin_arg || c->end_arg)
    fprintf(stderr,
            "omptrace-convert: --begin/--end: kept %.6f s to %.6f s of a %.6f s trace; regions "
            "crossing the edges are cut there\n",
            (double)c->begin / 1e9, (double)(c->end < last ? c->end : last) / 1e9,
            (double)last / 1e9);
  if (c->max_events && v->stop == STOP_MAX)
    fprintf(stderr,
            "omptrace-convert: --max-events %llu: stopped at %.6f s; %llu open regions closed "
            "there\n",
            (unsigned long long)c->max_events, (double)v->stop_t / 1e9,
            (unsigned long long)v->stop_closed);
  else if (c->max_events)
    fprintf(stderr, "omptrace-convert: --max-events %llu: not reached, nothing cut\n",
            (unsigned long long)c->max_events);
}

static bool run(drv *v, char *err, size_t errlen) {
  const cv_cut *cut = v->cut;
  const otr_defs *d = v->d;
  if (cut->threads) {
    if (!cv_parse_threads(cut->threads, d->n_locations, v->keep, err, errlen))
      return false;
  } else {
    memset(v->keep, 1, d->n_locations * sizeof *v->keep);
  }
  v->s->begin(v->s->w, d, v->keep);
  otr_visitor vis = {.user = v,
                     .enter = on_enter,
                     .leave = on_leave,
                     .sample = on_sample,
                     .task_create = on_task_create,
                     .lock_release = on_release,
                     .lock_acquire = on_acquire,
                     .metric = on_metric,
                     .onoff = on_onoff,
                     .chunk = on_chunk,
                     .mpi_message = on_message};
  if (!otr_read(v->a, &vis, err, errlen))
    return false;
  uint64_t last = ns(v, otr_last_time(v->a));
  if (v->stop == RUNNING)
    stop(v, last < cut->end ? last : cut->end, STOP_END);
  report_cut(v, last);
  if (!v->s->end(v->s->w, v->stop_t)) {
    snprintf(err, errlen, "cannot read back the temporary file");
    return false;
  }
  return true;
}

bool cv_drive(otr_archive *a, const cv_cut *cut, cv_sink *s, cv_out *o, char *err, size_t errlen) {
  const otr_defs *d = otr_defs_of(a);
  drv v = {.a = a, .d = d, .cut = cut, .s = s, .o = o};
  v.keep = otr_xcalloc(d->n_locations + 1, sizeof *v.keep);
  v.ls = otr_xcalloc(d->n_locations + 1, sizeof *v.ls);
  bool ok = run(&v, err, errlen);
  for (uint32_t i = 0; i < d->n_locations; i++)
    free(v.ls[i].stack);
  free(v.ls);
  free(v.keep);
  cv_keymap_free(&v.tasks);
  cv_keymap_free(&v.locks);
  return ok;
}
