/* omptrace-merge DIR: the rank archives DIR/rank-R/traces.otf2 of an MPI
 * job as one archive DIR/traces.otf2 (docs/mpi.md, "One archive per job").
 * The rank archives stay: the merged one links their event files. */
#include "core/safe_dir.h"
#include "merge/merge.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f) {
  fputs("usage: " ME " [-n RANKS] [-q] DIR\n"
        "Merges the archives DIR/rank-R/traces.otf2 of an MPI job into one archive\n"
        "DIR/traces.otf2 (ranks as processes, clocks aligned to rank 0). A rank that\n"
        "left a record log but no archive is recovered first; a missing rank is left out.\n"
        "  -n, --ranks N  the job had N ranks: report each of 0..N-1 that is missing\n"
        "  -q, --quiet    neither closing line (clocks, wrote)\n"
        "  --help         this text\n",
        f);
}

static int parse(int argc, char **argv, const char **dir, int *ranks, int *quiet) {
  static const struct option longs[] = {{"ranks", required_argument, 0, 'n'},
                                        {"quiet", no_argument, 0, 'q'},
                                        {"help", no_argument, 0, 'h'},
                                        {0, 0, 0, 0}};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":n:qh", longs, NULL)) != -1) {
    char *end;
    switch (c) {
    case 'n':
      errno = 0;
      long n = strtol(optarg, &end, 10);
      if (errno || *end || end == optarg || n < 1 || n > INT_MAX) {
        mg_error("--ranks takes a whole number of ranks >= 1, not '%s'", optarg);
        return -1;
      }
      *ranks = (int)n;
      break;
    case 'q':
      *quiet = 1;
      break;
    case 'h':
      usage(stdout);
      exit(0);
    case ':':
      mg_error("%s needs a value (see " ME " --help)", argv[optind - 1]);
      return -1;
    default:
      mg_error("unknown option %s (see " ME " --help)", argv[optind - 1]);
      return -1;
    }
  }
  if (optind != argc - 1) {
    mg_error("needs one job directory (see " ME " --help)");
    return -1;
  }
  *dir = argv[optind];
  return 0;
}

/* The job directory as omptrace-recover -o takes a directory
 * (core/safe_dir.c: no link of another user's, a directory of the user's). */
static int check_dir(const char *dir) {
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    mg_error("%s: %s", dir, stat(dir, &st) != 0 ? strerror(errno) : "not a directory");
    return -1;
  }
  char why[PATH_MAX + 128];
  int fd = ot_dir_open(dir, 0, why, sizeof why);
  if (fd < 0) {
    mg_error("%s: cannot write the merged archive there (%s)", dir, why);
    return -1;
  }
  close(fd);
  if (access(dir, W_OK) != 0) {
    mg_error("%s: cannot write the merged archive there (%s)", dir, strerror(errno));
    return -1;
  }
  return 0;
}

/* Every rank's definitions and clock points; one event chunk size. */
static int read_ranks(mg_job *j) {
  for (size_t i = 0; i < j->nranks; i++) {
    mg_rank *r = &j->ranks[i];
    if (mg_read_rank(r) != 0 || mg_read_clock(r) != 0)
      return -1;
    if (r->evt_chunk != j->ranks[0].evt_chunk) {
      mg_error("%s: event chunk size %" PRIu64 " differs from %s's %" PRIu64 ": cannot merge",
               r->dir, r->evt_chunk, j->ranks[0].dir, j->ranks[0].evt_chunk);
      return -1;
    }
  }
  return 0;
}

/* What the clock alignment did: offsets applied, and the causality
 * correction's moves (docs/mpi.md, "Clocks"). */
static void clock_line(const mg_job *j) {
  size_t measured = 0, applied = 0;
  for (size_t i = 0; i < j->nranks; i++)
    measured += j->ranks[i].nmeasured, applied += j->ranks[i].napplied;
  printf(ME ": clocks: %zu of %zu measured offsets applied (%zu within their error bound: "
            "not applied); causality: %" PRIu64 " events moved, by at most %" PRIu64 " ns\n",
         applied, measured, measured - applied, j->moved, j->max_move);
}

/* libotf2 opens its files by name with O_TRUNC: it writes in a directory
 * made fresh for this merge, which no other user can plant a name in. */
static int make_private(mg_job *j) {
  snprintf(j->tmp, sizeof j->tmp, "%s/" MG_TMP_DIR, j->dir);
  if (mkdtemp(j->tmp))
    return 0;
  mg_error("%s: cannot write the merged archive there (%s)", j->dir, strerror(errno));
  j->tmp[0] = 0;
  return -1;
}

static void remove_partial(mg_job *j) {
  if (j->tmp[0])
    mg_remove_tree(j->tmp);
  j->tmp[0] = 0;
}

static void free_job(mg_job *j) {
  for (size_t i = 0; i < j->nranks; i++) {
    for (int k = 0; k < MG_KINDS; k++)
      mg_defs_free(&j->ranks[i].defs[k]), mg_hash_free(j->ranks[i].map[k]);
    free(j->ranks[i].dir);
    free(j->ranks[i].program);
    free(j->ranks[i].clock);
    free(j->ranks[i].cev);
  }
  free(j->ranks);
  free(j->sends);
  free(j->recvs);
  free(j->colls);
  for (int k = 0; k < MG_KINDS; k++)
    mg_defs_free(&j->global[k]), mg_hash_free(j->unique[k]);
}

static int merge(mg_job *j, int expect, const char *self, int quiet) {
  if (check_dir(j->dir) != 0 || mg_find_ranks(j, expect, self, quiet) != 0 || read_ranks(j) != 0 ||
      mg_unify(j) != 0 || mg_causal(j) != 0 || mg_job_clock(j) != 0)
    return 1;
  if (make_private(j) != 0)
    return 1;
  int rc = mg_write(j) != 0 || mg_link_events(j) != 0 || mg_install(j) != 0;
  remove_partial(j);
  if (!rc && !quiet)
    clock_line(j);
  if (!rc && !quiet)
    printf(ME ": wrote %s/traces.otf2: %zu ranks, %zu locations; event files: %" PRIu64
              " linked (%" PRIu64 " bytes), %" PRIu64 " copied (%" PRIu64 " bytes)\n",
           j->dir, j->nranks, j->global[K_LOCATION].n, j->linked, j->link_bytes, j->copied,
           j->copy_bytes);
  return rc;
}

int main(int argc, char **argv) {
  const char *dir = NULL;
  int ranks = 0, quiet = 0;
  if (parse(argc, argv, &dir, &ranks, &quiet) != 0)
    return 2;
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = 0;
  mg_quiet_otf2();
  mg_job j = {.dir = dir};
  int rc = merge(&j, ranks, self, quiet);
  free_job(&j);
  return rc;
}
