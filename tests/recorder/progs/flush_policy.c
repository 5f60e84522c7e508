/* The flusher's scheduling (recorder/log/flusher.c): REGIONS regions of 2
 * threads with a loop, then, with "policy", one line per thread named
 * omptrace-flush or omptrace-guard with its scheduling policy
 * (sched_getscheduler on its tid) and a normal exit; with "wait", "ready"
 * and a wait only a signal ends (the test kills it once the log holds every
 * region); with "many", 4000 times as many regions and a normal exit. */
#define _GNU_SOURCE
#include <dirent.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REGIONS 5

static void list_tool_threads(void) {
  DIR *d = opendir("/proc/self/task");
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char path[300], comm[64] = "";
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f)
      continue;
    if (fgets(comm, sizeof comm, f))
      comm[strcspn(comm, "\n")] = 0;
    fclose(f);
    if (strncmp(comm, "omptrace-", 9) == 0)
      printf("thread %s policy=%d\n", comm, sched_getscheduler(atoi(e->d_name)));
  }
  if (d)
    closedir(d);
}

int main(int argc, char **argv) {
  double sum = 0;
  int many = argc > 1 && strcmp(argv[1], "many") == 0;
  for (int r = 0; r < (many ? 4000 * REGIONS : REGIONS); r++) {
#pragma omp parallel num_threads(2) reduction(+ : sum) /* @par */
    {
#pragma omp for /* @for */
      for (int i = 0; i < 1000; i++)
        sum += i * 0.5;
    }
  }
  if (argc > 1 && (many || strcmp(argv[1], "policy") == 0)) {
    list_tool_threads();
    printf("done %.1f\n", sum);
    return 0;
  }
  printf("ready %d %.1f\n", REGIONS, sum);
  fflush(stdout);
  for (;;)
    pause();
}
