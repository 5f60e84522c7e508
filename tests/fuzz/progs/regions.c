/* 400 parallel regions of 2 threads, each thread passing a barrier: a
 * small archive with a few thousand events per thread, for the damaged-
 * archive tests. */
#include <omp.h>

static volatile double sink;

int main(void) {
  for (int r = 0; r < 400; r++) {
#pragma omp parallel num_threads(2)
    {
      double x = 0;
      for (int k = 0; k < 200; k++)
        x += k * 0.5;
#pragma omp barrier
      sink = x;
    }
  }
  return 0;
}
