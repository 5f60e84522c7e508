/* omptrace-recover: turns the record log a run left in DIR/.log (a program
 * that crashed, was killed, or is still running) into the archive
 * DIR/traces.otf2 with the same pipeline the library runs at a normal exit
 * (finalize/run.h), and optionally reports where every thread was
 * (--where, recover/where.h). Never writes into the log. */
#define _GNU_SOURCE /* nftw's FTW_PHYS */
#include "core/config.h"
#include "core/filter.h"
#include "core/output_dir.h"
#include "finalize/out.h"
#include "finalize/run.h"
#include "finalize/symbols.h"
#include "recover/where.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ME "omptrace-recover"

typedef struct opts {
  int keep, where, quiet, verbose;
  uint64_t cut;    /* --cut RAW, or 0 */
  const char *out; /* -o OUTDIR, or NULL */
  const char *dir;
} opts;

static void usage(FILE *f) {
  fputs("usage: " ME " [--keep] [-o OUTDIR] [--where] [-q] [-v] DIR\n"
        "Writes the archive DIR/traces.otf2 from the record log DIR/.log that a run which\n"
        "did not finish (crash, kill, hang, or still running) left behind.\n"
        "  --keep        keep DIR/.log (recovering again gives the same archive)\n"
        "  -o OUTDIR     write OUTDIR/traces.otf2 instead; the log is kept\n"
        "  --where       report where each thread is at its last record (open constructs,\n"
        "                locks held and waited for); also written to OUTDIR/where.txt\n"
        "  -q, --quiet   no exit line\n"
        "  -v, --verbose details of the archive's writing, as OMPTRACE_VERBOSE=1 gives\n"
        "  --cut RAW     leave out what was recorded after the raw clock time RAW (a\n"
        "                snapshot's instant: every thread ends there)\n"
        "OMPTRACE_WRITER_THREAD (auto, on, off) is read as the library reads it.\n"
        "  --help        this text\n",
        f);
}

static int parse(int argc, char **argv, opts *o) {
  static const struct option longs[] = {
      {"keep", no_argument, 0, 'k'},      {"where", no_argument, 0, 'w'},
      {"quiet", no_argument, 0, 'q'},     {"output", required_argument, 0, 'o'},
      {"help", no_argument, 0, 'h'},      {"verbose", no_argument, 0, 'v'},
      {"cut", required_argument, 0, 'c'}, {0, 0, 0, 0}};
  int c;
  opterr = 0; /* our own one-line messages */
  while ((c = getopt_long(argc, argv, ":o:qvh", longs, NULL)) != -1) {
    switch (c) {
    case 'k':
      o->keep = 1;
      break;
    case 'w':
      o->where = 1;
      break;
    case 'q':
      o->quiet = 1;
      break;
    case 'v':
      o->verbose = 1;
      break;
    case 'o':
      o->out = optarg;
      break;
    case 'c': {
      char *end;
      errno = 0;
      unsigned long long raw = strtoull(optarg, &end, 10);
      if (errno || end == optarg || *end || raw == 0 || optarg[0] == '-') {
        fprintf(stderr, ME ": --cut takes a raw clock time (a positive integer), not '%s'\n",
                optarg);
        return -1;
      }
      o->cut = raw;
      break;
    }
    case 'h':
      usage(stdout);
      exit(0);
    case ':':
      fprintf(stderr, ME ": %s needs a value (see " ME " --help)\n", argv[optind - 1]);
      return -1;
    default:
      fprintf(stderr, ME ": unknown option %s (see " ME " --help)\n", argv[optind - 1]);
      return -1;
    }
  }
  if (optind != argc - 1) {
    fprintf(stderr, ME ": %s (see " ME " --help)\n",
            optind == argc ? "no DIR given" : "one DIR at a time (omptrace recover takes several)");
    return -1;
  }
  o->dir = argv[optind];
  return 0;
}

static int exists(const char *dir, const char *name) {
  char p[PATH_MAX + 64];
  struct stat st;
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return lstat(p, &st) == 0;
}

/* Exit status 1 after one line, or 0 (nothing to do), or -1 (go on). */
static int check_dir(const char *dir, const char *out) {
  struct stat st;
  if (stat(dir, &st) != 0) {
    fprintf(stderr, ME ": %s: %s\n", dir, strerror(errno));
    return 1;
  }
  if (!S_ISDIR(st.st_mode)) {
    fprintf(stderr, ME ": %s: not a directory\n", dir);
    return 1;
  }
  if (!exists(dir, OT_LOG_NAME)) {
    if (exists(dir, OT_ARCHIVE_NAME ".otf2") && !out) {
      printf("nothing to recover: %s already holds an archive\n", dir);
      return 0;
    }
    fprintf(stderr, ME ": %s: no record log here (expected %s/%s)\n", dir, dir, OT_LOG_NAME);
    return 1;
  }
  char log[PATH_MAX + 64];
  snprintf(log, sizeof log, "%s/%s", dir, OT_LOG_NAME);
  if (access(log, R_OK | X_OK) != 0) {
    fprintf(stderr, ME ": %s: %s\n", log, strerror(errno));
    return 1;
  }
  return -1;
}

