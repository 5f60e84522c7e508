/* Finding the ranks of a job directory: DIR/rank-R with R the rank in
 * MPI_COMM_WORLD. A rank that left a record log but no archive (killed,
 * crashed, no MPI_Finalize) is recovered first with omptrace-recover; a
 * rank with neither, or missing, is reported in one line and left out. */
#include "merge/merge.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int exists(const char *dir, const char *name) {
  char p[4096];
  struct stat st;
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return stat(p, &st) == 0;
}

/* omptrace-recover beside this program (build tree and install), else on PATH. */
static int recover(const char *self, const char *dir) {
  char tool[PATH_MAX] = "omptrace-recover";
  const char *slash = strrchr(self, '/');
  if (slash && (size_t)(slash - self) + 20 < sizeof tool) {
    snprintf(tool, sizeof tool, "%.*s/omptrace-recover", (int)(slash - self), self);
    if (access(tool, X_OK) != 0)
      snprintf(tool, sizeof tool, "omptrace-recover");
  }
  pid_t pid = fork();
  if (pid == 0) {
    execlp(tool, tool, "-q", dir, (char *)NULL);
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0)
    return -1;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Numbers of the rank-R directories, sorted. */
static int compare(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static int *list_ranks(const char *dir, size_t *n, char **stale) {
  DIR *d = opendir(dir);
  if (!d)
    return NULL;
  int *v = NULL;
  size_t cap = 0;
  *n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    char *end;
    if (strncmp(e->d_name, "rank-", 5) != 0 || !e->d_name[5])
      continue;
    long r = strtol(e->d_name + 5, &end, 10);
    if (*end == '.' && !*stale) /* rank-R.N: a later job's rank in this directory */
      *stale = mg_strdup(e->d_name);
    if (*end || r < 0 || r > INT_MAX)
      continue;
    if (*n == cap) {
      int *w = mg_xalloc((cap = cap ? 2 * cap : 16) * sizeof *w);
      if (*n)
        memcpy(w, v, *n * sizeof *w);
      free(v);
      v = w;
    }
    v[(*n)++] = (int)r;
  }
  closedir(d);
  if (*n)
    qsort(v, *n, sizeof *v, compare);
  return v ? v : mg_xalloc(sizeof *v);
}

/* 1: the rank's archive is there (recovered if need be), 0: left out. */
static int usable(const char *rdir, int rank, const char *self, int quiet) {
  if (exists(rdir, "traces.otf2"))
    return 1;
  if (!exists(rdir, ".log")) {
    mg_error("rank %d: no archive and no record log in %s: left out", rank, rdir);
    return 0;
  }
  if (!quiet)
    fprintf(stderr, ME ": rank %d: recovering its archive from %s/.log\n", rank, rdir);
  if (recover(self, rdir) != 0 || !exists(rdir, "traces.otf2")) {
    mg_error("rank %d: recovering %s failed: left out", rank, rdir);
    return 0;
  }
  return 1;
}

int mg_find_ranks(mg_job *j, int expect, const char *self, int quiet) {
  size_t n = 0;
  char *stale = NULL;
  int *v = list_ranks(j->dir, &n, &stale);
  if (!v) {
    mg_error("%s: %s", j->dir, strerror(errno));
    return -1;
  }
  if (stale) /* the recorder never overwrites: a second job got rank-R.N */
    mg_error("%s/%s: this directory holds ranks of more than one job; merging rank-R", j->dir,
             stale);
  free(stale);
  j->ranks = mg_xalloc((n ? n : 1) * sizeof *j->ranks);
  int want = 0; /* next rank number expected */
  for (size_t i = 0; i < n; i++) {
    for (; want < v[i]; want++)
      mg_error("rank %d: no directory %s/rank-%d: left out", want, j->dir, want);
    want = v[i] + 1;
    char rdir[4096];
    snprintf(rdir, sizeof rdir, "%s/rank-%d", j->dir, v[i]);
    if (!usable(rdir, v[i], self, quiet))
      continue;
    mg_rank *r = &j->ranks[j->nranks++];
    r->rank = v[i];
    r->dir = mg_strdup(rdir);
  }
  for (; want < expect; want++)
    mg_error("rank %d: no directory %s/rank-%d: left out", want, j->dir, want);
  free(v);
  if (!j->nranks) {
    mg_error("%s: no rank archives (%s/rank-R/traces.otf2) to merge", j->dir, j->dir);
    return -1;
  }
  return 0;
}
