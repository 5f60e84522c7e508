/* Hardware counters from Metric records: a region's value is the difference
 * between the Metric that came with its Leave and the one that came with its
 * Enter (same location, same time), summed per region (inclusive) and
 * thread. Thread totals are last minus first value. IPC is derived when
 * PAPI_TOT_INS and PAPI_TOT_CYC are both recorded. */
#include "summary.h"

#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct sm_counters {
  uint32_t nm, ins, cyc; /* member slots of the IPC inputs, OTR_NONE if absent */
  double **sum;          /* per key: nloc x nm, NULL until seen */
  double *total;         /* nloc x nm */
  bool *has_total;
  bool any;
  /* after finish */
  double *tot;     /* per key: nm, over all threads */
  uint32_t *order; /* keys with values, by cycles (else the first counter) */
  uint32_t norder;
};

static void init(sm *s) {
  sm_counters *c = otr_xcalloc(1, sizeof *c);
  c->nm = s->d->n_metrics;
  c->ins = c->cyc = OTR_NONE;
  for (uint32_t i = 0; i < c->nm; i++) {
    if (!strcmp(s->d->metrics[i].name, "PAPI_TOT_INS"))
      c->ins = i;
    if (!strcmp(s->d->metrics[i].name, "PAPI_TOT_CYC"))
      c->cyc = i;
  }
  c->sum = otr_xcalloc(s->nkeys + 1, sizeof *c->sum);
  c->total = otr_xcalloc((size_t)s->d->n_locations * (c->nm ? c->nm : 1), sizeof *c->total);
  c->has_total = otr_xcalloc(s->d->n_locations, sizeof *c->has_total);
  s->counters = c;
}

static void leave(sm *s, const otr_loc *l, const otr_frame *f, const otr_frame *p, uint64_t t,
                  const double *delta) {
  (void)p, (void)t;
  if (!delta)
    return;
  sm_counters *c = s->counters;
  uint32_t key = sm_key_of(s, f->region);
  if (key == OTR_NONE || !c->nm)
    return;
  if (!c->sum[key])
    c->sum[key] = otr_xcalloc((size_t)s->d->n_locations * c->nm, sizeof(double));
  double *v = c->sum[key] + (size_t)l->index * c->nm;
  for (uint32_t m = 0; m < c->nm; m++)
    if (!isnan(delta[m]))
      v[m] += delta[m];
  c->any = true;
}

static void total(sm *s, const otr_loc *l, const double *first, const double *last) {
  sm_counters *c = s->counters;
  for (uint32_t m = 0; m < c->nm; m++)
    if (!isnan(first[m]) && !isnan(last[m]))
      c->total[(size_t)l->index * c->nm + m] = last[m] - first[m];
  c->has_total[l->index] = true;
  c->any = true;
}

static void columns(sm *s, rtable *t) {
  sm_counters *c = s->counters;
  for (uint32_t m = 0; m < c->nm; m++)
    rt_col(t, s->d->metrics[m].name, s->d->metrics[m].name, RV_COUNT);
  if (c->ins != OTR_NONE && c->cyc != OTR_NONE)
    rt_col(t, "ipc", "IPC", RV_REAL);
}

static void values(sm *s, rtable *t, const double *v) {
  sm_counters *c = s->counters;
  for (uint32_t m = 0; m < c->nm; m++)
    rt_count(t, v[m]);
  if (c->ins != OTR_NONE && c->cyc != OTR_NONE) {
    if (v[c->cyc] > 0)
      rt_real(t, v[c->ins] / v[c->cyc]);
    else
      rt_null(t);
  }
}

static const sm *sort_s;
static double *sort_tot;
static int by_value(const void *a, const void *b) {
  double x = sort_tot[*(const uint32_t *)a], y = sort_tot[*(const uint32_t *)b];
  if (x != y)
    return x < y ? 1 : -1;
  return strcmp(sm_label(sort_s, *(const uint32_t *)a), sm_label(sort_s, *(const uint32_t *)b));
}

/* Sums the regions over the threads and orders them; the IPC facts: the
 * lowest of the rows shown and the whole run's. */
