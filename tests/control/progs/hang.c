/* A certain hang for `omptrace snapshot PID` (control.snapshot_where),
 * compiled -O2 so that libomp reports a wait site inside itself: lock a is
 * taken before the region and never released; thread 0 asks for it as the
 * last call of the region's body (a tail call: the return address libomp
 * sees is __kmp_invoke_microtask's); thread 1 takes lock b and waits in a
 * barrier; thread 2 asks for lock b. Prints "hang" once all are on their
 * way, then never ends. */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>

static omp_lock_t a, b;
static atomic_int step;

int main(void) {
  omp_init_lock(&a);
  omp_init_lock(&b);
  omp_set_lock(&a);                 /* @hold_a */
#pragma omp parallel num_threads(3) /* @par */
  {
    int me = omp_get_thread_num();
    if (me == 1) {
      omp_set_lock(&b); /* @hold_b */
      atomic_store(&step, 1);
#pragma omp barrier /* @bar */
    } else if (me == 2) {
      while (atomic_load(&step) != 1)
        ;
      printf("hang\n");
      fflush(stdout);
      omp_set_lock(&b); /* @want_b */
    } else {
      omp_set_lock(&a); /* @want_a */
    }
  }
  return 0;
}
