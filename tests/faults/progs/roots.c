/* main returns while the program's own pthreads are still running parallel
 * regions (faults.exit_roots). The initial thread runs one region, starts
 * ROOTS pthreads that each run parallel regions of TEAM threads in an
 * endless loop, waits until each has finished READY regions, prints
 * "ready 2" and returns. Each region's body computes for a while, so the
 * pthreads are rarely inside the runtime when it is torn down: libomp 14's
 * own race at exit (it frees its tables under other roots, __kmp_cleanup)
 * seldom fires without a tool, and with teams of one, where no worker waits
 * in a barrier meanwhile, hardly ever. Optional arguments: ROOTS, READY,
 * WORK, TEAM. */
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long ready_after = 20, work = 200000;
static int team = 2;
static atomic_int ready;
static atomic_long sink;

static void *root(void *arg) {
  (void)arg;
  for (long done = 0;; done++) {
    if (done == ready_after)
      atomic_fetch_add(&ready, 1);
#pragma omp parallel num_threads(team) /* @loop */
    {
      volatile long x = 0;
      for (long i = 0; i < work; i++)
        x += i;
      atomic_fetch_add_explicit(&sink, x, memory_order_relaxed);
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  int roots = argc > 1 ? atoi(argv[1]) : 3;
  if (argc > 2)
    ready_after = atol(argv[2]);
  if (argc > 3)
    work = atol(argv[3]);
  if (argc > 4)
    team = atoi(argv[4]);
  if (roots < 1 || roots > 16 || ready_after < 0 || work < 0 || team < 1 || team > 4) {
    fprintf(stderr, "usage: %s [ROOTS 1-16] [READY] [WORK] [TEAM 1-4]\n", argv[0]);
    return 2;
  }
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n) /* @first */
  n++;
  pthread_t t;
  for (int i = 0; i < roots; i++)
    if (pthread_create(&t, NULL, root, NULL) != 0) {
      perror("pthread_create");
      return 2;
    }
  struct timespec nap = {0, 1000000};
  while (atomic_load(&ready) < roots)
    nanosleep(&nap, NULL);
  printf("ready %d\n", n);
  return 0;
}
