/* The archive directory. An existing archive, or a directory another run
 * is writing to, is never overwritten: the next free <dir>.N is used
 * instead, and the user is told. The same for a directory another user
 * could change under us (core/safe_dir.c). */
#include "core/output_dir.h"
#include "core/log.h"
#include "core/safe_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int holds_archive(int dir) {
  struct stat st;
  return fstatat(dir, OT_ARCHIVE_NAME ".otf2", &st, AT_SYMLINK_NOFOLLOW) == 0 ||
         fstatat(dir, OT_ARCHIVE_NAME, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* Claims dir for this process by creating <dir>/.log exclusively (the
 * record log, removed once the archive is written), so
 * two programs started at once with the same OMPTRACE_OUTPUT never share
 * a directory. mkdirat never follows a link at that name (EEXIST). Returns
 * 0 claimed, 1 taken by another run, -1 error. */
static int claim(int dir) {
  if (mkdirat(dir, OT_LOG_NAME, 0755) == 0)
    return 0;
  return errno == EEXIST ? 1 : -1;
}

int ot_output_dir_create(char *out, size_t size) {
  char dir[PATH_MAX], why[PATH_MAX + 128], unsafe_why[PATH_MAX + 128] = "";
  size_t len = strlen(out);
  while (len > 1 && out[len - 1] == '/') /* "out/" names "out" */
    out[--len] = '\0';
  snprintf(dir, sizeof dir, "%s", out);
  int fd = -1;
  for (unsigned n = 1;; n++) {
    fd = ot_dir_open(dir, 1, why, sizeof why);
    if (fd == -1) {
      if (unsafe_why[0]) /* a .N tried because out was not safe: both reasons */
        ot_warn("cannot create or write the output directory %s: %s (not safe to write in: %s); "
                "tracing is off",
                dir, why, unsafe_why);
      else
        ot_warn("cannot create or write the output directory %s: %s; tracing is off", dir, why);
      return -1;
    }
    if (fd == -2 && !unsafe_why[0]) /* the first says why */
      snprintf(unsafe_why, sizeof unsafe_why, "%s", why);
    if (fd >= 0 && !holds_archive(fd)) {
      int c = claim(fd);
      if (c == 0)
        break;
      if (c < 0) {
        ot_warn("cannot write in the output directory %s: %s; tracing is off", dir,
                strerror(errno));
        close(fd);
        return -1;
      }
    }
    if (fd >= 0)
      close(fd);
    if (snprintf(dir, sizeof dir, "%s.%u", out, n) >= (int)sizeof dir || n > 9999) {
      ot_warn("cannot pick a new directory next to %s%s%s: tracing is off", out,
              unsafe_why[0] ? ": " : "", unsafe_why);
      return -1;
    }
  }
  if (strcmp(dir, out) != 0 && unsafe_why[0])
    ot_warn("not safe to write in: %s; writing to %s instead", unsafe_why, dir);
  else if (strcmp(dir, out) != 0)
    ot_warn("%s already holds an archive or is in use: writing to %s instead", out, dir);
  char abs[PATH_MAX];
  if (ot_dir_path(fd, dir, abs, sizeof abs) != 0 || strlen(abs) >= size) {
    ot_warn("cannot resolve the output directory %s: %s; tracing is off", dir, strerror(errno));
    close(fd);
    return -1;
  }
  close(fd);
  memcpy(out, abs, strlen(abs) + 1);
  return 0;
}

void ot_output_dir_abandon(const char *dir) {
  char p[PATH_MAX + 32];
  snprintf(p, sizeof p, "%s/" OT_LOG_NAME, dir);
  rmdir(p);
  rmdir(dir); /* fails, as wanted, when the directory holds anything else */
}
