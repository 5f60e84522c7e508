/* A run that never finishes: REGIONS parallel regions of 2 threads, each
 * with one `for` loop, then "ready" on stdout and a serial wait that only a
 * signal ends (the test kills it with SIGKILL); with the argument "exit" it
 * calls _exit(0) instead of waiting, with "many" it makes 4000 times as
 * many regions (enough to fill chunks of the log's buffers), with "cut" it
 * prints "cut <CLOCK_MONOTONIC ns>" after REGIONS regions and makes REGIONS
 * more before its "ready" line (omptrace-recover --cut at that instant). */
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define REGIONS 5

int main(int argc, char **argv) {
  double sum = 0;
  int cut = argc > 1 && strcmp(argv[1], "cut") == 0;
  int n = argc > 1 && strcmp(argv[1], "many") == 0 ? 4000 * REGIONS : cut ? 2 * REGIONS : REGIONS;
  for (int r = 0; r < n; r++) {
    if (cut && r == REGIONS) {
      struct timespec ts;
      clock_gettime(CLOCK_MONOTONIC, &ts);
      printf("cut %llu\n",
             (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec);
      fflush(stdout);
    }
#pragma omp parallel num_threads(2) reduction(+ : sum) /* @par */
    {
#pragma omp for /* @for */
      for (int i = 0; i < 1000; i++)
        sum += i * 0.5;
    }
  }
  printf("ready %d %.1f\n", n, sum);
  fflush(stdout);
  if (argc > 1 && strcmp(argv[1], "exit") == 0)
    _exit(0);
  for (;;)
    pause();
}
