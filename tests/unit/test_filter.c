/* recorder/core/filter_rules.c, filter.c and events/filter.h: Score-P
 * filter files (every rule kind, errors with their line), the decisions
 * by region name, construct, function and file, and the hot path's table
 * and per-thread begin/end and lock bookkeeping (the handlers' fast path
 * against the full one, deep nesting, a pause's reset), with this
 * program's own code addresses resolved by libdw. */
#include "check.h"
#include "core/filter.h"
#include "core/filter_rules.h"
#include "core/threads.h"
#include "events/filter.h"

#include <omp-tools.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse(const char *text, char *err, size_t n, ot_filter_rules *r) {
  memset(r, 0, sizeof *r);
  err[0] = 0;
  return ot_filter_rules_parse(r, text, "f", err, n);
}

static int excluded(const ot_filter_rules *r, const char *name, const char *construct,
                    const char *function, const char *file) {
  const char *names[3] = {name, construct, function};
  return ot_filter_rules_excluded(r, names, 3, file);
}

static void rules_kinds(void) {
  ot_filter_rules r;
  char err[256];
  const char *text = "# a comment line\n"
                     "SCOREP_REGION_NAMES_BEGIN # comment after a keyword\n"
                     "  EXCLUDE *\n"
                     "  INCLUDE loop single\n"
                     "          barrier\\ @\\ a.c:12   # continued on the next line\n"
                     "  EXCLUDE MANGLED helper\n"
                     "SCOREP_REGION_NAMES_END\n"
                     "SCOREP_FILE_NAMES_BEGIN\n"
                     "  EXCLUDE */lib/*\n"
                     "  INCLUDE */lib/keep.c\n"
                     "SCOREP_FILE_NAMES_END\n";
  CHECK_I64("parse", parse(text, err, sizeof err, &r), 0);
  CHECK_STR("no error", err, "");
  CHECK_U64("rules", r.n, 7);
  CHECK_TRUE("later INCLUDE wins", !excluded(&r, "loop @ a.c:3", "loop", "main", "/s/a.c"));
  CHECK_TRUE("EXCLUDE * elsewhere", excluded(&r, "flush @ a.c:3", "flush", "main", "/s/a.c"));
  CHECK_TRUE("escaped blanks", !excluded(&r, "barrier @ a.c:12", "barrier", "main", "/s/a.c"));
  CHECK_TRUE("other line", excluded(&r, "barrier @ a.c:13", "barrier", "main", "/s/a.c"));
  CHECK_TRUE("function, MANGLED", excluded(&r, "loop @ a.c:3", "loop", "helper", "/s/a.c"));
  CHECK_TRUE("file glob", excluded(&r, "loop @ x.c:3", "loop", "f", "/s/lib/x.c"));
  CHECK_TRUE("file include", !excluded(&r, "loop @ keep.c:3", "loop", "f", "/s/lib/keep.c"));
  ot_filter_rules_free(&r);
  CHECK_I64(
      "base name",
      parse("SCOREP_FILE_NAMES_BEGIN\nEXCLUDE b.c\nSCOREP_FILE_NAMES_END\n", err, sizeof err, &r),
      0);
  CHECK_TRUE("file base name", excluded(&r, "loop @ b.c:3", "loop", "f", "/s/b.c"));
  CHECK_TRUE("no file", !excluded(&r, "loop", "loop", NULL, NULL));
  ot_filter_rules_free(&r);
}

