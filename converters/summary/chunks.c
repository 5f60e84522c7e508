/* Loop chunks (omptrace's "omp chunk(<kind>)" parameters, libomp 15 and
 * later): per loop and thread, how many chunks and iterations the thread
 * took, its time in the loop, how long its last chunk ran (from its
 * dispatch to the thread's leave of the loop) and how long after the
 * first thread of the same instance it finished: what an imbalanced
 * dynamic or guided loop is made of. Taskloop chunks go to the task region
 * that ran them (no loop times). An instance is the k-th entry of a loop
 * by each thread of one team, as in regions.c. */
#include "summary.h"

#include "idmap.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  uint64_t entries, chunks, iterations, incl, last, lag;
} cthr;

typedef struct inst {
  uint64_t team;
  uint32_t region, k;
  uint64_t *leave; /* per location, 0: not in it */
  struct inst *next;
} inst;

typedef struct {
  uint32_t region; /* the loop whose chunks are counted, OTR_NONE: none */
  uint64_t chunks, iterations, last_t;
  uint64_t team; /* of kcount */
  otr_idmap kcount;
} cloc;

#define IBUCKETS 4096

struct sm_chunks {
  cthr **rows; /* per key, per location; NULL: no chunks */
  cloc *loc;
  inst *hash[IBUCKETS];
  uint64_t total;
};

static void init(sm *s) {
  sm_chunks *c = otr_xcalloc(1, sizeof *c);
  c->rows = otr_xcalloc(s->nkeys + 1, sizeof *c->rows);
  c->loc = otr_xcalloc(s->d->n_locations, sizeof *c->loc);
  for (uint32_t l = 0; l < s->d->n_locations; l++)
    c->loc[l].region = OTR_NONE;
  s->chunks = c;
}

static cthr *row(sm *s, uint32_t key, uint32_t loc) {
  sm_chunks *c = s->chunks;
  if (key == OTR_NONE)
    return NULL;
  if (!c->rows[key])
    c->rows[key] = otr_xcalloc(s->d->n_locations, sizeof **c->rows);
  return &c->rows[key][loc];
}

static void chunk(sm *s, const otr_loc *l, uint64_t t, const otr_frame *top, const char *kind,
                  uint64_t first, uint64_t iterations) {
  (void)first;
  (void)kind;
  if (!top)
    return;
  sm_chunks *c = s->chunks;
  c->total++;
  cloc *x = &c->loc[l->index];
  if (top->cls == OTR_C_LOOP && x->region == top->region) { /* counted at the loop's leave */
    x->chunks++;
    x->iterations += iterations;
    x->last_t = t;
    return;
  }
  cthr *w = row(s, sm_key_of(s, top->region), l->index);
  if (w) {
    w->chunks++;
    w->iterations += iterations;
  }
}

/* A thread that enters a loop and takes no chunk counts too. */
static void enter(sm *s, const otr_loc *l, const otr_frame *f) {
  if (f->cls != OTR_C_LOOP)
    return;
  cloc *x = &s->chunks->loc[l->index];
  x->region = f->region;
  x->chunks = x->iterations = x->last_t = 0;
}

static inst *instance(sm *s, uint64_t team, uint32_t region, uint32_t k) {
  sm_chunks *c = s->chunks;
  uint32_t b = (uint32_t)((team * 0x9e3779b97f4a7c15ull + region * 31u + k) >> 52) % IBUCKETS;
  for (inst *i = c->hash[b]; i; i = i->next)
    if (i->team == team && i->region == region && i->k == k)
      return i;
  inst *i = otr_xcalloc(1, sizeof *i);
  i->team = team;
  i->region = region;
  i->k = k;
  i->leave = otr_xcalloc(s->d->n_locations, sizeof *i->leave);
  i->next = c->hash[b];
  c->hash[b] = i;
  return i;
}

static void leave(sm *s, const otr_loc *l, const otr_frame *f, const otr_frame *p, uint64_t t,
                  const double *md) {
  (void)p, (void)md;
  cloc *x = &s->chunks->loc[l->index];
  if (f->cls != OTR_C_LOOP || x->region != f->region)
    return;
  x->region = OTR_NONE;
  uint32_t key = sm_key_of(s, f->region);
  if (key == OTR_NONE)
    return;
  cthr *w = row(s, key, l->index);
  w->entries++;
  w->chunks += x->chunks;
  w->iterations += x->iterations;
  w->incl += t - f->enter;
  w->last += x->chunks ? t - x->last_t : 0;
  uint64_t team = f->team ? f->team->id : 0;
  if (team != x->team) {
    otr_idmap_free(&x->kcount);
    memset(&x->kcount, 0, sizeof x->kcount);
    x->team = team;
  }
  uint32_t k = otr_idmap_get(&x->kcount, f->region);
  k = k == OTR_NONE ? 0 : k;
  otr_idmap_put(&x->kcount, f->region, k + 1);
  instance(s, team, f->region, k)->leave[l->index] = t ? t : 1;
}

