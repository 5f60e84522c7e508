/* fork(): the log is paused around the fork so the child never inherits a
 * half-written frame; the parent goes on as before; the child records from
 * the fork on into its own directory <dir>.fork-<pid>, with the forking
 * thread as its location 0. A child that exec'ed at once leaves that
 * directory with a log of no records: its parent removes it at its end. */
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "core/output_dir.h"
#include "core/thread.h"
#include "core/threads.h"
#include "events/control.h"
#include "faults/faults.h"
#include "faults/faults_int.h"
#include "log/flusher.h"
#include "log/format.h"
#include "services/sampler.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int in_fork; /* the prepare hook ran with recording on */

static void prepare(void) {
  in_fork = atomic_load(&ot_recording);
  if (in_fork)
    ot_log_fork_prepare();
}

static void parent(void) {
  if (in_fork)
    ot_log_fork_parent();
  in_fork = 0;
}

/* The child cannot be traced: it records nothing, and its finalize (which
 * would write with the parent's log state) does nothing. */
static void untraced(void) {
  atomic_store(&ot_recording, 0);
  ot_faults_claim_end();
}

static void child(void) {
  if (!in_fork)
    return;
  in_fork = 0;
  ot_thread *self = ot_self;
  ot_sampler_fork_child();
  ot_thread_registry_reset(self);
  if (self) {
    self->tid = getpid();
    self->records = self->lost = self->stall_ns = 0;
    self->begin_ts = ot_clock_now();
  }
  /* <dir>.fork-<pid>, claimed as any output directory (a .N suffix when
   * a run before left one of that name). */
  char dir[sizeof ot_cfg.output];
  snprintf(dir, sizeof dir, "%s.fork-%d", ot_cfg.output, (int)getpid());
  if (ot_output_dir_create(dir, sizeof dir) != 0) {
    untraced(); /* the line said why */
    return;
  }
  memcpy(ot_cfg.output, dir, strlen(dir) + 1);
  if (ot_log_fork_child(ot_cfg.output) != 0) {
    untraced();
    ot_warn("fork: child %d is not traced: cannot start its log in %s", (int)getpid(),
            ot_cfg.output);
    return;
  }
  ot_control_fork_child(self);
  ot_snapshot_fork_child();
  ot_info("fork: child %d records into %s", (int)getpid(), ot_cfg.output);
}

void ot_fork_hooks_install(void) {
  pthread_atfork(prepare, parent, child);
}

/* A leftover of fork()+exec: only a .log/ whose thread files hold at most
 * their THREAD frame (no record was ever written), and nothing else. */
static int empty_child_dir(const char *dir) {
  char p[PATH_MAX + 300];
  DIR *d = opendir(dir);
  if (!d)
    return 0;
  int ok = 1;
  for (struct dirent *e; ok && (e = readdir(d)) != NULL;)
    ok = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
         strcmp(e->d_name, OT_LOG_NAME) == 0;
  closedir(d);
  snprintf(p, sizeof p, "%s/" OT_LOG_NAME, dir);
  if (!ok || !(d = opendir(p)))
    return 0;
  for (struct dirent *e; ok && (e = readdir(d)) != NULL;) {
    struct stat st;
    snprintf(p, sizeof p, "%s/" OT_LOG_NAME "/%s", dir, e->d_name);
    if (e->d_name[0] == '.' || strcmp(e->d_name, OT_LOG_PROCESS_FILE) == 0)
      continue;
    ok = stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
         st.st_size <= (off_t)(sizeof(ot_frame_hdr) + sizeof(ot_log_thread));
  }
  closedir(d);
  return ok;
}

static void remove_child_dir(const char *dir) {
  char p[PATH_MAX + 300];
  snprintf(p, sizeof p, "%s/" OT_LOG_NAME, dir);
  DIR *d = opendir(p);
  if (!d)
    return;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (e->d_name[0] == '.')
      continue;
    snprintf(p, sizeof p, "%s/" OT_LOG_NAME "/%s", dir, e->d_name);
    unlink(p);
  }
  closedir(d);
  snprintf(p, sizeof p, "%s/" OT_LOG_NAME, dir);
  rmdir(p);
  rmdir(dir);
}

void ot_fork_cleanup(void) {
  char parent[PATH_MAX], prefix[PATH_MAX + 16], dir[PATH_MAX + 300];
  snprintf(parent, sizeof parent, "%s", ot_cfg.output);
  char *slash = strrchr(parent, '/');
  if (!slash || slash == parent)
    return;
  *slash = '\0';
  snprintf(prefix, sizeof prefix, "%s.fork-", slash + 1);
  DIR *d = opendir(parent);
  if (!d)
    return;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
      continue;
    long pid = strtol(e->d_name + strlen(prefix), NULL, 10);
    if (pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
      continue; /* still running (maybe the exec'ed program): not ours to judge */
    snprintf(dir, sizeof dir, "%s/%s", parent, e->d_name);
    struct stat st; /* a link another user planted there is not ours to empty */
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
      continue;
    if (empty_child_dir(dir))
      remove_child_dir(dir);
  }
  closedir(d);
}
