/* Simple locks, nest locks and omp_test_lock with a deterministic failure
 * (thread 0 holds the lock while thread 1 tests it) and success. */
#include <omp.h>
#include <stdio.h>

int main(void) {
  omp_lock_t lock;
  omp_nest_lock_t nest;
  /* One counter per lock: a thread in the nest-lock loop while the other
   * is still in the lock loop must not race on the same variable. */
  int x = 0, y = 0, failed = -1, succeeded = -1;
  omp_init_lock(&lock);
  omp_init_nest_lock(&nest);
#pragma omp parallel num_threads(2) /* @par */
  {
    for (int i = 0; i < 5; i++) {
      omp_set_lock(&lock); /* @set */
      x++;
      omp_unset_lock(&lock);
    }
    for (int i = 0; i < 3; i++) {
      omp_set_nest_lock(&nest); /* @nest_outer */
      omp_set_nest_lock(&nest); /* @nest_inner */
      y++;
      omp_unset_nest_lock(&nest);
      omp_unset_nest_lock(&nest);
    }
  }
#pragma omp parallel num_threads(2) /* @test_par */
  {
    int me = omp_get_thread_num();
    if (me == 0)
      omp_set_lock(&lock); /* @hold */
#pragma omp barrier        /* @b1 */
    if (me == 1)
      failed = omp_test_lock(&lock); /* @test_fail */
#pragma omp barrier                  /* @b2 */
    if (me == 0)
      omp_unset_lock(&lock);
#pragma omp barrier /* @b3 */
    if (me == 1) {
      succeeded = omp_test_lock(&lock); /* @test_ok */
      omp_unset_lock(&lock);
    }
  }
  omp_destroy_nest_lock(&nest);
  omp_destroy_lock(&lock);
  printf("locks %d %d %d\n", x + y, failed, succeeded);
  return 0;
}
