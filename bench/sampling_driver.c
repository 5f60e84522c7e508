/* ot_sampling_bench: overhead of call-stack sampling. Runs ot_sampling_app
 * under several configurations, interleaved (one process each, the order
 * rotated every repetition), and prints the time per region of each
 * configuration and its ratio to running without a tool and to tracing
 * without sampling, plus the tool's own measurement of the time per sample
 * and per context capture (OMPTRACE_VERBOSE=1 "sampling cost" line). Lazy
 * and eager context formation run side by side.
 *
 *   ot_sampling_bench --lib libomptrace.so --app ot_sampling_app [--reps N]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_REPS 64

typedef struct cfg {
  const char *name;
  const char *sampling;  /* NULL: no tool at all */
  const char *contexts;  /* lazy | eager */
  const char *bare;      /* no tool, bare timer signals with this period (ns) */
  double t[MAX_REPS];    /* median block of each run, ns per region */
  double best[MAX_REPS]; /* best block of each run */
  double samples[MAX_REPS], us_sample[MAX_REPS], contexts_n[MAX_REPS], us_context[MAX_REPS];
} cfg;

static cfg cfgs[] = {
    {.name = "no tool"},
    {.name = "no tool, bare 1 kHz sig", .bare = "1000000"},
    {.name = "tracing, no sampling", .sampling = "0", .contexts = "lazy"},
    {.name = "tracing + 200 Hz", .sampling = "200Hz", .contexts = "lazy"},
    {.name = "tracing + 1 kHz lazy", .sampling = "1kHz", .contexts = "lazy"},
    {.name = "tracing + 1 kHz eager", .sampling = "1kHz", .contexts = "eager"},
    {.name = "tracing + 10 kHz lazy", .sampling = "10kHz", .contexts = "lazy"},
};
#define NCFG (sizeof cfgs / sizeof cfgs[0])

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(const double *v, int n) {
  double s[MAX_REPS];
  memcpy(s, v, sizeof(double) * (size_t)n);
  qsort(s, (size_t)n, sizeof s[0], cmp);
  return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* The number written just before `key` in text (0 if absent). */
static double number_before(const char *text, const char *key) {
  const char *s = text ? strstr(text, key) : NULL;
  if (!s)
    return 0;
  while (s > text && ((s[-1] >= '0' && s[-1] <= '9') || s[-1] == '.'))
    s--;
  return atof(s);
}

static size_t slurp(int fd, char *buf, size_t cap) {
  size_t n = 0;
  ssize_t k;
  while (n + 1 < cap && (k = read(fd, buf + n, cap - 1 - n)) > 0)
    n += (size_t)k;
  buf[n] = 0;
  char drain[4096];
  while (read(fd, drain, sizeof drain) > 0)
    ;
  return n;
}

/* Runs the app once and fills slot r of c. Returns -1 on failure. */
static int run(const char *app, const char *mode, const char *lib, cfg *c, int r,
               const char *outdir) {
  int out[2], err[2];
  if (pipe(out) || pipe(err))
    return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    dup2(err[1], 2);
    close(out[0]);
    close(err[0]);
    if (c->sampling) {
      setenv("OMP_TOOL_LIBRARIES", lib, 1);
      setenv("OMPTRACE_SAMPLING", c->sampling, 1);
      setenv("OMPTRACE_SAMPLE_CONTEXTS", c->contexts, 1);
      setenv("OMPTRACE_OUTPUT", outdir, 1);
      setenv("OMPTRACE_VERBOSE", "1", 1);
    } else {
      setenv("OMP_TOOL", "disabled", 1);
    }
    execl(app, app, mode, c->bare, (char *)NULL);
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  static char obuf[4096], ebuf[65536];
  slurp(out[0], obuf, sizeof obuf); /* the app prints its line at the end */
  slurp(err[0], ebuf, sizeof ebuf);
  close(out[0]);
  close(err[0]);
  int st;
  waitpid(pid, &st, 0);
  const char *m = strstr(obuf, "median_ns="), *b = strstr(obuf, "min_ns=");
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !m || !b) {
    fprintf(stderr, "run failed (%s): %s%s", c->name, obuf, ebuf);
    return -1;
  }
  c->t[r] = atof(m + 10);
  c->best[r] = atof(b + 7);
  const char *cost = strstr(ebuf, "sampling cost:");
  c->samples[r] = number_before(cost, " samples,");
  c->us_sample[r] = number_before(cost, " us per sample");
  c->contexts_n[r] = number_before(cost, " contexts,");
  c->us_context[r] = number_before(cost, " us per context");
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", outdir);
  if (system(cmd) != 0)
    fprintf(stderr, "cannot remove %s\n", outdir);
  return 0;
}

int main(int argc, char **argv) {
  const char *lib = NULL, *app = NULL;
  int reps = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--lib"))
      lib = argv[i + 1];
    else if (!strcmp(argv[i], "--app"))
      app = argv[i + 1];
    else if (!strcmp(argv[i], "--reps"))
      reps = atoi(argv[i + 1]);
  }
  if (!lib || !app || reps < 1 || reps > MAX_REPS) {
    fprintf(stderr, "usage: ot_sampling_bench --lib LIB --app APP [--reps N<=%d]\n", MAX_REPS);
    return 2;
  }
  char outdir[4096];
  snprintf(outdir, sizeof outdir, "/tmp/ot_sampling_bench.%d", (int)getpid());
  const char *modes[] = {"tiny", "work"};
  for (int m = 0; m < 2; m++) {
    for (int r = 0; r < reps; r++)
      for (size_t j = 0; j < NCFG; j++)
        if (run(app, modes[m], lib, &cfgs[(j + (size_t)r) % NCFG], r, outdir) != 0)
          return 1;
    /* Medians over runs of each run's median block and of its best block
     * (on a loaded machine the best block is the one where both threads
     * kept their CPU). */
    double base = median(cfgs[0].t, reps), trace = median(cfgs[2].t, reps);
    double bbase = median(cfgs[0].best, reps), btrace = median(cfgs[2].best, reps);
    printf("\n%s regions, %d runs per configuration\n", modes[m], reps);
    printf("  %-24s %11s %7s %7s | %11s %7s %7s | %7s %6s %8s %6s\n", "configuration", "median ns",
           "/none", "/trace", "best ns", "/none", "/trace", "samples", "us/smp", "contexts",
           "us/ctx");
    for (size_t j = 0; j < NCFG; j++) {
      const cfg *c = &cfgs[j];
      double t = median(c->t, reps), b = median(c->best, reps);
      printf("  %-24s %11.1f %6.3fx %6.3fx | %11.1f %6.3fx %6.3fx | %7.0f %6.2f %8.0f %6.2f\n",
             c->name, t, t / base, t / trace, b, b / bbase, b / btrace, median(c->samples, reps),
             median(c->us_sample, reps), median(c->contexts_n, reps), median(c->us_context, reps));
    }
    fflush(stdout);
  }
  return 0;
}
