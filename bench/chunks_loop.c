/* ot_chunks_loop: a schedule(dynamic,1) loop whose chunks are the work
 * (docs/performance.md, "Loop chunks"): REPS loops of ITERS iterations on
 * 2 threads, each iteration WORK steps of arithmetic (100: about 1 us on
 * the test machine), so every chunk is one dispatch. Prints the loops' own
 * time.
 *
 *   ot_chunks_loop [ITERS] [REPS] [WORK] */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 20000;
  long reps = argc > 2 ? atol(argv[2]) : 10;
  int work = argc > 3 ? atoi(argv[3]) : 100;
  volatile double sink = 0;
  double t0 = omp_get_wtime();
  for (long r = 0; r < reps; r++) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(2) reduction(+ : sink)
    for (long i = 0; i < iters; i++) {
      double x = (double)i;
      for (int k = 0; k < work; k++)
        x = x * 0.999 + 1.0;
      sink += x;
    }
  }
  printf("loops: %.6f s (%ld chunks)\n", omp_get_wtime() - t0, iters * reps);
  return sink < 0;
}
