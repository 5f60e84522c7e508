/* A small traced application for the environment tests: prints a fixed
 * line and exits with the status given as its argument (default 0). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum) /* @par */
  sum += 21;
  printf("app output %d\n", sum);
  return argc > 1 ? atoi(argv[1]) : 0;
}
