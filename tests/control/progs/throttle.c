/* Throttling scenarios with exact expectations (tests/control/
 * throttle_tests.py). Two threads; each creates its own tasks from one
 * site and waits for each before creating the next, so every decision
 * sees all earlier instances completed:
 *   tasks  1000 tiny tasks per thread
 *   slow   20 tasks per thread, each busy for at least 2 ms
 *   cross  10 tasks of at least 2 ms, then 200 tiny ones, per thread
 *   flush  1000 flushes per thread
 *   critical  1000 critical sections per thread (the last 500 holding a
 *          masked)
 *   lock   1000 acquisitions of the thread's own lock per thread
 *   serial as tasks on a team of one thread (its tasks run undeferred)
 *   loop, sections, single  1000 of the construct per thread; masked
 *          1000 (thread 0); every 20th instance holds a critical section
 *   parallel  1000 parallel regions of two threads, the same inside
 *   waited 1000 tiny tasks created by thread 0, each waited for in a
 *          taskwait, while thread 1 spins without a scheduling point:
 *          every task runs in thread 0's taskwait
 *   many   50 000 tiny tasks per thread: 100 000 from one site, the least
 *          for which finalize suggests throttling (finalize/hints.h)
 *   fewer  49 999 per thread: one short of the hint
 *   sites  as many, then 50 001 per thread from a second site
 *   kill   as tasks, one more region (a worker reports the end of the
 *          last one only at the next fork), omp_control_tool_flush, SIGKILL
 * Busy tasks take at least their time however loaded the machine is. */
#include <omp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static int done[2];

static void busy(double seconds) {
  double end = omp_get_wtime() + seconds;
  while (omp_get_wtime() < end) {
  }
}

static void tasks(int slow, int tiny, int threads) {
#pragma omp parallel num_threads(threads)
  {
    int me = omp_get_thread_num();
    for (int i = 0; i < slow + tiny; i++) {
      double s = i < slow ? 2e-3 : 0;
#pragma omp task firstprivate(s, me) /* @task */
      {
        if (s > 0)
          busy(s);
#pragma omp atomic
        done[me]++;
      }
#pragma omp taskwait
    }
  }
  printf("tasks %d %d\n", done[0], done[1]);
}

/* Two sites: tasks(0, 50000, 2) above, then 50 001 tiny tasks per thread
 * from a second site, the one with the most. */
static void two_sites(void) {
  tasks(0, 50000, 2);
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    for (int i = 0; i < 50001; i++) {
#pragma omp task firstprivate(me) /* @task2 */
      {
#pragma omp atomic
        done[me]++;
      }
#pragma omp taskwait
    }
  }
}

static void flushes(int n) {
#pragma omp parallel num_threads(2)
  {
    for (int i = 0; i < n; i++) {
#pragma omp flush /* @flush */
    }
  }
}

static void criticals(int n) {
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    for (int i = 0; i < n; i++) {
#pragma omp critical /* @critical */
      {
        done[me]++;
        if (i >= n / 2) {
#pragma omp masked /* @inner */
          done[me]++;
        }
      }
    }
  }
}

static void locks(int n) {
  omp_lock_t lock[2];
  omp_init_lock(&lock[0]);
  omp_init_lock(&lock[1]);
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    for (int i = 0; i < n; i++) {
      omp_set_lock(&lock[me]); /* @lock */
      done[me]++;
      omp_unset_lock(&lock[me]);
    }
  }
  omp_destroy_lock(&lock[0]);
  omp_destroy_lock(&lock[1]);
}

/* One critical section in every 20th instance: never throttled (50). */
static void inner(int i) {
  if (i % 20 == 0) {
#pragma omp critical /* @wsinner */
    done[omp_get_thread_num()]++;
  }
}

static void worksharing(const char *mode, int n) {
#pragma omp parallel num_threads(2)
  for (int i = 0; i < n; i++) {
    if (!strcmp(mode, "loop")) {
#pragma omp for schedule(static) /* @loop */
      for (int j = 0; j < 2; j++)
        inner(i);
    } else if (!strcmp(mode, "sections")) {
#pragma omp sections /* @sections */
      {
#pragma omp section
        inner(i);
#pragma omp section
        inner(i);
      }
    } else if (!strcmp(mode, "single")) {
#pragma omp single /* @single */
      inner(i);
    } else {
#pragma omp masked /* @masked */
      inner(i);
    }
  }
}

static void waited(int n) {
  atomic_int spin = 1;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
      for (int i = 0; i < n; i++) {
#pragma omp task /* @waited */
        done[0]++;
#pragma omp taskwait
      }
      atomic_store(&spin, 0);
    } else {
      while (atomic_load(&spin)) {
      }
    }
  }
}

static void regions(int n) {
  for (int i = 0; i < n; i++) {
#pragma omp parallel num_threads(2) /* @parallel */
    inner(i);
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "tasks";
  if (!strcmp(mode, "tasks") || !strcmp(mode, "kill"))
    tasks(0, 1000, 2);
  else if (!strcmp(mode, "serial"))
    tasks(0, 1000, 1);
  else if (!strcmp(mode, "many"))
    tasks(0, 50000, 2);
  else if (!strcmp(mode, "fewer"))
    tasks(0, 49999, 2);
  else if (!strcmp(mode, "sites"))
    two_sites();
  else if (!strcmp(mode, "slow"))
    tasks(20, 0, 2);
  else if (!strcmp(mode, "cross"))
    tasks(10, 200, 2);
  else if (!strcmp(mode, "flush"))
    flushes(1000);
  else if (!strcmp(mode, "critical"))
    criticals(1000);
  else if (!strcmp(mode, "lock"))
    locks(1000);
  else if (!strcmp(mode, "loop") || !strcmp(mode, "sections") || !strcmp(mode, "single") ||
           !strcmp(mode, "masked"))
    worksharing(mode, 1000);
  else if (!strcmp(mode, "parallel"))
    regions(1000);
  else if (!strcmp(mode, "waited"))
    waited(1000);
  fflush(stdout);
  if (!strcmp(mode, "kill")) {
#pragma omp parallel num_threads(2)
    done[omp_get_thread_num()]++;
    omp_control_tool(omp_control_tool_flush, 0, NULL);
    raise(SIGKILL);
  }
  return 0;
}
