/* A deadlock for the hang tests: two threads take two OpenMP locks in
 * opposite order. Each takes its first lock, both wait until both hold
 * one, then each asks for the other's lock and waits forever. Thread 0
 * holds lock A and waits for B; thread 1 holds B and waits for A. One
 * parallel region runs before, so the log has a finished region too. */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>

static omp_lock_t lock_a, lock_b;
static atomic_int holding;

int main(void) {
  omp_init_lock(&lock_a);
  omp_init_lock(&lock_b);
#pragma omp parallel num_threads(2) /* @warmup */
  {
#pragma omp barrier /* @warmbar */
  }
#pragma omp parallel num_threads(2) /* @par */
  {
    int me = omp_get_thread_num();
    if (me == 0)
      omp_set_lock(&lock_a); /* @first_a */
    else
      omp_set_lock(&lock_b); /* @first_b */
    atomic_fetch_add(&holding, 1);
    while (atomic_load(&holding) < 2)
      ;
    if (me == 0) {
      printf("both hold their first lock\n");
      fflush(stdout);
      omp_set_lock(&lock_b); /* @second_b */
    } else {
      omp_set_lock(&lock_a); /* @second_a */
    }
    printf("not reached\n");
  }
  return 0;
}
