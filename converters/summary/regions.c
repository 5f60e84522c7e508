/* Parallel regions and work-sharing constructs, one row per source location.
 *
 * Busy time of a thread in one instance = its time in the construct minus
 * the waits and the MPI calls inside it. Per instance, perfect balance would save
 * max(busy) - mean(busy) over the threads that entered it; a row's gain is
 * that sum over its instances and its imbalance is gain / sum of max(busy). A parallel row includes
 * the constructs inside it.
 *
 * Instances: a parallel instance is the reader's team; the k-th entry of a
 * work-sharing construct by each thread of one team is one instance. A
 * barrier is charged to the work-sharing construct that encloses it or that
 * it directly follows at the same source line (any one, when lines are
 * unknown), else to the enclosing parallel region. Its wait is the time the
 * thread spent in barrier categories meanwhile: a task run inside the barrier
 * is work, and a taskwait or lock wait inside that task is the task's. */
#include "summary.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  uint64_t incl, busy, bwait;
} rthr;

typedef struct {
  uint64_t instances, total, min, max, gain, sum_max;
  rthr *thr;
} rrow;

typedef struct cinst {
  uint64_t team;
  uint32_t region, k, members;
  uint64_t begin, end, max_busy, sum_busy;
  struct cinst *hnext, *tnext;
} cinst;

typedef struct {
  uint64_t max_busy, sum_busy;
  cinst *list;
} pinst;

typedef struct {
  uint64_t team;
  uint32_t k;
} kcount;

#define HBUCKETS 1024

struct sm_regions {
  rrow *rows;
  uint32_t *cidx; /* region -> construct index or OTR_NONE */
  uint32_t nconstructs;
  kcount **cnt; /* per location, per construct */
  cinst *hash[HBUCKETS];
  uint32_t *order, norder; /* after finish: keys shown, by gain */
};

static bool is_ws(otr_class c) {
  return c == OTR_C_LOOP || c == OTR_C_SECTIONS || c == OTR_C_WORKSHARE || c == OTR_C_SINGLE ||
         c == OTR_C_MASTER;
}
static bool balances(otr_class c) {
  return c == OTR_C_PARALLEL || c == OTR_C_LOOP || c == OTR_C_SECTIONS || c == OTR_C_WORKSHARE;
}
/* An implicit barrier named after a source line belongs to the construct
 * at that line: a barrier after a masked or nowait construct is the
 * enclosing region's. Without lines (no debug info, or a line the reader
 * inferred from a Score-P address-named barrier's first use), adjacency
 * decides. */
static bool same_site_or_unknown(const otr_region *barrier, const otr_region *ws) {
  if (barrier->site_inferred || !barrier->line || !ws->line || !*barrier->file || !*ws->file)
    return true;
  return barrier->line == ws->line && strcmp(barrier->file, ws->file) == 0;
}

static bool is_barrier(otr_class c) {
  return c == OTR_C_IBARRIER || c == OTR_C_EBARRIER;
}

static void init(sm *s) {
  sm_regions *g = otr_xcalloc(1, sizeof *g);
  g->rows = otr_xcalloc(s->nkeys, sizeof *g->rows);
  g->cidx = otr_xmalloc((s->d->n_regions + 1) * sizeof *g->cidx);
  for (uint32_t i = 0; i < s->d->n_regions; i++)
    g->cidx[i] = is_ws(s->d->regions[i].cls) ? g->nconstructs++ : OTR_NONE;
  g->cnt = otr_xcalloc(s->d->n_locations, sizeof *g->cnt);
  s->regions = g;
}

static rthr *thr(sm *s, uint32_t region, uint32_t loc) {
  uint32_t key = sm_key_of(s, region);
  if (key == OTR_NONE)
    return NULL;
  rrow *r = &s->regions->rows[key];
  if (!r->thr)
    r->thr = otr_xcalloc(s->d->n_locations, sizeof *r->thr);
  return &r->thr[loc];
}

static void add_instance(sm *s, uint32_t region, uint64_t dur, uint64_t max_busy, uint64_t sum_busy,
                         uint32_t members) {
  uint32_t key = sm_key_of(s, region);
  if (key == OTR_NONE)
    return;
  rrow *r = &s->regions->rows[key];
  if (!r->instances++ || dur < r->min)
    r->min = dur;
  if (dur > r->max)
    r->max = dur;
  r->total += dur;
  if (balances(s->d->regions[region].cls) && members) {
    r->gain += max_busy - sum_busy / members;
    r->sum_max += max_busy;
  }
}

