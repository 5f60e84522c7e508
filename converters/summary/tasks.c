/* Explicit tasks: durations (time the task body ran, without tasks nested
 * in it, over all its fragments), quantiles, a granularity histogram by
 * decades, creation cost (time in task-create regions), the share run by a
 * thread other than the creator, and dependences from the
 * ParameterUnsignedInt "omp depend(<kind>)" records of task creation (those
 * of a dependent taskwait or a doacross loop belong to no task). */
#include "summary.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define NHIST 7
static const uint64_t hist_upper[NHIST] = {1000,     10000,     100000,    1000000,
                                           10000000, 100000000, UINT64_MAX};
static const char *const hist_name[NHIST] = {"< 1 us",  "1-10 us",   "10-100 us", "100 us-1 ms",
                                             "1-10 ms", "10-100 ms", ">= 100 ms"};

typedef struct task {
  uint64_t key, active;
  uint32_t region, creator, executor;
  struct task *next;
} task;

typedef struct {
  uint64_t count, total, max;
} tsite;

typedef struct {
  char *kind;
  uint64_t count;
} tdep;

#define TBUCKETS 4096

struct sm_tasks {
  task *hash[TBUCKETS];
  sm_quant *q;
  uint64_t count, total, min, max, other, hist_n[NHIST], hist_t[NHIST];
  uint64_t created, create_ticks, create_regions;
  uint64_t deps, with_deps;
  bool *last_has_dep; /* per location: its last created task has a dependence */
  bool *in_create;    /* per location: inside the create region of that task */
  tsite *sites;       /* per key */
  tdep *dk;
  uint32_t ndk;
  /* after finish */
  uint64_t median_ns, create_mean_ns;
  uint32_t *order, norder; /* constructs, by total time */
};

static void init(sm *s) {
  sm_tasks *k = otr_xcalloc(1, sizeof *k);
  k->q = quant_new();
  k->last_has_dep = otr_xcalloc(s->d->n_locations, sizeof *k->last_has_dep);
  k->in_create = otr_xcalloc(s->d->n_locations, sizeof *k->in_create);
  k->sites = otr_xcalloc(s->nkeys + 1, sizeof *k->sites);
  s->tasks = k;
}

static task **find(sm_tasks *k, uint64_t key) {
  task **pp = &k->hash[(key * 0x9E3779B97F4A7C15ULL) >> 52];
  while (*pp && (*pp)->key != key)
    pp = &(*pp)->next;
  return pp;
}

static task *get(sm_tasks *k, uint64_t key) {
  task **pp = find(k, key);
  if (!*pp) {
    task *t = otr_xcalloc(1, sizeof *t);
    t->key = key;
    t->region = t->executor = OTR_NONE;
    /* thread records name the creator in the key's upper half */
    t->creator = key >> 63 ? OTR_NONE : (uint32_t)(key >> 32);
    *pp = t;
  }
  return *pp;
}

static void leave(sm *s, const otr_loc *l, const otr_frame *f, const otr_frame *p, uint64_t t,
                  const double *md) {
  (void)p, (void)md;
  if (f->cls != OTR_C_TASK_CREATE)
    return;
  s->tasks->in_create[l->index] = false;
  s->tasks->create_ticks += t - f->enter;
  s->tasks->create_regions++;
}

static void create(sm *s, const otr_loc *l, uint64_t t, uint64_t key) {
  (void)t;
  sm_tasks *k = s->tasks;
  task *x = get(k, key);
  x->creator = l->index;
  k->created++;
  k->last_has_dep[l->index] = false;
  k->in_create[l->index] = true;
}

static void dep(sm *s, const otr_loc *l, uint64_t t, const char *name) {
  (void)t;
  sm_tasks *k = s->tasks;
  if (!k->in_create[l->index])
    return;
  k->deps++;
  if (!k->last_has_dep[l->index]) {
    k->last_has_dep[l->index] = true;
    k->with_deps++;
  }
  const char *p = strchr(name, '(');
  char kind[64];
  snprintf(kind, sizeof kind, "%s", p ? p + 1 : name);
  char *e = strchr(kind, ')');
  if (e)
    *e = 0;
  for (uint32_t i = 0; i < k->ndk; i++)
    if (!strcmp(k->dk[i].kind, kind)) {
      k->dk[i].count++;
      return;
    }
  k->dk = otr_xrealloc(k->dk, (k->ndk + 1) * sizeof *k->dk);
  k->dk[k->ndk].kind = otr_xstrdup(kind);
  k->dk[k->ndk++].count = 1;
}

