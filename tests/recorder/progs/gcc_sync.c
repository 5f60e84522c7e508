/* Compiled with gcc -fopenmp and run on libomp through its GOMP ABI:
 * critical sections (GOMP_critical_start, GOMP_critical_name_start) and
 * locks (the omp_*_lock calls are libomp's own, as in a clang build).
 * Each construct sits in its own function: gcc gives its runtime calls the
 * line of the code before them (a critical: its own pragma's). */
#include <omp.h>
#include <stdio.h>

#define REPS 5

static int count[4]; /* one per lock */
static omp_lock_t lock;
static omp_nest_lock_t nest;

static void unnamed(void) {
#pragma omp critical /* @unnamed */
  count[0] += 1;
}

static void named(void) {
#pragma omp critical(other) /* @named */
  count[1] += 2;
}

static void locks(void) {
  omp_set_lock(&lock); /* @set */
  count[2] += 3;
  omp_unset_lock(&lock);
  omp_set_nest_lock(&nest); /* @nest_outer */
  omp_set_nest_lock(&nest); /* @nest_inner */
  count[3] += 4;
  omp_unset_nest_lock(&nest);
  omp_unset_nest_lock(&nest);
}

static void team(void) { /* @par */
#pragma omp parallel num_threads(2)
  for (int r = 0; r < REPS; r++) {
    unnamed();
    named();
    locks();
  }
}

int main(void) {
  omp_init_lock(&lock);
  omp_init_nest_lock(&nest);
  team();
  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nest);
  printf("gcc_sync %d %d %d %d\n", count[0], count[1], count[2], count[3]);
  return 0;
}
