/* ot_counters_bench: what counter values cost per recorded event.
 *  1. The PAPI read call itself (in process, SDE counters).
 *  2. Per event through libomptrace: child processes run a barrier loop
 *     and a critical-section loop on a team of one thread (no waiting, so
 *     the difference between variants is the recording cost) without the tool, with the tool and 0,
 *     1, 2, 4 SDE counters on every record group, and with 2 counters on
 *     the default groups. Variants are interleaved run by run; medians and
 *     ratios to "0 counters" are printed.
 * usage: ot_counters_bench [--runs N] [--iters N] [--tool libomptrace.so] */
#include "counters_bench.h"

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct variant {
  const char *label;
  int tool;
  const char *metrics, *metrics_on;
} variant;

static const variant variants[] = {
    {"no tool", 0, NULL, NULL},
    {"0 counters", 1, NULL, NULL},
    {"1 counter, all groups", 1, "sde:::Bench::b0", "all"},
    {"2 counters, all groups", 1, "sde:::Bench::b0,sde:::Bench::b1", "all"},
    {"4 counters, all groups", 1, "sde:::Bench::b0,sde:::Bench::b1,sde:::Bench::b2,sde:::Bench::b3",
     "all"},
    {"2 counters, default groups", 1, "sde:::Bench::b0,sde:::Bench::b1", "default"},
};
enum { NV = sizeof variants / sizeof variants[0] };

typedef struct workload {
  const char *name;
  int records; /* records per operation on each thread */
} workload;
static const workload workloads[] = {{"barrier", 4}, {"critical", 3}};
enum { NW = sizeof workloads / sizeof workloads[0] };

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double ot_cb_median(double *v, int n) {
  double tmp[64];
  memcpy(tmp, v, sizeof(double) * (size_t)n);
  qsort(tmp, (size_t)n, sizeof(double), cmp_double);
  return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* Runs this program as a child; returns ns per operation or -1. */
static double run_child(const char *self, const char *tool, const variant *v, const workload *w,
                        long iters, const char *outdir, int seq) {
  char *envp[256];
  int n = 0;
  for (char **e = environ; *e && n < 240; e++)
    if (strncmp(*e, "OMPTRACE_", 9) != 0 && strncmp(*e, "OMP_TOOL", 8) != 0 &&
        strncmp(*e, "OMP_NUM_THREADS=", 16) != 0)
      envp[n++] = *e;
  char b_tool[4200], b_out[4200], b_m[512], b_on[128];
  envp[n++] = "OMP_NUM_THREADS=1";
  envp[n++] = "OMPTRACE_QUIET=1";
  if (v->tool) {
    snprintf(b_tool, sizeof b_tool, "OMP_TOOL_LIBRARIES=%s", tool);
    snprintf(b_out, sizeof b_out, "OMPTRACE_OUTPUT=%s/run%d", outdir, seq);
    envp[n++] = b_tool;
    envp[n++] = b_out;
  } else {
    envp[n++] = "OMP_TOOL=disabled";
  }
  if (v->metrics) {
    snprintf(b_m, sizeof b_m, "OMPTRACE_METRICS=%s", v->metrics);
    snprintf(b_on, sizeof b_on, "OMPTRACE_METRICS_ON=%s", v->metrics_on);
    envp[n++] = b_m;
    envp[n++] = b_on;
  }
  envp[n] = NULL;
  char iters_s[32];
  snprintf(iters_s, sizeof iters_s, "%ld", iters);
  char *argv[] = {(char *)self, "--child", (char *)w->name, iters_s, NULL};
  int fd[2];
  if (pipe(fd) != 0)
    return -1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  pid_t pid;
  int rc = posix_spawn(&pid, self, &fa, NULL, argv, envp);
  posix_spawn_file_actions_destroy(&fa);
  close(fd[1]);
  char buf[64] = {0};
  ssize_t got = rc == 0 ? read(fd[0], buf, sizeof buf - 1) : -1;
  close(fd[0]);
  int status = 0;
  if (rc == 0)
    waitpid(pid, &status, 0);
  if (rc != 0 || got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return -1;
  return atof(buf);
}

int main(int argc, char **argv) {
  int runs = 5;
  long iters = 20000;
  const char *tool = OT_BENCH_TOOL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--child") == 0 && i + 2 < argc)
      return ot_cb_child(argv[i + 1], atol(argv[i + 2]));
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      runs = atoi(argv[++i]);
    else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
      iters = atol(argv[++i]);
    else if (strcmp(argv[i], "--tool") == 0 && i + 1 < argc)
      tool = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--runs N] [--iters N] [--tool libomptrace.so]\n", argv[0]);
      return 2;
    }
  }
  if (runs < 1 || runs > 64 || iters < 1)
    return 2;

  ot_cb_papi_read(9);

  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0)
    return 1;
  self[len] = 0;
  char outdir[] = "/tmp/ot_counters_bench.XXXXXX";
  if (!mkdtemp(outdir))
    return 1;

  static double t[NW][NV][64];
  int seq = 0, failed = 0;
  for (int r = 0; r < runs; r++)
    for (int w = 0; w < NW; w++)
      for (int k = 0; k < NV; k++) {
        /* Rotate the order each run so no variant always runs first. */
        int v = (k + r) % NV;
        t[w][v][r] = run_child(self, tool, &variants[v], &workloads[w], iters, outdir, seq++);
        failed |= t[w][v][r] < 0;
      }
  char *rm[] = {"rm", "-rf", outdir, NULL};
  pid_t pid;
  if (posix_spawnp(&pid, "rm", NULL, NULL, rm, environ) == 0)
    waitpid(pid, NULL, 0);
  if (failed) {
    fprintf(stderr, "a child run failed (is %s built?)\n", tool);
    return 1;
  }

  for (int w = 0; w < NW; w++) {
    printf("\n%s loop, 1 thread, %ld operations, %d records per operation per thread "
           "(median of %d interleaved runs):\n",
           workloads[w].name, iters, workloads[w].records, runs);
    printf("  %-28s %10s %12s %18s\n", "variant", "ns/op", "vs 0 ctrs", "extra ns/record");
    double base = ot_cb_median(t[w][1], runs);
    for (int v = 0; v < NV; v++) {
      double m = ot_cb_median(t[w][v], runs);
      printf("  %-28s %10.1f %11.2fx", variants[v].label, m, m / base);
      if (v >= 2)
        printf(" %18.1f", (m - base) / workloads[w].records);
      printf("\n");
    }
  }
  return 0;
}