static int unlink_one(const char *p, const struct stat *st, int flag, struct FTW *f) {
  (void)st, (void)flag, (void)f;
  return remove(p);
}

static int remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0)
    return errno == ENOENT ? 0 : -1;
  return nftw(path, unlink_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* -o OUTDIR, created where missing, or DIR itself when the archive goes
 * there (path NULL): through no link another user owns and only when no
 * other user can change it (core/output_dir.h), before anything in it is
 * replaced; -o's absolute path into path. */
static int out_dir(const char *out, char *path, size_t size) {
  char why[PATH_MAX + 128];
  int fd = ot_dir_open(out, path != NULL, why, sizeof why);
  const char *opt = path ? "-o " : "";
  if (fd < 0) {
    fprintf(stderr, ME ": %s%s: %s%s\n", opt, out, fd == -2 ? "not safe to write in: " : "", why);
    return -1;
  }
  int rc = path ? ot_dir_path(fd, out, path, size) : 0;
  if (rc != 0)
    fprintf(stderr, ME ": %s%s: %s\n", opt, out, strerror(errno));
  close(fd);
  return rc;
}

/* The private directories (.traces.XXXXXX, finalize/otf2_io.h) of an
 * archive whose writing was cut by a signal: the log rewrites it. Only
 * real directories of ours. */
static void clear_private(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    char p[PATH_MAX + 300];
    struct stat st;
    if (strncmp(e->d_name, "." OT_ARCHIVE_NAME ".", sizeof OT_ARCHIVE_NAME + 1) != 0 ||
        strlen(e->d_name) != sizeof OT_ARCHIVE_NAME + 7)
      continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid())
      remove_tree(p);
  }
  closedir(d);
}

/* An archive already in the output directory: in place it is an earlier
 * recovery of this same log (the log claims the directory), so it is
 * replaced; with -o another run's archive is never overwritten. */
static int clear_archive(const char *dir, int in_place) {
  if (in_place)
    clear_private(dir);
  if (!exists(dir, OT_ARCHIVE_NAME ".otf2") && !exists(dir, OT_ARCHIVE_NAME ".def") &&
      !exists(dir, OT_ARCHIVE_NAME))
    return 0;
  if (!in_place) {
    fprintf(stderr, ME ": %s already holds an archive; choose another -o directory\n", dir);
    return -1;
  }
  static const char *const parts[] = {OT_ARCHIVE_NAME ".otf2", OT_ARCHIVE_NAME ".def",
                                      OT_ARCHIVE_NAME};
  for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s", dir, parts[i]);
    if (remove_tree(p) != 0) {
      fprintf(stderr, ME ": cannot replace %s: %s\n", p, strerror(errno));
      return -1;
    }
  }
  return 0;
}

/* A log whose program still runs on this host: recovering it in place
 * would take the archive slot its own exit writes. Unless that program
 * started us itself (its fatal-signal handler, faults/signals.c). */
static int still_running(const ot_run *run) {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  return run->pid > 0 && !run->finished && (pid_t)run->pid != getppid() &&
         strcmp(host, run->host) == 0 && kill((pid_t)run->pid, 0) == 0;
}

/* path as a new file (a regular file of ours there is replaced): never
 * through a link, never into a file of another user. */
static FILE *create_new(const char *path) {
  int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = open(path, flags, 0644);
  struct stat st;
  if (fd < 0 && errno == EEXIST && lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
      st.st_uid == geteuid() && unlink(path) == 0)
    fd = open(path, flags, 0644);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (fd >= 0 && !f)
    close(fd);
  return f;
}

