/* Loop chunks on 2 threads, one construct per argument: dynamic
 * (schedule(dynamic,10) over 1000 iterations: 100 chunks of 10), guided
 * (chunks that tile the 1000 iterations), static10 (schedule(static,10)),
 * taskloop (grainsize(100): 10 chunks of 100), distribute (2 teams),
 * repeated (50 instances of a schedule(dynamic,10) loop over 100
 * iterations in one parallel region: 10 chunks each). */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define N 1000

int main(int argc, char **argv) {
  const char *w = argc > 1 ? argv[1] : "dynamic";
  long sum = 0;
  if (!strcmp(w, "dynamic")) {
#pragma omp parallel for schedule(dynamic, 10) num_threads(2) reduction(+ : sum)
    for (int i = 0; i < N; i++) /* @dynamic */
      sum += i;
  } else if (!strcmp(w, "guided")) {
#pragma omp parallel for schedule(guided) num_threads(2) reduction(+ : sum)
    for (int i = 0; i < N; i++) /* @guided */
      sum += i;
  } else if (!strcmp(w, "static10")) {
#pragma omp parallel for schedule(static, 10) num_threads(2) reduction(+ : sum)
    for (int i = 0; i < N; i++) /* @static10 */
      sum += i;
  } else if (!strcmp(w, "taskloop")) {
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskloop grainsize(100) reduction(+ : sum)
    for (int i = 0; i < N; i++) /* @taskloop */
      sum += i;
  } else if (!strcmp(w, "distribute")) {
#pragma omp teams distribute num_teams(2) reduction(+ : sum)
    for (int i = 0; i < N; i++) /* @distribute */
      sum += i;
  } else if (!strcmp(w, "repeated")) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
    for (int r = 0; r < 50; r++) {
#pragma omp for schedule(dynamic, 10)
      for (int i = 0; i < N / 10; i++) /* @repeated */
        sum += i * 10 + r % 10;
    }
    sum = sum == 2497500 ? (long)N * (N - 1) / 2 : -1; /* 50 x 10 x 4950 + 100 x 225 */
  } else {
    fprintf(stderr, "chunks: unknown construct %s\n", w);
    return 2;
  }
  printf("%ld\n", sum);
  return sum != (long)N * (N - 1) / 2;
}
