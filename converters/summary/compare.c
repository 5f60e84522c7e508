/* --compare: one program recorded at several thread counts. Regions are
 * matched across runs by construct and source location; a region's time in
 * a run is its slowest thread's time in it. Speedup and efficiency are
 * relative to the smallest thread count where the region appears. A thread
 * count m is a degradation rank of a region when the region is slower at m
 * than at some m' < m (by more than --tolerance); the strength at m is the
 * region's time at m when m is a degradation rank, else 0. Regions are
 * sorted by their largest strength. */
#include "summary.h"

#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef OMPTRACE_VERSION
#define OMPTRACE_VERSION "0"
#endif

typedef struct {
  char *path;
  char *program;
  uint32_t threads;
  uint64_t wall, serial;
} run;

typedef struct {
  char *label;
  otr_class cls;
  double *t; /* per run, NAN when absent */
  double strength;
} creg;

static creg *regs;
static uint32_t nregs;
static run *runs;

static creg *find(const char *label, otr_class cls, uint32_t nruns) {
  for (uint32_t i = 0; i < nregs; i++)
    if (regs[i].cls == cls && !strcmp(regs[i].label, label))
      return &regs[i];
  regs = otr_xrealloc(regs, (nregs + 1) * sizeof *regs);
  creg *r = &regs[nregs++];
  r->label = otr_xstrdup(label);
  r->cls = cls;
  r->t = otr_xmalloc(nruns * sizeof *r->t);
  for (uint32_t k = 0; k < nruns; k++)
    r->t[k] = NAN;
  r->strength = 0;
  return r;
}

/* Run i (runs sorted by thread count) is a degradation rank of g: g is
 * slower there than in a run with fewer threads, beyond the tolerance. */
static bool degraded(const creg *g, uint32_t i, double tolerance) {
  if (isnan(g->t[i]))
    return false;
  for (uint32_t j = 0; j < i; j++)
    if (runs[j].threads < runs[i].threads && !isnan(g->t[j]) &&
        g->t[i] > g->t[j] * (1.0 + tolerance))
      return true;
  return false;
}

static int by_strength(const void *a, const void *b) {
  const creg *x = a, *y = b;
  if (x->strength != y->strength)
    return x->strength < y->strength ? 1 : -1;
  return strcmp(x->label, y->label);
}

/* Reads one archive into runs[i] and the region table (column i). */
static bool load(const char *path, uint32_t i, uint32_t nruns, const sm_opts *o) {
  char err[600];
  sm s = {.o = *o};
  s.a = otr_open(path, err, sizeof err);
  if (!s.a) {
    fprintf(stderr, "omptrace-summary: %s\n", err);
    return false;
  }
  bool ok = sm_collect(&s, err, sizeof err);
  if (!ok) {
    fprintf(stderr, "omptrace-summary: %s: %s\n", otr_anchor(s.a), err);
  } else {
    runs[i].path = otr_xstrdup(path);
    runs[i].program = otr_xstrdup(s.d->program);
    overview_totals(&s, &runs[i].threads, &runs[i].wall, &runs[i].serial);
    for (uint32_t k = 0; k < s.nkeys; k++)
      if (regions_has(&s, k) && sm_match(&s, sm_label(&s, k)))
        find(sm_label(&s, k), s.keys[k].cls, nruns)->t[i] = (double)regions_slowest_ns(&s, k);
  }
  sm_free(&s);
  otr_close(s.a);
  return ok;
}

/* Runs of different programs have nothing to compare: a run that has no
 * region (construct and source line) in common with the first run is
 * refused with one line. Different program names alone (a renamed binary)
 * only get a warning. Runs are in command-line order here. */