static uint32_t hslot(uint64_t team, uint32_t region, uint32_t k) {
  return (uint32_t)((team * 0x9E3779B97F4A7C15ULL) ^ (region * 2654435761u) ^ k) % HBUCKETS;
}

static void cinst_finish(sm *s, cinst *c, pinst *p) {
  sm_regions *g = s->regions;
  add_instance(s, c->region, c->end - c->begin, c->max_busy, c->sum_busy, c->members);
  cinst **pp = &g->hash[hslot(c->team, c->region, c->k)];
  while (*pp && *pp != c)
    pp = &(*pp)->hnext;
  if (*pp)
    *pp = c->hnext;
  if (p) {
    pp = &p->list;
    while (*pp && *pp != c)
      pp = &(*pp)->tnext;
    if (*pp)
      *pp = c->tnext;
  }
  free(c);
}

static void enter(sm *s, const otr_loc *l, const otr_frame *f) {
  sm_regions *g = s->regions;
  if (f->cls == OTR_C_PARALLEL && f->team && !f->team->user)
    f->team->user = otr_xcalloc(1, sizeof(pinst));
  uint32_t ci = f->region < s->d->n_regions ? g->cidx[f->region] : OTR_NONE;
  if (ci == OTR_NONE)
    return;
  if (!g->cnt[l->index])
    g->cnt[l->index] = otr_xcalloc(g->nconstructs, sizeof(kcount));
  kcount *c = &g->cnt[l->index][ci];
  uint64_t team = f->team ? f->team->id : 0;
  if (c->team != team) {
    c->team = team;
    c->k = 0;
  }
  c->k++;
}

static void ws_leave(sm *s, const otr_loc *l, const otr_frame *f, uint64_t t, uint64_t busy) {
  sm_regions *g = s->regions;
  uint32_t ci = g->cidx[f->region];
  kcount *kc = g->cnt[l->index] ? &g->cnt[l->index][ci] : NULL;
  otr_team *team = f->team;
  uint64_t tid = team ? team->id : 0;
  uint32_t k = kc && kc->team == tid && kc->k ? kc->k - 1 : 0;
  if (!team) { /* orphaned construct outside any parallel region */
    add_instance(s, f->region, t - f->enter, busy, busy, 1);
    return;
  }
  pinst *p = team->user;
  uint32_t h = hslot(tid, f->region, k);
  cinst *c = g->hash[h];
  while (c && !(c->team == tid && c->region == f->region && c->k == k))
    c = c->hnext;
  if (!c) {
    c = otr_xcalloc(1, sizeof *c);
    c->team = tid, c->region = f->region, c->k = k, c->begin = f->enter;
    c->hnext = g->hash[h];
    g->hash[h] = c;
    if (p) {
      c->tnext = p->list;
      p->list = c;
    }
  }
  if (f->enter < c->begin)
    c->begin = f->enter;
  if (t > c->end)
    c->end = t;
  c->members++;
  c->sum_busy += busy;
  if (busy > c->max_busy)
    c->max_busy = busy;
  /* complete once every member left it; a masked construct has one member, so
   * its instances do not pile up until the team ends */
  uint32_t members = f->cls == OTR_C_MASTER ? 1 : team->size;
  if (members && c->members >= members)
    cinst_finish(s, c, p);
}

