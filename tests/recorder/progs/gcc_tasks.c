/* Compiled with gcc -fopenmp and run on libomp through its GOMP ABI:
 * tasks with dependences (GOMP_task), taskwait, taskgroup and taskloop
 * (GOMP_taskloop: libomp's own taskloop, whose code addresses point into
 * libomp). Each construct sits in its own function: gcc gives its runtime
 * calls the line of the code before them, here the function's opening
 * line. */
#include <stdio.h>

static int x, y, z;

static void dep_out(void) { /* @dep_out */
#pragma omp task depend(out : x) shared(x)
  x = 1;
}

static void dep_in(void) { /* @dep_in */
#pragma omp task depend(in : x) shared(x, y)
  y = x + 1;
}

static void dep_inout(void) { /* @dep_inout */
#pragma omp task depend(inout : x) shared(x)
  x += 10;
}

static void wait(void) {
#pragma omp taskwait /* @taskwait */
}

static void group(void) { /* @taskgroup */
#pragma omp taskgroup
  {
#pragma omp task shared(z)
    __atomic_add_fetch(&z, 1, __ATOMIC_RELAXED);
#pragma omp task shared(z)
    __atomic_add_fetch(&z, 1, __ATOMIC_RELAXED);
  }
}

static void loop(void) { /* @taskloop */
#pragma omp taskloop num_tasks(4) shared(z)
  for (int i = 0; i < 8; i++)
    __atomic_add_fetch(&z, i, __ATOMIC_RELAXED);
}

/* gcc gives GOMP_single_start the line of the parallel's pragma. */
static void team(void) {            /* @par */
#pragma omp parallel num_threads(2) /* @single */
  {
#pragma omp single
    {
      dep_out();
      dep_in();
      dep_inout();
      wait();
      group();
      loop();
    }
  }
}

int main(void) {
  team();
  printf("gcc_tasks %d %d %d\n", x, y, z);
  return 0;
}