static bool runs_match(uint32_t nr) {
  bool warned = false;
  for (uint32_t i = 1; i < nr && nregs; i++) { /* nregs 0: --region matched nothing */
    bool common = false;
    for (uint32_t k = 0; k < nregs && !common; k++)
      common = !isnan(regs[k].t[0]) && !isnan(regs[k].t[i]);
    if (!common) {
      fprintf(stderr,
              "omptrace-summary: the runs do not match: %s ('%s') and %s ('%s') have no region "
              "(construct and source line) in common; --compare needs runs of one program\n",
              runs[0].path, runs[0].program, runs[i].path, runs[i].program);
      return false;
    }
    if (!warned && strcmp(runs[0].program, runs[i].program)) {
      fprintf(stderr,
              "omptrace-summary: warning: %s is a run of '%s', %s of '%s'; regions are matched "
              "by construct and source line\n",
              runs[0].path, runs[0].program, runs[i].path, runs[i].program);
      warned = true;
    }
  }
  return true;
}

static void free_all(uint32_t nr) {
  for (uint32_t k = 0; k < nregs; k++) {
    free(regs[k].label);
    free(regs[k].t);
  }
  free(regs);
  regs = NULL;
  nregs = 0;
  for (uint32_t i = 0; i < nr; i++) {
    free(runs[i].path);
    free(runs[i].program);
  }
  free(runs);
  runs = NULL;
}

