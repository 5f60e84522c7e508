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

/* The comparison's state: the runs and the region table. */
typedef struct {
  const sm_opts *o;
  run *runs;
  uint32_t nr;
  creg *regs;
  uint32_t nregs;
} cmp;

static creg *find(cmp *c, const char *label, otr_class cls) {
  for (uint32_t i = 0; i < c->nregs; i++)
    if (c->regs[i].cls == cls && !strcmp(c->regs[i].label, label))
      return &c->regs[i];
  c->regs = otr_xrealloc(c->regs, (c->nregs + 1) * sizeof *c->regs);
  creg *r = &c->regs[c->nregs++];
  r->label = otr_xstrdup(label);
  r->cls = cls;
  r->t = otr_xmalloc(c->nr * sizeof *r->t);
  for (uint32_t k = 0; k < c->nr; k++)
    r->t[k] = NAN;
  r->strength = 0;
  return r;
}

/* Run i (runs sorted by thread count) is a degradation rank of g: g is
 * slower there than in a run with fewer threads, beyond the tolerance. */
static bool degraded(const cmp *c, const creg *g, uint32_t i) {
  if (isnan(g->t[i]))
    return false;
  for (uint32_t j = 0; j < i; j++)
    if (c->runs[j].threads < c->runs[i].threads && !isnan(g->t[j]) &&
        g->t[i] > g->t[j] * (1.0 + c->o->tolerance))
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
static bool load(cmp *c, const char *path, uint32_t i) {
  char err[600];
  sm s = {.o = *c->o};
  run *ru = &c->runs[i];
  s.a = otr_open(path, err, sizeof err);
  if (!s.a) {
    fprintf(stderr, "omptrace-summary: %s\n", err);
    return false;
  }
  bool ok = sm_collect(&s, err, sizeof err);
  if (!ok) {
    fprintf(stderr, "omptrace-summary: %s: %s\n", otr_anchor(s.a), err);
  } else {
    ru->path = otr_xstrdup(path);
    ru->program = otr_xstrdup(s.d->program);
    sm_overview_totals(&s, &ru->threads, &ru->wall, &ru->serial);
    for (uint32_t k = 0; k < s.nkeys; k++)
      if (sm_regions_has(&s, k) && sm_match(&s, sm_label(&s, k)))
        find(c, sm_label(&s, k), s.keys[k].cls)->t[i] = (double)sm_regions_slowest_ns(&s, k);
  }
  sm_free(&s);
  otr_close(s.a);
  return ok;
}

/* Runs of different programs have nothing to compare: a run that has no
 * region (construct and source line) in common with the first run is
 * refused with one line. Different program names alone (a renamed binary)
 * only get a warning. Runs are in command-line order here. */
static bool runs_match(const cmp *c) {
  const run *runs = c->runs;
  bool warned = false;
  for (uint32_t i = 1; i < c->nr && c->nregs; i++) { /* nregs 0: --region matched nothing */
    bool common = false;
    for (uint32_t k = 0; k < c->nregs && !common; k++)
      common = !isnan(c->regs[k].t[0]) && !isnan(c->regs[k].t[i]);
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

static void free_all(cmp *c) {
  for (uint32_t k = 0; k < c->nregs; k++) {
    free(c->regs[k].label);
    free(c->regs[k].t);
  }
  free(c->regs);
  for (uint32_t i = 0; i < c->nr; i++) {
    free(c->runs[i].path);
    free(c->runs[i].program);
  }
  free(c->runs);
}

/* Orders the runs by thread count (stable), permuting the region columns
 * alike. */
static void sort_runs(cmp *c) {
  uint32_t nr = c->nr;
  uint32_t *perm = otr_xmalloc(nr * sizeof *perm);
  run *sorted = otr_xmalloc(nr * sizeof *sorted);
  for (uint32_t i = 0; i < nr; i++) { /* insertion sort: keeps equal counts in order */
    uint32_t j = i;
    for (; j > 0 && c->runs[perm[j - 1]].threads > c->runs[i].threads; j--)
      perm[j] = perm[j - 1];
    perm[j] = i;
  }
  for (uint32_t i = 0; i < nr; i++)
    sorted[i] = c->runs[perm[i]];
  double *tmp = otr_xmalloc(nr * sizeof *tmp);
  for (uint32_t k = 0; k < c->nregs; k++) {
    for (uint32_t i = 0; i < nr; i++)
      tmp[i] = c->regs[k].t[perm[i]];
    memcpy(c->regs[k].t, tmp, nr * sizeof *tmp);
  }
  memcpy(c->runs, sorted, nr * sizeof *c->runs);
  free(sorted);
  free(perm);
  free(tmp);
}

/* Each region's strength, then the regions by strength. */
static void rank_regions(cmp *c) {
  for (uint32_t k = 0; k < c->nregs; k++) {
    creg *g = &c->regs[k];
    for (uint32_t i = 0; i < c->nr; i++)
      if (degraded(c, g, i) && g->t[i] > g->strength)
        g->strength = g->t[i];
  }
  if (c->nregs > 1)
    qsort(c->regs, c->nregs, sizeof *c->regs, by_strength);
}

static void runs_table(const cmp *c, report *r) {
  rtable *rt = rt_new(r, "compare", "runs", "Runs", false);
  rt_col(rt, "archive", "Archive", RV_STR);
  rt_col(rt, "threads", "Threads", RV_INT);
  rt_col(rt, "wall_ns", "Wall time", RV_NS);
  rt_col(rt, "serial_ns", "Serial time", RV_NS);
  for (uint32_t i = 0; i < c->nr; i++) {
    rt_row(rt);
    rt_str(rt, c->runs[i].path);
    rt_int(rt, c->runs[i].threads);
    rt_ns(rt, c->runs[i].wall);
    rt_ns(rt, c->runs[i].serial);
  }
}

/* Per-run lists of one region's row. */
typedef struct {
  double *thr, *tt, *sp, *ef, *st, *ranks;
  uint32_t nrank;
} rlists;

static void region_lists(const cmp *c, const creg *g, rlists *v) {
  uint32_t nr = c->nr, b = 0;
  const run *runs = c->runs;
  v->nrank = 0;
  while (b < nr && isnan(g->t[b]))
    b++;
  for (uint32_t i = 0; i < nr; i++) {
    bool have = !isnan(g->t[i]) && b < nr;
    v->tt[i] = isnan(g->t[i]) ? 0 : g->t[i];
    v->sp[i] = have && g->t[i] > 0 ? g->t[b] / g->t[i] : NAN;
    v->ef[i] = have && runs[i].threads ? v->sp[i] * runs[b].threads / runs[i].threads : NAN;
    bool degr = degraded(c, g, i);
    v->st[i] = degr ? g->t[i] : 0;
    if (degr)
      v->ranks[v->nrank++] = runs[i].threads;
  }
}

static void regions_table(const cmp *c, report *r) {
  uint32_t nr = c->nr;
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
  double *buf = otr_xmalloc(6 * (size_t)nr * sizeof *buf);
  rlists v = {buf, buf + nr, buf + 2 * nr, buf + 3 * nr, buf + 4 * nr, buf + 5 * nr, 0};
  for (uint32_t i = 0; i < nr; i++)
    v.thr[i] = c->runs[i].threads;
  int top = c->o->top;
  uint32_t shown = top > 0 && (uint32_t)top < c->nregs ? (uint32_t)top : c->nregs;
  for (uint32_t k = 0; k < shown; k++) {
    const creg *g = &c->regs[k];
    region_lists(c, g, &v);
    rt_row(t);
    rt_str(t, g->label);
    rt_str(t, otr_class_name(g->cls));
    rt_list(t, v.thr, nr);
    rt_list(t, v.tt, nr);
    rt_list(t, v.sp, nr);
    rt_list(t, v.ef, nr);
    rt_list(t, v.ranks, v.nrank);
    if (v.nrank)
      rt_int(t, (int64_t)v.ranks[0]);
    else
      rt_null(t);
    rt_list(t, v.st, nr);
    rt_ns(t, (uint64_t)g->strength);
  }
  rt_note(t, "time 0 = region absent in that run; speedup and efficiency relative to the "
             "smallest thread count where the region appears");
  free(buf);
}

/* The three strongest degradations, each against the fastest run with
 * fewer threads. */
static void findings_table(const cmp *c, report *r) {
  uint32_t nr = c->nr;
  const run *runs = c->runs;
  rtable *f = rt_new(r, "findings", "findings", "Findings", false);
  f->bullets = true;
  rt_col(f, "text", "Finding", RV_STR);
  rt_col(f, "impact_ns", "Time at stake", RV_NS);
  for (uint32_t k = 0; k < c->nregs && k < 3; k++) {
    const creg *g = &c->regs[k];
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
}

int sm_compare_main(char **paths, int n, const sm_opts *o, const char *format, FILE *out) {
  cmp c = {.o = o, .nr = (uint32_t)n};
  c.runs = otr_xcalloc(c.nr, sizeof *c.runs);
  bool ok = true;
  for (uint32_t i = 0; i < c.nr && ok; i++)
    ok = load(&c, paths[i], i);
  if (!ok || !runs_match(&c)) {
    free_all(&c);
    return 1;
  }
  sort_runs(&c);
  rank_regions(&c);
  report *r = rp_new(c.nr ? c.runs[0].path : "");
  r->version = OMPTRACE_VERSION;
  runs_table(&c, r);
  regions_table(&c, r);
  findings_table(&c, r);
  out_report(out, format, r);
  rp_free(r);
  free_all(&c);
  return 0;
}
