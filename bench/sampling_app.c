/* ot_sampling_app: the workload of the sampling benchmark. `tiny` times
 * empty 2-thread parallel regions (the worst case for lazy context
 * capture: nearly every sample falls into a region of its own), `work`
 * times regions of about 1 ms of computation per thread. With a second
 * argument (a period in ns) every thread also gets a bare timer signal with
 * an empty handler, no tool: the cost of the signals alone. Prints one line
 * of key=value pairs: the median time per region over the timed blocks. */
#define _GNU_SOURCE
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

__attribute__((noinline)) static double compute(long n) {
  double x = 1;
  for (long i = 0; i < n; i++)
    x = x * 0.999999 + 1e-9;
  return x;
}

static volatile double sink;
static volatile sig_atomic_t bare_hits;
static void bare_handler(int sig) {
  (void)sig;
  bare_hits++;
}

/* The platform's floor: a per-thread CLOCK_MONOTONIC timer signal with an
 * empty handler on every thread, as the tool's sampler arms it. */
static void arm_bare_timers(long period_ns) {
  signal(SIGPROF, bare_handler);
#pragma omp parallel num_threads(2)
  {
    timer_t t;
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGPROF;
    sev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
    struct itimerspec its = {{0, period_ns}, {0, period_ns}};
    if (timer_create(CLOCK_MONOTONIC, &sev, &t) == 0)
      timer_settime(t, 0, &its, NULL);
  }
}

static void tiny_block(int regions) {
  for (int r = 0; r < regions; r++) {
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 0)
        sink = r;
    }
  }
}

static void work_block(int regions, long iters) {
  for (int r = 0; r < regions; r++) {
#pragma omp parallel num_threads(2)
    sink = compute(iters);
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "tiny";
  int blocks = 11, regions;
  long iters = 400000; /* about 1 ms at -O2 on the reference VM */
  int tiny = strcmp(mode, "tiny") == 0;
  if (!tiny && strcmp(mode, "work") != 0) {
    fprintf(stderr, "usage: ot_sampling_app tiny|work [bare-signal period ns]\n");
    return 2;
  }
  if (argc > 2 && atol(argv[2]) > 0)
    arm_bare_timers(atol(argv[2]));
  regions = tiny ? 20000 : 40;
  double t[64];
  for (int b = -1; b < blocks; b++) { /* block -1 warms up */
    double t0 = now_ns();
    if (tiny)
      tiny_block(regions);
    else
      work_block(regions, iters);
    if (b >= 0)
      t[b] = (now_ns() - t0) / regions;
  }
  qsort(t, (size_t)blocks, sizeof t[0], cmp);
  printf("mode=%s regions=%d median_ns=%.1f min_ns=%.1f\n", mode, regions * blocks, t[blocks / 2],
         t[0]);
  return 0;
}