static void finish(sm *s) {
  sm_counters *c = s->counters;
  if (!c->any || !c->nm)
    return;
  uint32_t nl = s->d->n_locations, nm = c->nm, n = 0;
  uint32_t rank = c->cyc != OTR_NONE ? c->cyc : 0; /* rows ranked by cycles, else the first */
  double *tot = otr_xcalloc((size_t)(s->nkeys + 1) * nm, sizeof *tot);
  double *key_rank = otr_xcalloc(s->nkeys + 1, sizeof *key_rank);
  uint32_t *order = otr_xmalloc((s->nkeys + 1) * sizeof *order);
  for (uint32_t k = 0; k < s->nkeys; k++) {
    if (!c->sum[k] || !sm_match(s, sm_label(s, k)))
      continue;
    for (uint32_t l = 0; l < nl; l++)
      for (uint32_t m = 0; m < nm; m++)
        tot[(size_t)k * nm + m] += c->sum[k][(size_t)l * nm + m];
    key_rank[k] = tot[(size_t)k * nm + rank];
    order[n++] = k;
  }
  sort_s = s;
  sort_tot = key_rank;
  qsort(order, n, sizeof *order, by_value);
  free(key_rank);
  c->tot = tot;
  c->order = order;
  c->norder = n;
  if (c->ins == OTR_NONE || c->cyc == OTR_NONE)
    return;
  double ipc_low = INFINITY;
  for (uint32_t i = 0; i < sm_limit(s, n); i++) {
    const double *v = tot + (size_t)order[i] * nm;
    if (v[c->cyc] > 0 && v[c->ins] / v[c->cyc] < ipc_low) {
      ipc_low = v[c->ins] / v[c->cyc];
      s->facts.ipc_label = sm_label(s, order[i]);
      s->facts.ipc_low = ipc_low;
    }
  }
  double ins = 0, cyc = 0;
  for (uint32_t l = 0; l < nl; l++)
    if (c->has_total[l]) {
      ins += c->total[(size_t)l * nm + c->ins];
      cyc += c->total[(size_t)l * nm + c->cyc];
    }
  if (cyc > 0)
    s->facts.ipc_all = ins / cyc;
}

static void report_region_threads(sm *s, report *r, uint32_t shown) {
  sm_counters *c = s->counters;
  uint32_t nm = c->nm;
  rtable *d = rt_new(r, "counters", "region_threads", "Counters per region and thread", false);
  rt_col(d, "region", "Region", RV_STR);
  rt_col(d, "thread", "Thread", RV_INT);
  columns(s, d);
  for (uint32_t i = 0; i < shown; i++)
    for (uint32_t l = 0; l < s->d->n_locations; l++) {
      const double *v = c->sum[c->order[i]] + (size_t)l * nm;
      bool any = false;
      for (uint32_t m = 0; m < nm; m++)
        any |= v[m] != 0;
      if (!any)
        continue;
      rt_row(d);
      rt_str(d, sm_label(s, c->order[i]));
      rt_int(d, l);
      values(s, d, v);
    }
}

static void report_counters(sm *s, report *r) {
  sm_counters *c = s->counters;
  if (!c->any || !c->nm)
    return;
  rtable *t = rt_new(r, "counters", "regions", "Counters per region (all threads)", false);
  rt_col(t, "region", "Region", RV_STR);
  columns(s, t);
  uint32_t shown = sm_limit(s, c->norder);
  for (uint32_t i = 0; i < shown; i++) {
    rt_row(t);
    rt_str(t, sm_label(s, c->order[i]));
    values(s, t, c->tot + (size_t)c->order[i] * c->nm);
  }
  rtable *th = rt_new(r, "counters", "threads", "Counters per thread (whole run)", false);
  rt_col(th, "thread", "Thread", RV_INT);
  columns(s, th);
  for (uint32_t l = 0; l < s->d->n_locations; l++) {
    if (!c->has_total[l])
      continue;
    rt_row(th);
    rt_int(th, l);
    values(s, th, c->total + (size_t)l * c->nm);
  }
  if (s->o.threads)
    report_region_threads(s, r, shown);
}

static void free_counters(sm *s) {
  sm_counters *c = s->counters;
  if (!c)
    return;
  for (uint32_t k = 0; k <= s->nkeys; k++)
    free(c->sum[k]);
  free(c->sum);
  free(c->total);
  free(c->has_total);
  free(c->tot);
  free(c->order);
  free(c);
  s->counters = NULL;
}

const sm_analysis sm_counters_analysis = {
    .init = init,
    .hooks = {.leave = leave, .metric_total = total},
    .finish = finish,
    .report = report_counters,
    .free = free_counters,
};
