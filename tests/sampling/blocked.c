/* Known work and known waits for the CPU-time sampling clock: thread 0
 * computes while every other thread of the team waits in an explicit
 * barrier (KMP_BLOCKTIME=0: blocked, not spinning). Prints each thread's
 * CPU time inside the barrier and thread 0's CPU time in its work, read
 * from the thread's own CPU clock, for the checker's bounds. SMP_THREADS
 * sets the team size (default 2). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ITERS 60000000L

static volatile double sink;

__attribute__((noinline)) static double work(long n) {
  double x = 1;
  for (long i = 0; i < n; i++)
    x = x * 0.999999 + 1e-9;
  return x;
}

static long cpu_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

int main(void) {
  const char *env = getenv("SMP_THREADS");
  int n = env ? atoi(env) : 2;
  static long in_barrier[1024], in_work;
  if (n < 2 || n > 1024)
    return 2;
#pragma omp parallel num_threads(n) /* LINE_PARALLEL */
  {
    int me = omp_get_thread_num();
    if (me == 0) {
      long t0 = cpu_us();
      sink = work(ITERS); /* LINE_WORK */
      in_work = cpu_us() - t0;
    }
    long b0 = cpu_us();
#pragma omp barrier /* LINE_BARRIER */
    in_barrier[me] = cpu_us() - b0;
  }
  printf("threads %d work_cpu_us %ld\n", n, in_work);
  for (int i = 0; i < n; i++)
    printf("barrier_cpu_us %d %ld\n", i, in_barrier[i]);
  return 0;
}