static void rules_errors(void) {
  static const struct {
    const char *text, *err;
  } cases[] = {
      {"EXCLUDE x\n", "f:1: 'EXCLUDE' outside a SCOREP_REGION_NAMES or SCOREP_FILE_NAMES block"},
      {"SCOREP_REGION_NAMES_BEGIN\n\n  loop\n", "f:3: pattern 'loop' before EXCLUDE or INCLUDE"},
      {"SCOREP_REGION_NAMES_BEGIN\nEXCLUDE a\n", "f:1: block not closed "
                                                 "(SCOREP_REGION_NAMES_END missing)"},
      {"SCOREP_FILE_NAMES_BEGIN\nSCOREP_REGION_NAMES_END\n",
       "f:2: SCOREP_REGION_NAMES_END without its _BEGIN"},
      {"SCOREP_REGION_NAMES_BEGIN\nSCOREP_FILE_NAMES_BEGIN\n",
       "f:2: SCOREP_FILE_NAMES_BEGIN inside a block that is not closed"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    ot_filter_rules r;
    char err[256];
    CHECK_I64(cases[i].text, parse(cases[i].text, err, sizeof err, &r), -1);
    CHECK_STR(cases[i].text, err, cases[i].err);
    CHECK_U64("rules dropped", r.n, 0);
  }
  ot_filter_rules r = {0};
  char err[256];
  CHECK_I64("missing file", ot_filter_rules_load(&r, "/nonexistent/f", err, sizeof err), -1);
  CHECK_STR("missing file", err, "/nonexistent/f: No such file or directory");
}

/* Code addresses of this file: return addresses one byte past a call. */
__attribute__((noinline)) static const void *here(void) {
  return __builtin_return_address(0);
}
__attribute__((noinline)) static const void *excluded_site(void) {
  return here();
}
__attribute__((noinline)) static const void *kept_site(void) {
  return here();
}

/* The thread the handlers would run on (the full path reads ot_self). */
static ot_thread th;

static void hot_path(void) {
  CHECK_I64("registered", ot_thread_register(&th), 0);
  ot_self = &th;
  char path[] = "/tmp/ot_unit_filter_XXXXXX";
  int fd = mkstemp(path);
  const char *text = "SCOREP_REGION_NAMES_BEGIN\nEXCLUDE excluded_site\nSCOREP_REGION_NAMES_END\n";
  CHECK_TRUE("filter file", fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text));
  close(fd);
  ot_filter_init(path);
  unlink(path);
  CHECK_I64("filter on", ot_filter_on, 1);
  const void *x = excluded_site(), *k = kept_site();
  unsigned bar = ompt_sync_region_barrier_explicit;
  CHECK_I64("unknown: recorded", ot_filt_begin(OT_FC_SYNC, bar, x), 0);
  CHECK_I64("end follows", ot_filt_end(), 0);
  ot_filter_resolve_pending();
  CHECK_I64("decided: dropped", ot_filt_begin(OT_FC_SYNC, bar, x), 1);
  CHECK_I64("its wait", ot_filt_inside(), 1);
  CHECK_I64("nested kept", ot_filt_begin(OT_FC_WORK, ompt_work_loop, k), 0);
  CHECK_I64("nested wait", ot_filt_inside(), 0);
  CHECK_I64("nested end", ot_filt_end(), 0);
  CHECK_I64("outer end", ot_filt_end(), 1);
  CHECK_I64("unbalanced end", ot_filt_end(), 0);
  CHECK_I64("null address", ot_filt_drop(OT_FC_FLUSH, 0, NULL), 0);
  /* A lock acquired at an excluded site: its release (elsewhere) goes too;
   * an acquisition that began undecided is recorded whole. */
  CHECK_I64("undecided acquire", ot_filt_acquire(ompt_mutex_critical, 7, x, 0), 0);
  ot_filter_resolve_pending();
  CHECK_I64("its acquired follows", ot_filt_acquire(ompt_mutex_critical, 7, x, 1), 0);
  CHECK_I64("its release kept", ot_filt_release(7), 0);
  CHECK_I64("acquire", ot_filt_acquire(ompt_mutex_critical, 7, x, 0), 1);
  CHECK_I64("acquired", ot_filt_acquire(ompt_mutex_critical, 7, x, 1), 1);
  CHECK_I64("other lock released", ot_filt_release(8), 0);
  CHECK_I64("released", ot_filt_release(7), 1);
  CHECK_I64("released once", ot_filt_release(7), 0);
  CHECK_I64("nest locks: finalize decides", ot_filt_drop(OT_FC_MUTEX, ompt_mutex_nest_lock, x), 0);
}

/* What the handlers' fast path decides (events/sync.c, worksharing.c,
 * mutex.c) is what the full path decides, on the same bit stack, and a
 * pause sends a thread to the full path once, which resets its stack.
 * Runs after hot_path(): x is decided excluded, k kept. */