int compare_main(char **paths, int n, const sm_opts *o, const char *format) {
  uint32_t nr = (uint32_t)n;
  runs = otr_xcalloc(nr, sizeof *runs);
  for (uint32_t i = 0; i < nr; i++)
    if (!load(paths[i], i, nr, o)) {
      free_all(nr);
      return 1;
    }
  if (!runs_match(nr)) {
    free_all(nr);
    return 1;
  }
  /* order runs by thread count (stable), permuting the region columns alike */
  uint32_t *perm = otr_xmalloc(nr * sizeof *perm);
  run *sorted = otr_xmalloc(nr * sizeof *sorted);
  for (uint32_t i = 0; i < nr; i++) { /* insertion sort: keeps equal counts in order */
    uint32_t j = i;
    for (; j > 0 && runs[perm[j - 1]].threads > runs[i].threads; j--)
      perm[j] = perm[j - 1];
    perm[j] = i;
  }
  for (uint32_t i = 0; i < nr; i++)
    sorted[i] = runs[perm[i]];
  double *tmp = otr_xmalloc(nr * sizeof *tmp);
  for (uint32_t k = 0; k < nregs; k++) {
    for (uint32_t i = 0; i < nr; i++)
      tmp[i] = regs[k].t[perm[i]];
    memcpy(regs[k].t, tmp, nr * sizeof *tmp);
  }
  memcpy(runs, sorted, nr * sizeof *runs);

  report *r = rp_new(nr ? runs[0].path : "");
  r->version = OMPTRACE_VERSION;
  rtable *rt = rt_new(r, "compare", "runs", "Runs", false);
  rt_col(rt, "archive", "Archive", RV_STR);
  rt_col(rt, "threads", "Threads", RV_INT);
  rt_col(rt, "wall_ns", "Wall time", RV_NS);
  rt_col(rt, "serial_ns", "Serial time", RV_NS);
  for (uint32_t i = 0; i < nr; i++) {
    rt_row(rt);
    rt_str(rt, runs[i].path);
    rt_int(rt, runs[i].threads);
    rt_ns(rt, runs[i].wall);
    rt_ns(rt, runs[i].serial);
  }
  double *thr = otr_xmalloc(nr * sizeof *thr), *sp = otr_xmalloc(nr * sizeof *sp),
         *ef = otr_xmalloc(nr * sizeof *ef), *st = otr_xmalloc(nr * sizeof *st),
         *ranks = otr_xmalloc(nr * sizeof *ranks), *tt = otr_xmalloc(nr * sizeof *tt);
  for (uint32_t i = 0; i < nr; i++)
    thr[i] = runs[i].threads;
  /* strengths first, to sort */
  for (uint32_t k = 0; k < nregs; k++) {
    creg *g = &regs[k];
    for (uint32_t i = 0; i < nr; i++)
      if (degraded(g, i, o->tolerance) && g->t[i] > g->strength)
        g->strength = g->t[i];
  }
  if (nregs > 1)
    qsort(regs, nregs, sizeof *regs, by_strength);
  rtable *t = rt_new(r, "compare", "regions", "Regions across thread counts", false);
  rt_col(t, "region", "Region", RV_STR);
  rt_col(t, "kind", "Kind", RV_STR);
  rt_col(t, "threads", "Threads", RV_INTLIST);
  rt_col(t, "time_ns", "Time (slowest thread)", RV_NSLIST);
  rt_col(t, "speedup", "Speedup", RV_REALLIST);
  rt_col(t, "efficiency", "Efficiency", RV_REALLIST);
  rt_col(t, "degradation_ranks", "Degradation ranks", RV_INTLIST);
  rt_col(t, "min_degradation_rank", "Min rank", RV_INT);
  rt_col(t, "strength_ns", "Strength", RV_NSLIST);
  rt_col(t, "max_strength_ns", "Max strength", RV_NS);
  uint32_t shown = o->top > 0 && (uint32_t)o->top < nregs ? (uint32_t)o->top : nregs;
  for (uint32_t k = 0; k < shown; k++) {
    creg *g = &regs[k];
    uint32_t b = 0, nrank = 0;
    while (b < nr && isnan(g->t[b]))
      b++;
    for (uint32_t i = 0; i < nr; i++) {
      bool have = !isnan(g->t[i]) && b < nr;
      tt[i] = isnan(g->t[i]) ? 0 : g->t[i];
      sp[i] = have && g->t[i] > 0 ? g->t[b] / g->t[i] : NAN;
      ef[i] = have && runs[i].threads ? sp[i] * runs[b].threads / runs[i].threads : NAN;
      bool degr = degraded(g, i, o->tolerance);
      st[i] = degr ? g->t[i] : 0;
      if (degr)
        ranks[nrank++] = runs[i].threads;
    }
    rt_row(t);
    rt_str(t, g->label);
    rt_str(t, otr_class_name(g->cls));
    rt_list(t, thr, nr);
    rt_list(t, tt, nr);
    rt_list(t, sp, nr);
    rt_list(t, ef, nr);
    rt_list(t, ranks, nrank);
    if (nrank)
      rt_int(t, (int64_t)ranks[0]);
    else
      rt_null(t);
    rt_list(t, st, nr);
    rt_ns(t, (uint64_t)g->strength);
  }
  rt_note(t, "time 0 = region absent in that run; speedup and efficiency relative to the "
             "smallest thread count where the region appears");
  rtable *f = rt_new(r, "findings", "findings", "Findings", false);
  f->bullets = true;
  rt_col(f, "text", "Finding", RV_STR);
  rt_col(f, "impact_ns", "Time at stake", RV_NS);
  for (uint32_t k = 0; k < nregs && k < 3; k++) {
    creg *g = &regs[k];
    if (g->strength <= 0)
      break;
    uint32_t lo = nr, m = 0;
    for (uint32_t i = 0; i < nr; i++)
      if (g->t[i] == g->strength)
        m = i;
    /* Name the fastest run with fewer threads: the one m is slower than. */
    for (uint32_t i = 0; i < m; i++)
      if (runs[i].threads < runs[m].threads && !isnan(g->t[i]) && (lo == nr || g->t[i] < g->t[lo]))
        lo = i;
    if (lo == nr)
      continue;
    char a[32], b[32];
    fmt_ns(a, sizeof a, g->t[lo]);
    fmt_ns(b, sizeof b, g->strength);
    char text[600];
    snprintf(text, sizeof text,
             "%s gets slower with more threads: %s at %u thread%s, %s at %u threads.", g->label, a,
             runs[lo].threads, runs[lo].threads == 1 ? "" : "s", b, runs[m].threads);
    rt_row(f);
    rt_str(f, text);
    rt_ns(f, (uint64_t)g->strength);
  }
  out_report(stdout, format, r);
  rp_free(r);
  free_all(nr);
  free(sorted);
  free(perm);
  free(tmp);
  free(thr), free(sp), free(ef), free(st), free(ranks), free(tt);
  return 0;
}
