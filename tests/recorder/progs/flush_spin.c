/* A spin-wait that writes a flush per spin, as NPB LU's pipelines do
 * (recorder.flush_hint.*): each of 2 threads spins SPINS times on the
 * other's flag with a `flush` per spin, so the program makes exactly
 * 2 * SPINS flushes at one site. With GAP_US, each spin first busy-waits
 * at least that long (a wait slower than the hint's rate however loaded
 * the machine is). Prints "flushes N". */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int flag[2];
static volatile int last_seen;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  long spins = argc > 1 ? atol(argv[1]) : 60000;
  double gap = argc > 2 ? atof(argv[2]) * 1e-6 : 0;
  if (spins < 1 || gap < 0) {
    fprintf(stderr, "usage: %s [SPINS] [GAP_US]\n", argv[0]);
    return 2;
  }
  long total = 0;
#pragma omp parallel num_threads(2) reduction(+ : total)
  {
    int me = omp_get_thread_num(), other = 1 - me;
    flag[me] = 1;
    for (long i = 0; i < spins; i++) {
      if (gap > 0)
        for (double t0 = now(); now() - t0 < gap;)
          ;
#pragma omp flush /* @spin */
      last_seen = flag[other];
      total++;
    }
  }
  printf("flushes %ld\n", total);
  return 0;
}