static void fast_path(void) {
  atomic_store(&th.special, OT_SP_FILTER);
  ot_filter_thread_begin(&th);
  ot_filter_stack *f = &th.filt;
  const void *x = excluded_site(), *k = kept_site();
  unsigned bar = ompt_sync_region_barrier_explicit;
  CHECK_I64("filter alone: fast", ot_filt_fast(&th), 1);
  CHECK_I64("begin excluded", ot_filt_begin_home(f, OT_FC_SYNC, bar, x), 1);
  CHECK_I64("its wait dropped", ot_filt_inside_of(f), 1);
  CHECK_I64("begin kept", ot_filt_begin_home(f, OT_FC_WORK, ompt_work_loop, k), 0);
  CHECK_I64("kept: its wait recorded", ot_filt_inside_of(f), 0);
  CHECK_I64("unknown key: full path",
            ot_filt_begin_home(f, OT_FC_SYNC, ompt_sync_region_taskwait, x), -1);
  CHECK_I64("null address: full path", ot_filt_begin_home(f, OT_FC_SYNC, bar, NULL), -1);
  CHECK_I64("full path on the same stack", ot_filt_begin(OT_FC_MASKED, 0, k), 0);
  CHECK_I64("full end", ot_filt_end(), 0);
  CHECK_I64("kept end", ot_filt_end_of(f), 0);
  CHECK_I64("excluded end", ot_filt_end_of(f), 1);
  CHECK_I64("empty", f->depth, 0);

  /* Deeper than the stack remembers: the outer 64 follow the table, the
   * rest are recorded and their ends too. */
  int dropped = 0;
  for (int i = 0; i < 70; i++)
    dropped += ot_filt_begin_home(f, OT_FC_SYNC, bar, x);
  CHECK_I64("64 remembered and dropped", dropped, 64);
  CHECK_I64("too deep: its wait recorded", ot_filt_inside_of(f), 0);
  int ends = 0;
  for (int i = 0; i < 6; i++)
    ends += ot_filt_end_of(f);
  CHECK_I64("too deep: ends recorded", ends, 0);
  CHECK_I64("back within: wait dropped", ot_filt_inside_of(f), 1);
  for (int i = 0; i < 64; i++)
    ends += ot_filt_end_of(f);
  CHECK_I64("the 64 ends dropped", ends, 64);
  CHECK_I64("unbalanced end", ot_filt_end_of(f), 0);

  /* A lock at an excluded site, fast path: its acquired and release go. */
  CHECK_I64("mutex key decided", ot_filt_home(OT_FC_MUTEX, ompt_mutex_critical, x), OT_FILT_DROP);
  CHECK_I64("acquire", ot_filt_acquire_of(f, 9, 1), 1);
  CHECK_I64("acquired", ot_filt_acquired_of(f, 9), 1);
  CHECK_I64("other released", ot_filt_release_of(f, 8), 0);
  CHECK_I64("released", ot_filt_release_of(f, 9), 1);

  /* A pause: the open construct's end never comes; after it the thread
   * takes the full path once, which empties its stack. */
  CHECK_I64("open excluded", ot_filt_begin_home(f, OT_FC_SYNC, bar, x), 1);
  ot_filter_new_epoch();
  CHECK_I64("stale: full path", ot_filt_fast(&th), 0);
  CHECK_I64("stale flag", atomic_load(&th.special), OT_SP_FILTER | OT_SP_STALE);
  CHECK_I64("reset: no open construct", ot_filt_inside(), 0);
  CHECK_I64("fast again", ot_filt_fast(&th), 1);
  CHECK_I64("stack empty", f->depth, 0);
  atomic_store(&th.special, OT_SP_FILTER | OT_SP_THROTTLE);
  CHECK_I64("throttling: full path", ot_filt_fast(&th), 0);
  ot_self = NULL;
}

int main(void) {
  rules_kinds();
  rules_errors();
  hot_path();
  fast_path();
  ot_filter_close();
  return ut_done("unit_filter");
}
