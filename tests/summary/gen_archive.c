/* Writes small OTF2 archives whose every figure is known exactly, for the
 * omptrace-summary tests (the expected values live in check_summary.py).
 * Usage: gen_archive SCENARIO DIR [ARG]; DIR must not exist yet. */
#include "otfgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAR OTF2_PARADIGM_OPENMP
#define R(name, role, file, line) g_region(g, name, OTF2_REGION_ROLE_##role, PAR, file, line)
#define UND OTF2_UNDEFINED_CALLING_CONTEXT

/* Team begin + Enter(parallel) on locations 0..n-1 at t. */
static void team_in(gen *g, int n, uint64_t t, uint32_t team, uint32_t par) {
  for (int l = 0; l < n; l++) {
    g_team_begin(g, l, t, team);
    g_enter(g, l, t, par);
  }
}

static void team_out(gen *g, int l, uint64_t t, uint32_t team, uint32_t par) {
  g_leave(g, l, t, par);
  g_team_end(g, l, t, team);
}

/* shift: the run started that many ns later (a swapped-in event file). */
static void imbalance(const char *dir, uint64_t shift) {
  gen *g = g_open(dir, "imbalance", 2);
  g_shift(g, shift);
  uint32_t main_ = g_region(g, "main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, "a.c", 1);
  uint32_t P = R("parallel @ a.c:10", PARALLEL, "a.c", 10);
  uint32_t L = R("loop @ a.c:12", LOOP, "a.c", 12);
  uint32_t IB12 = R("implicit barrier @ a.c:12", IMPLICIT_BARRIER, "a.c", 12);
  uint32_t IBW = R("implicit barrier wait @ a.c:12", IMPLICIT_BARRIER, "a.c", 12);
  uint32_t IB10 = R("implicit barrier @ a.c:10", IMPLICIT_BARRIER, "a.c", 10);
  uint32_t team = g_team(g, 2);
  g_enter(g, 0, 0, main_);
  /* instance 1: thread 0 busy 200 us, thread 1 busy 100 us */
  g_fork(g, 0, 100000, 2);
  team_in(g, 2, 101000, team, P);
  g_enter(g, 0, 101000, L);
  g_enter(g, 1, 101000, L);
  g_leave(g, 1, 201000, L);
  g_enter(g, 1, 201000, IB12);
  g_enter(g, 1, 201000, IBW);
  g_leave(g, 0, 301000, L);
  g_enter(g, 0, 301000, IB12);
  g_leave(g, 0, 302000, IB12);
  g_leave(g, 1, 302000, IBW);
  g_leave(g, 1, 302000, IB12);
  for (int l = 0; l < 2; l++) {
    g_enter(g, l, 302000, IB10);
    g_leave(g, l, 303000, IB10);
    team_out(g, l, 303000, team, P);
  }
  g_join(g, 0, 304000);
  /* instance 2: thread 0 busy 100 us, thread 1 busy 199 us */
  g_fork(g, 0, 404000, 2);
  team_in(g, 2, 405000, team, P);
  g_enter(g, 0, 405000, L);
  g_enter(g, 1, 405000, L);
  g_leave(g, 0, 505000, L);
  g_enter(g, 0, 505000, IB12);
  g_leave(g, 1, 604000, L);
  g_enter(g, 1, 604000, IB12);
  g_leave(g, 0, 605000, IB12);
  g_leave(g, 1, 605000, IB12);
  for (int l = 0; l < 2; l++) {
    g_enter(g, l, 605000, IB10);
    g_leave(g, l, 606000, IB10);
    team_out(g, l, 606000, team, P);
  }
  g_join(g, 0, 607000);
  g_leave(g, 0, 707000, main_);
  g_close(g);
}

/* A nowait loop at a.c:12 followed by the end-of-parallel barrier (a.c:10):
 * the barrier's waits belong to the parallel region, not to the loop.
 * Thread 0: loop 100 us, barrier 1 us; thread 1: loop 50 us, barrier 51 us. */
static void nowait(const char *dir) {
  gen *g = g_open(dir, "nowait", 2);
  uint32_t P = R("parallel @ a.c:10", PARALLEL, "a.c", 10);
  uint32_t L = R("loop @ a.c:12", LOOP, "a.c", 12);
  uint32_t IB10 = R("implicit barrier @ a.c:10", IMPLICIT_BARRIER, "a.c", 10);
  uint32_t team = g_team(g, 2);
  g_fork(g, 0, 1000, 2);
  team_in(g, 2, 2000, team, P);
  g_enter(g, 0, 2000, L);
  g_leave(g, 0, 102000, L);
  g_enter(g, 0, 102000, IB10);
  g_leave(g, 0, 103000, IB10);
  g_enter(g, 1, 2000, L);
  g_leave(g, 1, 52000, L);
  g_enter(g, 1, 52000, IB10);
  g_leave(g, 1, 103000, IB10);
  for (int l = 0; l < 2; l++)
    team_out(g, l, 103000, team, P);
  g_join(g, 0, 104000);
  g_close(g);
}

/* One mutex acquisition: construct region, wait region, acquire, optional
 * sblock; returns nothing, the caller releases. */
static void locks(const char *dir) {
  gen *g = g_open(dir, "locks", 3);
  uint32_t P = R("parallel @ b.c:5", PARALLEL, "b.c", 5);
  uint32_t C = R("critical @ b.c:7", CRITICAL, "b.c", 7);
  uint32_t CW = R("critical wait @ b.c:7", CRITICAL, "b.c", 7);
  uint32_t CS = R("critical sblock @ b.c:7", CRITICAL_SBLOCK, "b.c", 7);
  uint32_t S20 = R("omp_set_lock @ b.c:20", WRAPPER, "b.c", 20);
  uint32_t W20 = R("lock wait @ b.c:20", ARTIFICIAL, "b.c", 20);
  uint32_t S30 = R("omp_set_lock @ b.c:30", WRAPPER, "b.c", 30);
  uint32_t W30 = R("lock wait @ b.c:30", ARTIFICIAL, "b.c", 30);
  uint32_t IB = R("implicit barrier @ b.c:5", IMPLICIT_BARRIER, "b.c", 5);
  uint32_t team = g_team(g, 3);
  g_fork(g, 0, 0, 3);
  team_in(g, 3, 1000, team, P);
  /* critical: holds [1000,11000] t0, [11000,16000] t1, [16000,18000] t2 */
  uint64_t ent[3] = {1000, 2000, 3000}, acq[3] = {1000, 11000, 16000},
           rel[3] = {11000, 16000, 18000};
  for (int l = 0; l < 3; l++) {
    g_enter(g, l, ent[l], C);
    g_enter(g, l, ent[l], CW);
    g_leave(g, l, acq[l], CW);
    g_acquire(g, l, acq[l], 0, (uint32_t)l + 1);
    g_enter(g, l, acq[l], CS);
    g_leave(g, l, rel[l], CS);
    g_release(g, l, rel[l], 0, (uint32_t)l + 1);
    g_leave(g, l, rel[l], C);
  }
  /* lock 1: t0 via b.c:20 holds [20000,30000], t1 via b.c:30 [30000,34000],
   * t2 via b.c:20 [34000,35000] */
  uint64_t lent[3] = {20000, 21000, 22000}, lacq[3] = {20000, 30000, 34000},
           lrel[3] = {30000, 34000, 35000};
  uint32_t site[3] = {S20, S30, S20}, wait[3] = {W20, W30, W20};
  for (int l = 0; l < 3; l++) {
    g_enter(g, l, lent[l], site[l]);
    g_enter(g, l, lent[l], wait[l]);
    g_leave(g, l, lacq[l], wait[l]);
    g_acquire(g, l, lacq[l], 1, (uint32_t)l + 1);
    g_leave(g, l, lacq[l], site[l]);
    g_release(g, l, lrel[l], 1, (uint32_t)l + 1);
    g_enter(g, l, lrel[l], IB);
    g_leave(g, l, 40000, IB);
    team_out(g, l, 40000, team, P);
  }
  g_join(g, 0, 40000);
  g_close(g);
}

/* An ordered section (o.c:5) in iteration order 1..4, t0 and t1 taking
 * turns: holds [1000,3000] t0, [3500,5000] t1, [5600,6400] t0, [6500,7000]
 * t1. Waits: it 2 from 2000 (1000 blamed on it 1, 500 hand-over); it 3 from
 * 5500 (its predecessor released at 5000: 100 hand-over); it 4 from 5000,
 * before t0 reached its ordered section at 5500 and took it at 5600 (600
 * before the previous acquirer), 800 blamed, 100 hand-over. */
static void ordered(const char *dir) {
  gen *g = g_open(dir, "ordered", 2);
  uint32_t P = R("parallel @ o.c:3", PARALLEL, "o.c", 3);
  uint32_t O = R("ordered @ o.c:5", ORDERED, "o.c", 5);
  uint32_t OW = R("ordered wait @ o.c:5", ORDERED, "o.c", 5);
  uint32_t OS = R("ordered sblock @ o.c:5", ORDERED_SBLOCK, "o.c", 5);
  uint32_t IB = R("implicit barrier @ o.c:3", IMPLICIT_BARRIER, "o.c", 3);
  uint32_t team = g_team(g, 2);
  g_fork(g, 0, 0, 2);
  team_in(g, 2, 1000, team, P);
  static const uint64_t ent[4] = {1000, 2000, 5500, 5000}, acq[4] = {1000, 3500, 5600, 6500},
                        rel[4] = {3000, 5000, 6400, 7000};
  for (int it = 0; it < 4; it++) {
    int l = it % 2;
    g_enter(g, l, ent[it], O);
    g_enter(g, l, ent[it], OW);
    g_leave(g, l, acq[it], OW);
    g_acquire(g, l, acq[it], 0, (uint32_t)it + 1);
    g_enter(g, l, acq[it], OS);
    g_leave(g, l, rel[it], OS);
    g_release(g, l, rel[it], 0, (uint32_t)it + 1);
    g_leave(g, l, rel[it], O);
  }
  for (int l = 0; l < 2; l++) {
    g_enter(g, l, 7000 - (uint64_t)(1 - l) * 600, IB);
    g_leave(g, l, 8000, IB);
    team_out(g, l, 8000, team, P);
  }
  g_join(g, 0, 8000);
  g_close(g);
}

static void tasks(const char *dir) {
  gen *g = g_open(dir, "tasks", 2);
  uint32_t P = R("parallel @ c.c:3", PARALLEL, "c.c", 3);
  uint32_t S = R("single @ c.c:4", SINGLE, "c.c", 4);
  uint32_t SB = R("single sblock @ c.c:4", SINGLE_SBLOCK, "c.c", 4);
  uint32_t TC = R("task create @ c.c:5", TASK_CREATE, "c.c", 5);
  uint32_t T = R("task @ c.c:5", TASK, "c.c", 5);
  uint32_t TW = R("taskwait @ c.c:8", TASK_WAIT, "c.c", 8);
  uint32_t IB = R("implicit barrier @ c.c:3", IMPLICIT_BARRIER, "c.c", 3);
  uint32_t din = g_param(g, "omp depend(in)");
  uint32_t dinout = g_param(g, "omp depend(inout)");
  uint32_t team = g_team(g, 2);
  g_fork(g, 0, 0, 2);
  team_in(g, 2, 0, team, P);
  g_enter(g, 0, 0, S);
  g_enter(g, 0, 0, SB);
  for (uint32_t k = 1; k <= 4; k++) {
    uint64_t t = 1000 * k;
    g_enter(g, 0, t, TC);
    g_task_create(g, 0, t, team, 0, k);
    if (k == 1)
      g_param_uint(g, 0, t, dinout, 0x10);
    if (k == 2)
      g_param_uint(g, 0, t, din, 0x10);
    g_leave(g, 0, t + 1000, TC);
  }
  g_enter(g, 0, 5000, TW);
  /* task 3 runs [6000,26000] with task 4 nested in it [10000,11000] */
  g_task_switch(g, 0, 6000, team, 0, 3);
  g_enter(g, 0, 6000, T);
  g_task_switch(g, 0, 10000, team, 0, 4);
  g_enter(g, 0, 10000, T);
  g_leave(g, 0, 11000, T);
  g_task_complete(g, 0, 11000, team, 0, 4);
  g_task_switch(g, 0, 11000, team, 0, 3);
  g_leave(g, 0, 26000, T);
  g_task_complete(g, 0, 26000, team, 0, 3);
  g_task_switch(g, 0, 26000, team, 0, 0);
  /* thread 1 runs tasks 1 [2000,12000] and 2 [12000,40000] in the barrier */
  g_enter(g, 1, 0, S);
  g_leave(g, 1, 1000, S);
  g_enter(g, 1, 1000, IB);
  g_task_switch(g, 1, 2000, team, 0, 1);
  g_enter(g, 1, 2000, T);
  g_leave(g, 1, 12000, T);
  g_task_complete(g, 1, 12000, team, 0, 1);
  g_task_switch(g, 1, 12000, team, 0, 2);
  g_enter(g, 1, 12000, T);
  g_leave(g, 1, 40000, T);
  g_task_complete(g, 1, 40000, team, 0, 2);
  g_task_switch(g, 1, 40000, team, 1, 0);
  g_leave(g, 0, 40000, TW);
  g_leave(g, 0, 40000, SB);
  g_leave(g, 0, 40000, S);
  g_enter(g, 0, 40000, IB);
  for (int l = 0; l < 2; l++) {
    g_leave(g, l, 41000, IB);
    team_out(g, l, 41000, team, P);
  }
  g_join(g, 0, 41000);
  g_close(g);
}

static void counters(const char *dir) {
  gen *g = g_open(dir, "counters", 2);
  uint32_t P = R("parallel @ d.c:3", PARALLEL, "d.c", 3);
  uint32_t L = R("loop @ d.c:4", LOOP, "d.c", 4);
  uint32_t m = g_metrics(g, "PAPI_TOT_INS", "PAPI_TOT_CYC");
  uint32_t team = g_team(g, 2);
  /* per thread: ins/cyc at P enter, L enter, L leave, P leave */
  uint64_t v[2][4][2] = {{{100, 1000}, {150, 1200}, {4150, 3200}, {4200, 3400}},
                         {{0, 0}, {10, 100}, {1010, 2100}, {1020, 2300}}};
  g_fork(g, 0, 0, 2);
  for (int l = 0; l < 2; l++) {
    g_team_begin(g, l, 0, team);
    g_metric(g, l, 0, m, v[l][0][0], v[l][0][1]);
    g_enter(g, l, 0, P);
    g_metric(g, l, 1000, m, v[l][1][0], v[l][1][1]);
    g_enter(g, l, 1000, L);
    g_metric(g, l, 11000, m, v[l][2][0], v[l][2][1]);
    g_leave(g, l, 11000, L);
    g_metric(g, l, 12000, m, v[l][3][0], v[l][3][1]);
    team_out(g, l, 12000, team, P);
  }
  g_join(g, 0, 12000);
  g_close(g);
}

static void samples(const char *dir) {
  gen *g = g_open(dir, "samples", 2);
  uint32_t P = R("parallel @ e.c:10", PARALLEL, "e.c", 10);
  uint32_t mainr = g_region(g, "main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, "e.c", 1);
  uint32_t comp = g_region(g, "compute", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, "e.c", 20);
  uint32_t bar = g_region(g, "<OMP-implicit_barrier>", OTF2_REGION_ROLE_ARTIFICIAL, PAR, "", 0);
  uint32_t lw = g_region(g, "<OMP-lock_wait>", OTF2_REGION_ROLE_ARTIFICIAL, PAR, "", 0);
  uint32_t c0 = g_context(g, mainr, "e.c", 5, UND);
  uint32_t c1 = g_context(g, comp, "e.c", 22, c0);
  uint32_t c2 = g_context(g, comp, "e.c", 23, c0);
  uint32_t c3 = g_context(g, bar, "e.c", 10, c0);
  uint32_t c4 = g_context(g, lw, "e.c", 22, c1);
  uint32_t ovh = g_region(g, "<OMP-overhead>", OTF2_REGION_ROLE_ARTIFICIAL, PAR, "", 0);
  uint32_t c5 = g_context(g, ovh, "e.c", 10, c0);
  uint32_t gen_ = g_generator(g, 1000000);
  uint32_t team = g_team(g, 2);
  g_fork(g, 0, 0, 2);
  team_in(g, 2, 0, team, P);
  uint64_t t = 1000;
  uint32_t s0[] = {c1, c1, c1, c1, c1, c2, c2, c2, c3, c5};
  uint32_t s1[] = {c1, c1, c1, c1, c4, c4, c4, c4, c4, c4};
  for (int i = 0; i < 10; i++, t += 1000000) {
    g_sample(g, 0, t, s0[i], gen_);
    g_sample(g, 1, t, s1[i], gen_);
  }
  for (int l = 0; l < 2; l++)
    team_out(g, l, t, team, P);
  g_join(g, 0, t);
  g_close(g);
}

/* Score-P naming: "!$omp ..." regions, the loop's barrier inside the loop,
 * omp_set_lock without a lock-wait child and without source location. */
static void scorep(const char *dir) {
  gen *g = g_open(dir, "scorep", 2);
  uint32_t P = R("!$omp parallel @f.c:3", PARALLEL, "f.c", 3);
  uint32_t F = R("!$omp for @f.c:5", LOOP, "f.c", 5);
  uint32_t IBF = R("!$omp implicit barrier @f.c:7", IMPLICIT_BARRIER, "f.c", 7);
  uint32_t IB = R("!$omp implicit barrier @f.c:3", IMPLICIT_BARRIER, "f.c", 3);
  uint32_t SL = R("omp_set_lock", WRAPPER, "", 0);
  uint32_t UL = R("omp_unset_lock", WRAPPER, "", 0);
  uint32_t team = g_team(g, 2);
  g_fork(g, 0, 0, 2);
  team_in(g, 2, 0, team, P);
  g_enter(g, 0, 0, F);
  g_enter(g, 1, 0, F);
  g_enter(g, 1, 10000, IBF);
  g_enter(g, 0, 30000, IBF);
  for (int l = 0; l < 2; l++) {
    g_leave(g, l, 31000, IBF);
    g_leave(g, l, 31000, F);
  }
  g_enter(g, 0, 31000, SL);
  g_acquire(g, 0, 31000, 0, 1);
  g_leave(g, 0, 31000, SL);
  g_enter(g, 1, 32000, SL);
  g_enter(g, 0, 41000, UL);
  g_release(g, 0, 41000, 0, 1);
  g_leave(g, 0, 41000, UL);
  g_enter(g, 0, 41000, IB);
  g_acquire(g, 1, 41000, 0, 2);
  g_leave(g, 1, 41000, SL);
  g_enter(g, 1, 45000, UL);
  g_release(g, 1, 45000, 0, 2);
  g_leave(g, 1, 45000, UL);
  g_enter(g, 1, 45000, IB);
  for (int l = 0; l < 2; l++) {
    g_leave(g, l, 46000, IB);
    team_out(g, l, 46000, team, P);
  }
  g_join(g, 0, 46000);
  g_close(g);
}

/* The same program at n threads: g.c:10 scales, g.c:20 gets slower with
 * more threads (its time scaled by pct percent), g.c:30 stays flat. */
static void degrade(const char *dir, int n, uint64_t pct) {
  gen *g = g_open(dir, "degrade", n);
  uint32_t P[3] = {R("parallel @ g.c:10", PARALLEL, "g.c", 10),
                   R("parallel @ g.c:20", PARALLEL, "g.c", 20),
                   R("parallel @ g.c:30", PARALLEL, "g.c", 30)};
  uint64_t dur[3] = {400000 / (uint64_t)n, 1000 * (uint64_t)n * pct, 50000};
  uint32_t team = g_team(g, n);
  uint64_t t = 0;
  for (int r = 0; r < 3; r++) {
    g_fork(g, 0, t, (uint32_t)n);
    team_in(g, n, t, team, P[r]);
    for (int l = 0; l < n; l++)
      team_out(g, l, t + dur[r], team, P[r]);
    t += dur[r];
    g_join(g, 0, t);
    t += 1000;
  }
  g_close(g);
}

/* A large archive for the reading-speed measurement: repeated parallel
 * loops on 2 threads, about `events` records. */
static void big(const char *dir, uint64_t events) {
  gen *g = g_open(dir, "big", 2);
  uint32_t P = R("parallel @ h.c:10", PARALLEL, "h.c", 10);
  uint32_t L = R("loop @ h.c:11", LOOP, "h.c", 11);
  uint32_t IB = R("implicit barrier @ h.c:11", IMPLICIT_BARRIER, "h.c", 11);
  uint32_t IB10 = R("implicit barrier @ h.c:10", IMPLICIT_BARRIER, "h.c", 10);
  uint32_t team = g_team(g, 2);
  uint64_t t = 0;
  for (uint64_t i = 0; i < events / 22 + 1; i++) {
    g_fork(g, 0, t, 2);
    team_in(g, 2, t + 100, team, P);
    for (int l = 0; l < 2; l++) {
      g_enter(g, l, t + 100, L);
      g_leave(g, l, t + 1000 + 300 * (uint64_t)l + i % 7, L);
      g_enter(g, l, t + 1000 + 300 * (uint64_t)l + i % 7, IB);
      g_leave(g, l, t + 1400, IB);
      g_enter(g, l, t + 1400, IB10);
      g_leave(g, l, t + 1500, IB10);
      team_out(g, l, t + 1500, team, P);
    }
    g_join(g, 0, t + 1600);
    t += 2000;
  }
  g_close(g);
}

/* Three locations, the last one without any event (and so without an event
 * file): the reader must skip it, not fail. */
static void idle_location(const char *dir) {
  gen *g = g_open(dir, "idle_location", 3);
  uint32_t P = R("parallel @ i.c:3", PARALLEL, "i.c", 3);
  uint32_t team = g_team(g, 2);
  g_fork(g, 0, 0, 2);
  team_in(g, 2, 0, team, P);
  for (int l = 0; l < 2; l++)
    team_out(g, l, 1000, team, P);
  g_join(g, 0, 1000);
  g_close(g);
}

/* A barrier 40 user-function calls deep inside a parallel region: deeper
 * than the reader's initial region stack. */
static void deep(const char *dir) {
  gen *g = g_open(dir, "deep", 1);
  uint32_t P = R("parallel @ k.c:3", PARALLEL, "k.c", 3);
  uint32_t F = g_region(g, "recurse", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, "k.c", 7);
  uint32_t B = R("barrier @ k.c:9", BARRIER, "k.c", 9);
  uint32_t team = g_team(g, 1);
  g_fork(g, 0, 0, 1);
  team_in(g, 1, 0, team, P);
  for (uint64_t d = 0; d < 40; d++)
    g_enter(g, 0, (d + 1) * 1000, F);
  g_enter(g, 0, 41000, B);
  g_leave(g, 0, 51000, B);
  for (int d = 0; d < 40; d++)
    g_leave(g, 0, 52000, F);
  team_out(g, 0, 53000, team, P);
  g_join(g, 0, 53000);
  g_close(g);
}

/* Records lost while recording, written as the recorder does: at the gap's
 * start the open regions are closed (thread 0 keeps its fork open: no join
 * is written), MeasurementOnOff(OFF), then ON where recording resumed.
 * Thread 0 is off [254, 6254] us, thread 1 [254, 6250] us: 6 ms of the run
 * are lost; 500 us are measured, 245 us of them serial. Of two samples, the
 * one taken in the gap is not counted. The OFF records say that thread 0
 * lost 1500 records and thread 1 700, except on the threads whose bit is
 * set in uncounted: their OFF has no count (Score-P, older archives). */
static void gap(const char *dir, unsigned uncounted) {
  gen *g = g_open(dir, "gap", 2);
  uint32_t main_ = g_region(g, "main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, "a.c", 1);
  uint32_t P = R("parallel @ a.c:10", PARALLEL, "a.c", 10);
  uint32_t ctx = g_context(g, main_, "a.c", 11, UND);
  uint32_t timer = g_generator(g, 1000000);
  uint32_t team = g_team(g, 2);
  g_enter(g, 0, 0, main_);
  uint64_t fork[3] = {1000, 203000, 6300000}, end[3] = {102000, 254000, 6401000};
  for (int k = 0; k < 3; k++) {
    g_fork(g, 0, fork[k], 2);
    team_in(g, 2, fork[k] + 1000, team, P);
    if (k == 0)
      g_sample(g, 0, 50000, ctx, timer); /* counted */
    for (int l = 0; l < 2; l++)
      team_out(g, l, end[k], team, P);
    if (k == 1) {
      static const uint64_t lost[2] = {1500, 700};
      for (int l = 0; l < 2; l++) {
        if (uncounted & (1u << l))
          g_onoff(g, l, end[k], 0);
        else
          g_off_lost(g, l, end[k], lost[l]);
      }
      g_sample(g, 1, 3000000, ctx, timer); /* in the gap: not counted */
      g_onoff(g, 1, 6250000, 1);
      g_onoff(g, 0, 6254000, 1);
      g_join(g, 0, 6255000); /* the fork was closed at the gap: nothing to join */
    } else {
      g_join(g, 0, end[k] + 1000);
    }
  }
  g_leave(g, 0, 6500000, main_);
  g_close(g);
}

/* Names with HTML markup, on 3 threads; ARG 1: no time range in the
 * ClockProperties. Thread 0 forks at 0 and works 1..61 us, thread 1 works
 * 1..31 us, thread 2 1..11 us, then each waits in the barrier until 62 us;
 * join at 63 us, thread 0 in a serial function until 100 us. */
static void markup(const char *dir, int no_range) {
  gen *g = g_open(dir, "<script>alert('x')</script> & \"co\"", 3);
  if (no_range)
    g_no_range(g);
  uint32_t P = R("parallel @ <b>&\"'.c:5", PARALLEL, "<b>&\"'.c", 5);
  uint32_t B = R("barrier @ <b>&\"'.c:9", BARRIER, "<b>&\"'.c", 9);
  uint32_t U = g_region(g, "<i>fn</i>", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, "u.c", 1);
  uint32_t team = g_team(g, 3);
  static const uint64_t work_end[3] = {61000, 31000, 11000};
  g_fork(g, 0, 0, 3);
  team_in(g, 3, 1000, team, P);
  for (int l = 0; l < 3; l++) {
    g_enter(g, l, work_end[l], B);
    g_leave(g, l, 62000, B);
    team_out(g, l, 62000, team, P);
  }
  g_join(g, 0, 63000);
  g_enter(g, 0, 63000, U);
  g_leave(g, 0, 100000, U);
  g_close(g);
}

static void noomp(const char *dir) {
  gen *g = g_open(dir, "noomp", 1);
  uint32_t m = g_region(g, "main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, "x.c", 1);
  g_enter(g, 0, 0, m);
  g_leave(g, 0, 1000, m);
  g_close(g);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr,
            "usage: gen_archive imbalance [SHIFT_NS]|gap [UNCOUNTED]|nowait|locks|ordered|tasks|"
            "counters|samples|scorep|degrade N [PCT]|big EVENTS|idle_location|deep|"
            "noomp|markup [NO_RANGE] DIR [ARG [ARG2]]\n");
    return 2;
  }
  const char *s = argv[1], *dir = argv[2];
  long arg = argc > 3 ? atol(argv[3]) : 0, arg2 = argc > 4 ? atol(argv[4]) : 100;
  if (!strcmp(s, "imbalance"))
    imbalance(dir, (uint64_t)arg);
  else if (!strcmp(s, "gap"))
    gap(dir, (unsigned)arg);
  else if (!strcmp(s, "nowait"))
    nowait(dir);
  else if (!strcmp(s, "locks"))
    locks(dir);
  else if (!strcmp(s, "tasks"))
    tasks(dir);
  else if (!strcmp(s, "ordered"))
    ordered(dir);
  else if (!strcmp(s, "counters"))
    counters(dir);
  else if (!strcmp(s, "samples"))
    samples(dir);
  else if (!strcmp(s, "scorep"))
    scorep(dir);
  else if (!strcmp(s, "degrade") && arg > 0 && arg <= G_MAXLOC && arg2 >= 0)
    degrade(dir, (int)arg, (uint64_t)arg2);
  else if (!strcmp(s, "big") && arg > 0)
    big(dir, (uint64_t)arg);
  else if (!strcmp(s, "idle_location"))
    idle_location(dir);
  else if (!strcmp(s, "deep"))
    deep(dir);
  else if (!strcmp(s, "noomp"))
    noomp(dir);
  else if (!strcmp(s, "markup"))
    markup(dir, arg == 1);
  else {
    fprintf(stderr, "gen_archive: unknown scenario %s\n", s);
    return 2;
  }
  return 0;
}
