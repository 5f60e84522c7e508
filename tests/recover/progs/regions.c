/* A run that never finishes: REGIONS parallel regions of 2 threads, each
 * with one `for` loop, then "ready" on stdout and a serial wait that only a
 * signal ends (the test kills it with SIGKILL); with the argument "exit" it
 * calls _exit(0) instead of waiting. */
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define REGIONS 5

int main(int argc, char **argv) {
  double sum = 0;
  for (int r = 0; r < REGIONS; r++) {
#pragma omp parallel num_threads(2) reduction(+ : sum) /* @par */
    {
#pragma omp for /* @for */
      for (int i = 0; i < 1000; i++)
        sum += i * 0.5;
    }
  }
  printf("ready %d %.1f\n", REGIONS, sum);
  fflush(stdout);
  if (argc > 1 && strcmp(argv[1], "exit") == 0)
    _exit(0);
  for (;;)
    pause();
}
