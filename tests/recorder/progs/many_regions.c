/* Many tiny parallel regions (issue 26, item 4): N regions of 2 threads,
 * printing the process's anonymous resident memory (RssAnon of
 * /proc/self/status) at the region counts named on the command line, so a
 * test can check that a recording process's memory stays bounded however
 * many regions it makes.
 *   many_regions N [K1 K2 ...]   prints "regions K rss_anon_kib R" after the
 *                                K-th region for each K, and after the N-th. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long rss_anon_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  if (!f)
    return -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "RssAnon:", 8) == 0) {
      kib = strtol(line + 8, NULL, 10);
      break;
    }
  fclose(f);
  return kib;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: many_regions N [K ...]\n");
    return 2;
  }
  long n = strtol(argv[1], NULL, 10);
  long sum = 0;
  int next = 2;
  for (long r = 1; r <= n; r++) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
    sum += omp_get_thread_num() + 1;
    while (next < argc && strtol(argv[next], NULL, 10) == r) {
      printf("regions %ld rss_anon_kib %ld\n", r, rss_anon_kib());
      next++;
    }
  }
  printf("regions %ld rss_anon_kib %ld\n", n, rss_anon_kib());
  printf("sum %ld\n", sum);
  return sum == 3 * n ? 0 : 1;
}
