/* Compiled with gcc -fopenmp and run on libomp, like EPCC's syncbench:
 * GOMP_single_start tells no end to the thread that executes a single.
 * Each single sits in its own function because gcc gives its runtime calls
 * no line of their own: they take the line of the code before them. */
#include <stdio.h>

#define REPS 5

static void single_wait(int *x) { /* @single */
#pragma omp single
  *x += 1; /* @single_body */
}

static void single_nowait(int *x) { /* @nowait */
#pragma omp single nowait
  __atomic_add_fetch(x, 1, __ATOMIC_RELAXED); /* threads may run different singles at once */
}

int main(void) {
  int a = 0, b = 0;
#pragma omp parallel num_threads(2) /* @par */
  {
    for (int r = 0; r < REPS; r++)
      single_wait(&a);
    for (int r = 0; r < REPS; r++)
      single_nowait(&b);
  }
  printf("gcc_single %d %d\n", a, b);
  return 0;
}