/* The loop whose threads finished furthest apart, for the findings. */
static void worst_loop(sm *s) {
  sm_chunks *c = s->chunks;
  sm_facts *f = &s->facts;
  for (uint32_t key = 0; key < s->nkeys; key++) {
    const cthr *w = c->rows[key];
    uint64_t lag = 0, any = 0;
    uint32_t lo = OTR_NONE, hi = OTR_NONE;
    for (uint32_t l = 0; w && l < s->d->n_locations; l++) {
      if (!w[l].entries)
        continue;
      lag = w[l].lag > lag ? w[l].lag : lag;
      any += w[l].chunks;
      if (lo == OTR_NONE || w[l].iterations < w[lo].iterations)
        lo = l;
      if (hi == OTR_NONE || w[l].iterations > w[hi].iterations)
        hi = l;
    }
    if (!any || lo == hi || sm_ns(s, lag) <= f->chunk_lag_ns)
      continue;
    f->chunk_label = sm_label(s, key);
    f->chunk_lag_ns = sm_ns(s, lag);
    f->chunk_thr[0] = lo, f->chunk_thr[1] = hi;
    f->chunk_chunks[0] = w[lo].chunks, f->chunk_chunks[1] = w[hi].chunks;
    f->chunk_iters[0] = w[lo].iterations, f->chunk_iters[1] = w[hi].iterations;
  }
}

static void finish(sm *s) {
  sm_chunks *c = s->chunks;
  for (uint32_t b = 0; b < IBUCKETS; b++)
    for (inst *i = c->hash[b]; i; i = i->next) {
      uint64_t first = UINT64_MAX;
      for (uint32_t l = 0; l < s->d->n_locations; l++)
        if (i->leave[l] && i->leave[l] < first)
          first = i->leave[l];
      cthr *w = c->rows[sm_key_of(s, i->region)];
      for (uint32_t l = 0; w && l < s->d->n_locations; l++)
        if (i->leave[l])
          w[l].lag += i->leave[l] - first;
    }
  worst_loop(s);
}

static void report_chunks(sm *s, report *r) {
  sm_chunks *c = s->chunks;
  if (!c->total && !s->d->no_chunks)
    return; /* chunks off, an older archive, or no loop took any */
  rtable *k = rt_new(r, "loops", "status", "Loop chunks", true);
  rt_col(k, "chunks", "Chunks recorded", RV_INT);
  rt_col(k, "runtime_gives_chunks", "Runtime gives chunks", RV_STR);
  rt_row(k);
  rt_int(k, (int64_t)c->total);
  rt_str(k, s->d->no_chunks ? "no" : "yes");
  rtable *t = rt_new(r, "loops", "chunks", "Loop chunks per thread", false);
  rt_col(t, "region", "Region", RV_STR);
  rt_col(t, "thread", "Thread", RV_INT);
  rt_col(t, "entries", "Entries", RV_INT);
  rt_col(t, "chunks", "Chunks", RV_INT);
  rt_col(t, "iterations", "Iterations", RV_INT);
  rt_col(t, "time_ns", "Time", RV_NS);
  rt_col(t, "last_chunk_ns", "Last chunk", RV_NS);
  rt_col(t, "finish_after_first_ns", "Finished after first", RV_NS);
  if (!c->total) {
    rt_note(k, "the runtime gave no chunks (libomp 14 has no ompt_callback_dispatch; "
               "libomp 15 and later give them)");
    return;
  }
  uint32_t shown = 0;
  for (uint32_t key = 0; key < s->nkeys; key++) {
    const cthr *w = c->rows[key];
    uint64_t any = 0;
    for (uint32_t l = 0; w && l < s->d->n_locations; l++)
      any += w[l].chunks;
    if (!any || !sm_match(s, sm_label(s, key))) /* a loop without chunks: none shown */
      continue;
    if (s->o.top && shown++ >= (uint32_t)s->o.top)
      continue;
    bool loop = s->keys[key].cls == OTR_C_LOOP;
    for (uint32_t l = 0; l < s->d->n_locations; l++) {
      if (!w[l].chunks && !w[l].entries)
        continue;
      rt_row(t);
      rt_str(t, sm_label(s, key));
      rt_int(t, l);
      if (loop)
        rt_int(t, (int64_t)w[l].entries);
      else
        rt_null(t);
      rt_int(t, (int64_t)w[l].chunks);
      rt_int(t, (int64_t)w[l].iterations);
      if (loop) {
        rt_ns(t, sm_ns(s, w[l].incl));
        rt_ns(t, sm_ns(s, w[l].last));
        rt_ns(t, sm_ns(s, w[l].lag));
      } else {
        rt_null(t), rt_null(t), rt_null(t);
      }
    }
  }
  rt_note(t, "last chunk: from the dispatch of a thread's last chunk to its leave of the loop; "
             "finished after first: after the first thread of the same instance left it; "
             "static schedules report one chunk per thread (its first)");
}

static void free_chunks(sm *s) {
  sm_chunks *c = s->chunks;
  if (!c)
    return;
  for (uint32_t k = 0; k <= s->nkeys; k++)
    free(c->rows[k]);
  free(c->rows);
  for (uint32_t l = 0; l < s->d->n_locations; l++)
    otr_idmap_free(&c->loc[l].kcount);
  free(c->loc);
  for (uint32_t b = 0; b < IBUCKETS; b++)
    for (inst *i = c->hash[b], *n; i; i = n) {
      n = i->next;
      free(i->leave);
      free(i);
    }
  free(c);
  s->chunks = NULL;
}

const sm_analysis sm_chunks_analysis = {
    .init = init,
    .hooks = {.enter = enter, .leave = leave, .chunk = chunk},
    .finish = finish,
    .report = report_chunks,
    .free = free_chunks,
};