static int write_where(const ot_where *w, const char *outdir, const char *dir) {
  char path[PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/where.txt", outdir);
  ot_where_print(w, stdout, dir);
  FILE *f = create_new(path);
  if (!f) {
    fprintf(stderr, ME ": cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  ot_where_print(w, f, dir);
  if (fclose(f) != 0) {
    fprintf(stderr, ME ": cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  return 0;
}

/* What the exit line of the library cannot say: threads that stopped
 * before their end, records lost, damaged logs. */
static void report_loss(const ot_run *run, const ot_where *w, const char *dir) {
  uint32_t n, early = ot_where_ended_early(w, &n), damaged = 0;
  uint64_t lost = 0;
  for (uint32_t i = 0; i < run->nthreads; i++) {
    lost += run->threads[i].lost;
    damaged += run->threads[i].damaged != 0;
  }
  printf("recovered %s: %u of %u threads ended early, %" PRIu64 " records lost, "
         "%u thread log%s ended in a damaged frame%s\n",
         dir, early, n, lost, damaged, damaged == 1 ? "" : "s",
         run->finished ? " (the run had finished)" : "");
}

/* The run's filter file (META "filter"): finalize then drops what its
 * rules exclude, as the recording run did. */
static void load_filter(const ot_run *run) {
  char err[512];
  if (run->filter && ot_filter_load(run->filter, err, sizeof err) != 0)
    fprintf(stderr, ME ": %s: OMPTRACE_FILTER: %s; the archive is written unfiltered\n", run->dir,
            err);
}

/* A log without any thread: no archive (readers refuse one of 0 threads);
 * one line saying why. Exit status 0 when nothing was flushed yet (nothing
 * to recover, as for a directory that holds an archive), 3 when the damage
 * named before left no thread. */
static int no_threads(const ot_run *run, const char *dir) {
  if (!run->nmissing && !run->nexpect && !run->flushed) {
    /* The tool writes the process file's first frames as it starts. */
    fprintf(stderr,
            ME ": %s: the log is empty, without even the frames written as the run started: "
               "every write to it failed (a full disk: the run's last line counted the records "
               "lost), or it was emptied since; no archive written\n",
            dir);
    return 0;
  }
  if (!run->nmissing && !run->nexpect) {
    fprintf(stderr,
            ME ": %s: no thread's records were flushed to the log yet: the program ended "
               "(SIGKILL, _exit, a crash the tool could not handle) before its first flush, "
               "10 ms after it started (none with OMPTRACE_FLUSH_INTERVAL=off); no archive "
               "written\n",
            dir);
    return 0;
  }
  fprintf(stderr, ME ": %s: the log holds no thread (see above); no archive written\n", dir);
  return 3;
}

static int recover(const opts *o) {
  ot_run run;
  memset(&run, 0, sizeof run);
  if (ot_run_load(&run, o->dir, 0, NULL) != 0)
    return 1;
  if (run.npresent == 0) {
    int st = no_threads(&run, o->dir);
    ot_run_free(&run);
    return st;
  }
  load_filter(&run);
  if (o->cut)
    ot_run_cut(&run, o->cut);
  int rc = 1;
  ot_where w;
  if (!o->out && still_running(&run)) {
    fprintf(stderr,
            ME ": %s: the program writing this log (pid %ld) is still running; use -o OUTDIR "
               "or `omptrace snapshot %ld`\n",
            o->dir, run.pid, run.pid);
    ot_run_free(&run);
    return 1;
  }
  /* Without --where only the last records matter, for the exit line (none
   * with -q): taken from finalize's scan pass, not a pass of their own. */
  memset(&w, 0, sizeof w);
  if ((o->where ? ot_where_scan(&w, &run, 1) : o->quiet ? 0 : ot_where_follow(&w, &run)) != 0) {
    fprintf(stderr, ME ": out of memory\n");
    ot_run_free(&run);
    return 1;
  }
  if (o->out ? out_dir(o->out, run.dir, sizeof run.dir) != 0 : out_dir(run.dir, NULL, 0) != 0)
    goto done;
  if (clear_archive(run.dir, !o->out) != 0)
    goto done;
  if (o->where) {
    ot_symbols_open(&run);
    int bad = write_where(&w, run.dir, o->dir);
    ot_symbols_close();
    if (bad)
      goto done;
  }
  if (ot_finalize_write(&run) != 0)
    goto done;
  if (!o->quiet)
    report_loss(&run, &w, o->dir);
  rc = run.nmissing ? 3 : 0; /* each named by ot_run_load */
  if (!o->keep && !o->out && remove_tree(run.log_dir) != 0) {
    fprintf(stderr, ME ": wrote the archive but cannot remove %s: %s\n", run.log_dir,
            strerror(errno));
    rc = 1;
  }
done:
  ot_where_free(&w);
  ot_run_free(&run);
  return rc;
}

int main(int argc, char **argv) {
  opts o = {0};
  if (parse(argc, argv, &o) != 0)
    return 2;
  ot_cfg.quiet = o.quiet;
  ot_cfg.verbose = o.verbose;
  ot_config_load_one("OMPTRACE_WRITER_THREAD");
  int c = check_dir(o.dir, o.out);
  if (c >= 0)
    return c;
  if (fflush(stdout) != 0)
    return 1;
  return recover(&o);
}