static void leave(sm *s, const otr_loc *l, const otr_frame *f, const otr_frame *p, uint64_t t,
                  const double *md) {
  (void)md;
  if (f->region >= s->d->n_regions)
    return;
  /* MPI calls inside the construct are MPI time, not its work */
  uint64_t incl = t - f->enter, wait = l->wait_cum - f->wait0 + l->cat_time[OTR_T_MPI] - f->mpi0;
  uint64_t busy = incl > wait ? incl - wait : 0;
  if (f->cls == OTR_C_PARALLEL || is_ws(f->cls)) {
    rthr *r = thr(s, f->region, l->index);
    r->incl += incl;
    r->busy += busy;
    if (f->cls == OTR_C_PARALLEL && f->team && f->team->user) {
      pinst *pi = f->team->user;
      pi->sum_busy += busy;
      if (busy > pi->max_busy)
        pi->max_busy = busy;
    } else if (is_ws(f->cls)) {
      ws_leave(s, l, f, t, busy);
    }
    return;
  }
  if (!is_barrier(f->cls) || (p && is_barrier(p->cls)))
    return;
  uint32_t target = OTR_NONE;
  if (p && is_ws(p->cls))
    target = p->region;
  else if (p && p->last_child < s->d->n_regions && is_ws(s->d->regions[p->last_child].cls) &&
           same_site_or_unknown(&s->d->regions[f->region], &s->d->regions[p->last_child]))
    target = p->last_child;
  else if (f->team)
    target = f->team->region;
  if (target != OTR_NONE) {
    rthr *r = thr(s, target, l->index);
    if (r) /* barrier time only: waits inside tasks run in the barrier are the tasks' */
      r->bwait += l->cat_time[OTR_T_IBARRIER] + l->cat_time[OTR_T_EBARRIER] - f->barrier0;
  }
}

static void team_end(sm *s, otr_team *team) {
  pinst *p = team->user;
  if (!p)
    return;
  while (p->list)
    cinst_finish(s, p->list, p);
  add_instance(s, team->region, team->end - team->begin, p->max_busy, p->sum_busy, team->joined);
  free(p);
  team->user = NULL;
}

bool sm_regions_has(const sm *s, uint32_t key) {
  return key < s->nkeys && s->regions->rows[key].instances > 0;
}

uint64_t sm_regions_slowest_ns(const sm *s, uint32_t key) {
  const rrow *r = &s->regions->rows[key];
  uint64_t m = 0;
  for (uint32_t i = 0; r->thr && i < s->d->n_locations; i++)
    if (r->thr[i].incl > m)
      m = r->thr[i].incl;
  return sm_ns(s, m);
}

static const sm *sort_s;
static int by_gain(const void *a, const void *b) {
  const rrow *ra = &sort_s->regions->rows[*(const uint32_t *)a];
  const rrow *rb = &sort_s->regions->rows[*(const uint32_t *)b];
  if (ra->gain != rb->gain)
    return ra->gain < rb->gain ? 1 : -1;
  if (ra->total != rb->total)
    return ra->total < rb->total ? 1 : -1;
  return strcmp(sm_label(sort_s, *(const uint32_t *)a), sm_label(sort_s, *(const uint32_t *)b));
}

/* Orders the rows by gain; the first row shown, when it gains, is the
 * findings' imbalanced region. */
static void finish(sm *s) {
  sm_regions *g = s->regions;
  uint32_t n = 0, *order = otr_xmalloc((s->nkeys + 1) * sizeof *order);
  for (uint32_t k = 0; k < s->nkeys; k++)
    if (g->rows[k].instances && sm_match(s, sm_label(s, k)))
      order[n++] = k;
  sort_s = s;
  qsort(order, n, sizeof *order, by_gain);
  g->order = order;
  g->norder = n;
  if (sm_limit(s, n) > 0 && g->rows[order[0]].gain) {
    const rrow *w = &g->rows[order[0]];
    s->facts.gain_label = sm_label(s, order[0]);
    s->facts.gain_ns = sm_ns(s, w->gain);
    s->facts.gain_imbalance = w->sum_max ? (double)w->gain / (double)w->sum_max : 0;
  }
}

static void report_threads(sm *s, report *r, uint32_t shown) {
  sm_regions *g = s->regions;
  rtable *d = rt_new(r, "regions", "threads", "Regions per thread", false);
  rt_col(d, "region", "Region", RV_STR);
  rt_col(d, "thread", "Thread", RV_INT);
  rt_col(d, "time_ns", "Time", RV_NS);
  rt_col(d, "busy_ns", "Busy", RV_NS);
  rt_col(d, "barrier_wait_ns", "Barrier wait", RV_NS);
  for (uint32_t i = 0; i < shown; i++) {
    rrow *w = &g->rows[g->order[i]];
    for (uint32_t l = 0; w->thr && l < s->d->n_locations; l++) {
      if (!w->thr[l].incl && !w->thr[l].bwait)
        continue;
      rt_row(d);
      rt_str(d, sm_label(s, g->order[i]));
      rt_int(d, l);
      rt_ns(d, sm_ns(s, w->thr[l].incl));
      rt_ns(d, sm_ns(s, w->thr[l].busy));
      rt_ns(d, sm_ns(s, w->thr[l].bwait));
    }
  }
}

