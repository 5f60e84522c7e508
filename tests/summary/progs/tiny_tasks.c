/* One thread creates 400 tasks of about 2 us each. */
#include "spin.h"

static volatile double sink;

int main(void) {
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int i = 0; i < 400; i++) {
#pragma omp task
    {
      double x = 0;
      for (int k = 0; k < 500; k++)
        x += k * 0.5;
      sink = x;
    }
  }
  return 0;
}
