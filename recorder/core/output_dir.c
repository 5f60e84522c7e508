/* The archive directory. An existing archive, or a directory another run
 * is writing to, is never overwritten: the next free <dir>.N is used
 * instead, and the user is told. */
#include "core/output_dir.h"
#include "core/log.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int holds_archive(const char *dir) {
  char p[PATH_MAX + 32];
  struct stat st;
  snprintf(p, sizeof p, "%s/" OT_ARCHIVE_NAME ".otf2", dir);
  if (stat(p, &st) == 0)
    return 1;
  snprintf(p, sizeof p, "%s/" OT_ARCHIVE_NAME, dir);
  return stat(p, &st) == 0;
}

int ot_make_dirs(const char *path) {
  char buf[PATH_MAX];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
      return -1;
    *p = '/';
  }
  if (mkdir(buf, 0755) != 0 && errno != EEXIST)
    return -1;
  return 0;
}

/* Creates dir if needed and checks it is a writable directory. */
static int usable_dir(const char *dir) {
  struct stat st;
  if (ot_make_dirs(dir) != 0 || stat(dir, &st) != 0)
    return -1;
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return access(dir, W_OK | X_OK);
}

/* Claims dir for this process by creating <dir>/.log exclusively (the
 * record log, removed once the archive is written), so
 * two programs started at once with the same OMPTRACE_OUTPUT never share
 * a directory. Returns 0 claimed, 1 taken by another run, -1 error. */
static int claim(const char *dir) {
  char p[PATH_MAX + 32];
  snprintf(p, sizeof p, "%s/" OT_LOG_NAME, dir);
  if (mkdir(p, 0755) == 0)
    return 0;
  return errno == EEXIST ? 1 : -1;
}

int ot_output_dir_create(char *out, size_t size) {
  char dir[PATH_MAX];
  size_t len = strlen(out);
  while (len > 1 && out[len - 1] == '/') /* "out/" names "out" */
    out[--len] = '\0';
  snprintf(dir, sizeof dir, "%s", out);
  for (unsigned n = 1;; n++) {
    if (!holds_archive(dir)) {
      if (usable_dir(dir) != 0) {
        ot_warn("cannot create or write the output directory %s: %s; tracing is off", dir,
                strerror(errno));
        return -1;
      }
      int c = claim(dir);
      if (c == 0)
        break;
      if (c < 0) {
        ot_warn("cannot write in the output directory %s: %s; tracing is off", dir,
                strerror(errno));
        return -1;
      }
    }
    if (snprintf(dir, sizeof dir, "%s.%u", out, n) >= (int)sizeof dir || n > 9999) {
      ot_warn("cannot pick a new directory next to %s: tracing is off", out);
      return -1;
    }
  }
  if (strcmp(dir, out) != 0)
    ot_warn("%s already holds an archive or is in use: writing to %s instead", out, dir);
  char abs[PATH_MAX];
  if (!realpath(dir, abs) || strlen(abs) >= size) {
    ot_warn("cannot resolve the output directory %s: %s; tracing is off", dir, strerror(errno));
    return -1;
  }
  memcpy(out, abs, strlen(abs) + 1);
  return 0;
}

void ot_output_dir_abandon(const char *dir) {
  char p[PATH_MAX + 32];
  snprintf(p, sizeof p, "%s/" OT_LOG_NAME, dir);
  rmdir(p);
  rmdir(dir); /* fails, as wanted, when the directory holds anything else */
}