static void fragment(sm *s, const otr_loc *l, uint64_t key, uint32_t region, uint64_t active) {
  task *x = get(s->tasks, key);
  x->active += active;
  if (x->executor == OTR_NONE)
    x->executor = l->index;
  if (x->region == OTR_NONE)
    x->region = region;
}

static void task_done(sm *s, task *x) {
  sm_tasks *k = s->tasks;
  uint64_t d = sm_ns(s, x->active);
  if (!k->count++ || d < k->min)
    k->min = d;
  if (d > k->max)
    k->max = d;
  k->total += d;
  quant_add(k->q, d);
  for (int h = 0; h < NHIST; h++)
    if (d < hist_upper[h] || h == NHIST - 1) {
      k->hist_n[h]++;
      k->hist_t[h] += d;
      break;
    }
  if (x->executor != OTR_NONE && x->creator != OTR_NONE && x->executor != x->creator)
    k->other++;
  uint32_t key = sm_key_of(s, x->region);
  if (key != OTR_NONE) {
    tsite *t = &k->sites[key];
    t->count++;
    t->total += d;
    if (d > t->max)
      t->max = d;
  }
}

static void complete(sm *s, const otr_loc *l, uint64_t t, uint64_t key) {
  (void)l, (void)t;
  task **pp = find(s->tasks, key);
  if (!*pp)
    return;
  task *x = *pp;
  *pp = x->next;
  if (x->executor != OTR_NONE)
    task_done(s, x);
  free(x);
}

static const sm *sort_s;
static int by_total(const void *a, const void *b) {
  const tsite *x = &sort_s->tasks->sites[*(const uint32_t *)a];
  const tsite *y = &sort_s->tasks->sites[*(const uint32_t *)b];
  if (x->total != y->total)
    return x->total < y->total ? 1 : -1;
  return strcmp(sm_label(sort_s, *(const uint32_t *)a), sm_label(sort_s, *(const uint32_t *)b));
}

static void finish(sm *s) {
  sm_tasks *k = s->tasks;
  /* tasks that ran but never completed (end of trace) still count */
  for (uint32_t h = 0; h < TBUCKETS; h++)
    while (k->hash[h]) {
      task *x = k->hash[h];
      k->hash[h] = x->next;
      if (x->executor != OTR_NONE)
        task_done(s, x);
      free(x);
    }
  if (!k->count && !k->created)
    return;
  k->median_ns = quant_get(k->q, 0.5);
  k->create_mean_ns = k->create_regions ? sm_ns(s, k->create_ticks) / k->create_regions : 0;
  s->facts.tasks = k->count;
  s->facts.task_median_ns = k->median_ns;
  s->facts.task_create_mean_ns = k->create_mean_ns;
  k->order = otr_xmalloc((s->nkeys + 1) * sizeof *k->order);
  for (uint32_t i = 0; i < s->nkeys; i++)
    if (k->sites[i].count && sm_match(s, sm_label(s, i)))
      k->order[k->norder++] = i;
  sort_s = s;
  qsort(k->order, k->norder, sizeof *k->order, by_total);
}

static void report_summary(sm *s, report *r) {
  sm_tasks *k = s->tasks;
  rtable *t = rt_new(r, "tasks", "summary", "Tasks", true);
  rt_col(t, "count", "Tasks run", RV_INT);
  rt_col(t, "total_ns", "Total time", RV_NS);
  rt_col(t, "mean_ns", "Mean", RV_NS);
  rt_col(t, "median_ns", "Median", RV_NS);
  rt_col(t, "p99_ns", "99th percentile", RV_NS);
  rt_col(t, "min_ns", "Min", RV_NS);
  rt_col(t, "max_ns", "Max", RV_NS);
  rt_col(t, "quantiles", "Quantiles", RV_STR);
  rt_col(t, "created", "Tasks created", RV_INT);
  rt_col(t, "create_total_ns", "Creation time", RV_NS);
  rt_col(t, "create_mean_ns", "Creation cost per task", RV_NS);
  rt_col(t, "other_thread_share", "Run by a thread other than the creator", RV_PCT);
  rt_col(t, "dependences", "Dependences", RV_INT);
  rt_col(t, "tasks_with_dependences", "Tasks with dependences", RV_INT);
  uint64_t ct = sm_ns(s, k->create_ticks);
  rt_row(t);
  rt_int(t, (int64_t)k->count);
  rt_ns(t, k->total);
  rt_ns(t, k->count ? k->total / k->count : 0);
  rt_ns(t, k->median_ns);
  rt_ns(t, quant_get(k->q, 0.99));
  rt_ns(t, k->min);
  rt_ns(t, k->max);
  rt_str(t, quant_exact(k->q) ? "exact" : "histogram");
  rt_int(t, (int64_t)k->created);
  if (ct) {
    rt_ns(t, ct);
    rt_ns(t, k->create_mean_ns);
  } else { /* zero-length task-create regions: not measured */
    rt_null(t);
    rt_null(t);
  }
  rt_pct(t, k->count ? (double)k->other / (double)k->count : 0);
  rt_int(t, (int64_t)k->deps);
  rt_int(t, (int64_t)k->with_deps);
  rt_note(t,
          "nearest-rank quantiles, exact up to 65536 tasks, then from a histogram with "
          "3%% buckets%s",
          ct ? "" : "; creation cost not measured (zero-length task-create regions)");
}

