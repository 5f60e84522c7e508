/* A certain deadlock, for `omptrace-recover --where`. Mode "locks": thread
 * 0 holds lock a, thread 1 lock b, then each asks for the other's. Mode
 * "critical": thread 0 holds lock a and then enters the critical section
 * in which thread 1 waits for lock a. Mode "serial": after a parallel
 * region (its worker parked in the runtime, its records ended at the
 * join), the initial thread takes lock a twice in serial code. Prints
 * "deadlock" first. */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static omp_lock_t a, b;
static atomic_int step;

static void locks(int me) {
  if (me == 0)
    omp_set_lock(&a); /* @hold_a */
  else
    omp_set_lock(&b); /* @hold_b */
#pragma omp barrier   /* @barrier */
  if (me == 0)
    omp_set_lock(&b); /* @want_b */
  else
    omp_set_lock(&a); /* @want_a */
}

static void critical(int me) {
  if (me == 0) {
    omp_set_lock(&a); /* @crit_hold_a */
    atomic_store(&step, 1);
    while (atomic_load(&step) != 2)
      ;
#pragma omp critical /* @crit_want */
    step = 3;
  } else {
    while (atomic_load(&step) != 1)
      ;
#pragma omp critical /* @crit_hold */
    {
      atomic_store(&step, 2);
      omp_set_lock(&a); /* @crit_want_a */
    }
  }
}

int main(int argc, char **argv) {
  int crit = argc > 1 && strcmp(argv[1], "critical") == 0;
  omp_init_lock(&a);
  omp_init_lock(&b);
  if (argc > 1 && strcmp(argv[1], "serial") == 0) {
#pragma omp parallel num_threads(2) /* @spar */
    {
#pragma omp barrier
    } omp_set_lock(&a); /* @serial_hold */
    printf("deadlock\n");
    fflush(stdout);
    omp_set_lock(&a); /* @serial_want */
    return 0;
  }
  printf("deadlock\n");
  fflush(stdout);
#pragma omp parallel num_threads(2) /* @dpar */
  {
    if (crit)
      critical(omp_get_thread_num());
    else
      locks(omp_get_thread_num());
  }
  return 0;
}
