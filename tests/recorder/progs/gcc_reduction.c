/* Compiled with gcc -fopenmp and run on libomp through its GOMP ABI:
 * reductions. gcc combines the threads' partial results itself, with no
 * __kmpc_reduce and so no reduction callback: one scalar with an atomic
 * instruction (nothing reaches the runtime), several between
 * GOMP_atomic_start and GOMP_atomic_end (libomp's atomic lock). Each
 * construct sits in its own function: gcc gives its runtime calls the line
 * of the code before them. */
#include <stdio.h>

#define N 100

static long one;
static double sum, sq;
static int members;

static void one_scalar(void) {
#pragma omp for schedule(dynamic, 10) reduction(+ : one) /* @one */
  for (int i = 0; i < N; i++)
    one += i;
}

static void two_scalars(void) {
#pragma omp for schedule(dynamic, 10) reduction(+ : sum, sq) /* @two */
  for (int i = 0; i < N; i++) {
    sum += i;
    sq += (double)i * i; /* @two_body */
  }
}

static void team(void) { /* @par */
#pragma omp parallel num_threads(2) reduction(+ : members)
  {
    members += 1;
    one_scalar();
    two_scalars();
  }
}

int main(void) {
  team();
  printf("gcc_reduction %d %ld %.0f %.0f\n", members, one, sum, sq);
  return 0;
}