static void report_histogram(sm *s, report *r) {
  sm_tasks *k = s->tasks;
  rtable *hst = rt_new(r, "tasks", "histogram", "Task granularity", false);
  rt_col(hst, "bucket", "Duration", RV_STR);
  rt_col(hst, "lower_ns", "From", RV_NS);
  rt_col(hst, "count", "Tasks", RV_INT);
  rt_col(hst, "total_ns", "Time", RV_NS);
  for (int h = 0; h < NHIST; h++) {
    rt_row(hst);
    rt_str(hst, hist_name[h]);
    rt_ns(hst, h ? hist_upper[h - 1] : 0);
    rt_int(hst, (int64_t)k->hist_n[h]);
    rt_ns(hst, k->hist_t[h]);
  }
}

static void report_constructs(sm *s, report *r) {
  sm_tasks *k = s->tasks;
  rtable *c = rt_new(r, "tasks", "constructs", "Tasks per construct", false);
  rt_col(c, "region", "Task", RV_STR);
  rt_col(c, "count", "Count", RV_INT);
  rt_col(c, "total_ns", "Total", RV_NS);
  rt_col(c, "mean_ns", "Mean", RV_NS);
  rt_col(c, "max_ns", "Max", RV_NS);
  uint32_t shown = sm_limit(s, k->norder);
  for (uint32_t i = 0; i < shown; i++) {
    tsite *x = &k->sites[k->order[i]];
    rt_row(c);
    rt_str(c, sm_label(s, k->order[i]));
    rt_int(c, (int64_t)x->count);
    rt_ns(c, x->total);
    rt_ns(c, x->total / x->count);
    rt_ns(c, x->max);
  }
}

static void report_dependences(sm *s, report *r) {
  sm_tasks *k = s->tasks;
  rtable *d = rt_new(r, "tasks", "dependences", "Task dependences", false);
  rt_col(d, "kind", "Kind", RV_STR);
  rt_col(d, "count", "Count", RV_INT);
  for (uint32_t i = 0; i < k->ndk; i++) {
    rt_row(d);
    rt_str(d, k->dk[i].kind);
    rt_int(d, (int64_t)k->dk[i].count);
  }
}

static void report_tasks(sm *s, report *r) {
  if (!s->tasks->count && !s->tasks->created)
    return;
  report_summary(s, r);
  report_histogram(s, r);
  report_constructs(s, r);
  report_dependences(s, r);
}

static void free_tasks(sm *s) {
  sm_tasks *k = s->tasks;
  if (!k)
    return;
  for (uint32_t h = 0; h < TBUCKETS; h++)
    while (k->hash[h]) {
      task *x = k->hash[h];
      k->hash[h] = x->next;
      free(x);
    }
  quant_free(k->q);
  free(k->last_has_dep);
  free(k->in_create);
  free(k->sites);
  for (uint32_t i = 0; i < k->ndk; i++)
    free(k->dk[i].kind);
  free(k->dk);
  free(k->order);
  free(k);
  s->tasks = NULL;
}

const sm_analysis sm_tasks_analysis = {
    .init = init,
    .hooks = {.leave = leave,
              .task_create = create,
              .task_dep = dep,
              .task_fragment = fragment,
              .task_complete = complete},
    .finish = finish,
    .report = report_tasks,
    .free = free_tasks,
};
