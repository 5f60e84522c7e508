/* Compiled with gcc -fopenmp and run on libomp through its GOMP ABI:
 * sections (GOMP_sections_start/next/end) and a combined parallel
 * sections (GOMP_parallel_sections). Each construct sits in its own
 * function: gcc gives its runtime calls the line of the code before them. */
#include <stdio.h>

static int a[5];

static void three_sections(void) {
#pragma omp sections
  {
#pragma omp section
    a[0] += 1;
#pragma omp section
    a[1] += 1;
#pragma omp section
    a[2] += 1; /* @sections_last */
  }
}

static void two_sections_nowait(void) {
#pragma omp sections nowait
  {
#pragma omp section
    a[3] += 1;
#pragma omp section
    a[4] += 2;
  }
}

static void team(void) { /* @par */
#pragma omp parallel num_threads(2)
  {
    three_sections();
    two_sections_nowait();
  }
}

static void combined(void) { /* @par_sections */
#pragma omp parallel sections num_threads(2)
  {
#pragma omp section
    a[0] += 10;
#pragma omp section
    a[1] += 10;
  }
}

int main(void) {
  team();
  combined();
  printf("gcc_sections %d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4]);
  return 0;
}