static void report_regions(sm *s, report *r) {
  sm_regions *g = s->regions;
  uint32_t n = g->norder, nl = s->d->n_locations, *order = g->order;
  rtable *t =
      rt_new(r, "regions", "regions", "Parallel regions and work-sharing constructs", false);
  rt_col(t, "region", "Region", RV_STR);
  rt_col(t, "kind", "Kind", RV_STR);
  rt_col(t, "instances", "Inst", RV_INT);
  rt_col(t, "total_ns", "Total", RV_NS);
  rt_col(t, "mean_ns", "Mean", RV_NS);
  rt_col(t, "min_ns", "Min", RV_NS);
  rt_col(t, "max_ns", "Max", RV_NS);
  rt_col(t, "busy_ns", "Busy (all thr)", RV_NS);
  rt_col(t, "imbalance", "Imbal", RV_PCT);
  rt_col(t, "gain_ns", "Gain", RV_NS);
  rt_col(t, "gain_share", "Gain/run", RV_PCT);
  rt_col(t, "barrier_wait_ns", "Barrier wait", RV_NS);
  rt_col(t, "barrier_wait_per_thread_ns", "Barrier wait per thread", RV_NSLIST);
  uint32_t shown = sm_limit(s, n);
  double *list = otr_xcalloc(nl ? nl : 1, sizeof *list);
  for (uint32_t i = 0; i < shown; i++) {
    uint32_t k = order[i];
    rrow *w = &g->rows[k];
    otr_class cls = s->keys[k].cls;
    uint64_t busy = 0, bw = 0;
    for (uint32_t l = 0; l < nl; l++) {
      busy += w->thr ? w->thr[l].busy : 0;
      bw += w->thr ? w->thr[l].bwait : 0;
      list[l] = w->thr ? (double)sm_ns(s, w->thr[l].bwait) : 0;
    }
    rt_row(t);
    rt_str(t, sm_label(s, k));
    rt_str(t, otr_class_name(cls));
    rt_int(t, (int64_t)w->instances);
    rt_ns(t, sm_ns(s, w->total));
    rt_ns(t, sm_ns(s, w->total / w->instances));
    rt_ns(t, sm_ns(s, w->min));
    rt_ns(t, sm_ns(s, w->max));
    rt_ns(t, sm_ns(s, busy));
    if (balances(cls) && w->sum_max)
      rt_pct(t, (double)w->gain / (double)w->sum_max);
    else if (balances(cls))
      rt_pct(t, 0);
    else
      rt_null(t);
    rt_ns(t, sm_ns(s, w->gain));
    rt_pct(t, s->facts.wall_ns ? (double)sm_ns(s, w->gain) / (double)s->facts.wall_ns : 0);
    rt_ns(t, sm_ns(s, bw));
    rt_list(t, list, nl);
  }
  if (shown < n)
    rt_note(t, "%u more not shown; --top 0 shows all", n - shown);
  if (s->o.threads)
    report_threads(s, r, shown);
  free(list);
}

static void free_regions(sm *s) {
  sm_regions *g = s->regions;
  if (!g)
    return;
  free(g->order);
  for (uint32_t k = 0; k < s->nkeys; k++)
    free(g->rows[k].thr);
  free(g->rows);
  for (uint32_t i = 0; i < s->d->n_locations; i++)
    free(g->cnt[i]);
  free(g->cnt);
  free(g->cidx);
  for (uint32_t h = 0; h < HBUCKETS; h++)
    while (g->hash[h]) {
      cinst *c = g->hash[h];
      g->hash[h] = c->hnext;
      free(c);
    }
  free(g);
  s->regions = NULL;
}

const sm_analysis sm_regions_analysis = {
    .init = init,
    .hooks = {.enter = enter, .leave = leave, .team_end = team_end},
    .finish = finish,
    .report = report_regions,
    .free = free_regions,
};
