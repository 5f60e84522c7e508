/* BOTS-style health for bench/e2e.py (`ot_scale health L S`): a tree of
 * villages, 4 children each, L levels deep, simulated for S time steps.
 * Each step simulates every village in a task of its own (its children's
 * tasks first, then a taskwait), so tasks are coarser and of uneven,
 * data-dependent size, unlike fib. A village draws new patients from its
 * population, treats them for a random time when a doctor is free and
 * sends some up to its parent's hospital, which takes them in after the
 * taskwait: every draw comes from the village's own generator, so the
 * work and the printed totals are the same at every thread count. */
#include "health.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define NCHILD 4
#define POPULATION 2000
#define DOCTORS 16

typedef struct village {
  struct village *child[NCHILD];
  int nchild;
  unsigned seed;
  int waiting, sent;   /* patients waiting; sent up this step */
  int busy[DOCTORS];   /* steps left of each doctor's patient (0: free) */
  long treated, moved; /* totals */
} village;

/* A draw in [0, 1) from the village's own generator (LCG). */
static double draw(village *v) {
  v->seed = v->seed * 1103515245u + 12345u;
  return (double)(v->seed >> 8) / (double)(1u << 24);
}

static village *build(int level, unsigned *id) {
  village *v = calloc(1, sizeof *v);
  if (!v)
    exit(1);
  v->seed = 2654435761u * ++*id;
  if (level > 1)
    for (v->nchild = 0; v->nchild < NCHILD; v->nchild++)
      v->child[v->nchild] = build(level - 1, id);
  return v;
}

static void step(village *v, int top) {
  for (int i = 0; i < v->nchild; i++) {
    village *c = v->child[i];
#pragma omp task firstprivate(c)
    step(c, 0);
  }
#pragma omp taskwait
  for (int i = 0; i < v->nchild; i++) { /* the children's referrals */
    v->waiting += v->child[i]->sent;
    v->child[i]->sent = 0;
  }
  for (int p = 0; p < POPULATION; p++)
    if (draw(v) < 0.002)
      v->waiting++;
  for (int d = 0; d < DOCTORS; d++) {
    if (v->busy[d] && --v->busy[d] == 0)
      v->treated++;
    if (!v->busy[d] && v->waiting > 0) {
      v->waiting--;
      if (!top && draw(v) < 0.1) { /* referred to the parent's hospital */
        v->sent++;
        v->moved++;
      } else {
        v->busy[d] = 1 + (int)(draw(v) * 6);
      }
    }
  }
}

static void totals(const village *v, long *treated, long *moved, long *waiting) {
  *treated += v->treated;
  *moved += v->moved;
  *waiting += v->waiting;
  for (int i = 0; i < v->nchild; i++)
    totals(v->child[i], treated, moved, waiting);
}

static void release(village *v) {
  for (int i = 0; i < v->nchild; i++)
    release(v->child[i]);
  free(v);
}

void health_run(int levels, int steps) {
  unsigned id = 0;
  village *root = build(levels, &id);
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  for (int s = 0; s < steps; s++)
    step(root, 1);
  double t = omp_get_wtime() - t0;
  long treated = 0, moved = 0, waiting = 0;
  totals(root, &treated, &moved, &waiting);
  printf("health %d levels (%u villages) %d steps: %ld treated, %ld referred, %ld waiting: "
         "%.3f s\n",
         levels, id, steps, treated, moved, waiting, t);
  release(root);
}
