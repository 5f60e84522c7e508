/* Opening a directory to write in, safe against other local users: the
 * path is walked one component at a time with openat and O_NOFOLLOW, so no
 * symbolic link another user planted is ever followed, and a directory
 * another user could change under us (theirs, or writable by others
 * without the sticky bit) is refused. Used by the tool, omptrace-recover
 * and omptrace-merge, so it prints nothing: callers word the reason. */
#include "core/safe_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define MAX_LINKS 40

static void say(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
}

static int trusted(uid_t uid) {
  return uid == geteuid() || uid == 0;
}

/* Another user could add, remove or rename names in a directory like st:
 * why says so. */
static int unsafe(const struct stat *st, int must_be_mine, const char *shown, char *why, size_t n) {
  if (must_be_mine ? st->st_uid != geteuid() : !trusted(st->st_uid)) {
    say(why, n, "%s is owned by another user (uid %u)", shown, (unsigned)st->st_uid);
    return 1;
  }
  if ((st->st_mode & S_IWOTH) && !(st->st_mode & S_ISVTX)) {
    say(why, n, "%s is writable by every user (mode %04o, not sticky)", shown,
        (unsigned)(st->st_mode & 07777));
    return 1;
  }
  return 0;
}

/* The target of the link name in dir, when the link is the caller's or
 * root's (the same link before and after reading it). */
static int read_link(int dir, const char *name, const char *shown, char *to, size_t size, char *why,
                     size_t n) {
  struct stat a, b;
  if (fstatat(dir, name, &a, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(a.st_mode))
    return -1; /* errno from openat stands */
  if (!trusted(a.st_uid)) {
    say(why, n, "%s is a symbolic link owned by another user (uid %u): not followed", shown,
        (unsigned)a.st_uid);
    errno = ELOOP;
    return -2;
  }
  ssize_t len = readlinkat(dir, name, to, size - 1);
  if (len < 0 || (size_t)len >= size - 1 || fstatat(dir, name, &b, AT_SYMLINK_NOFOLLOW) != 0 ||
      a.st_ino != b.st_ino || b.st_uid != a.st_uid) {
    errno = len < 0 ? errno : ELOOP;
    return -1;
  }
  to[len] = 0;
  return 0;
}

int ot_dir_open(const char *path, int create, char *why, size_t n) {
  char rest[2 * PATH_MAX], shown[PATH_MAX], target[PATH_MAX];
  if (snprintf(rest, sizeof rest, "%s", path) >= PATH_MAX) {
    say(why, n, "%s: %s", path, strerror(errno = ENAMETOOLONG));
    return -1;
  }
  int links = 0;
  int fd = open(rest[0] == '/' ? "/" : ".", DIR_FLAGS);
  why[0] = '\0';
  snprintf(shown, sizeof shown, "%s", rest[0] == '/' ? "/" : "");
  char *p = rest;
  while (fd >= 0) {
    while (*p == '/')
      p++;
    if (!*p)
      break;
    char *name = p, *end = strchr(p, '/');
    p = end ? end + 1 : p + strlen(p);
    if (end)
      *end = '\0';
    if (strcmp(name, ".") == 0)
      continue;
    size_t sl = strlen(shown);
    snprintf(shown + sl, sizeof shown - sl, "%s%s", sl && shown[sl - 1] != '/' ? "/" : "", name);
    /* The directory holding the one written in, checked before that is
     * made: else it could be moved away and a link put in its place. */
    struct stat pst;
    char above[PATH_MAX + 32];
    snprintf(above, sizeof above, "the directory above %s", shown);
    if (!p[strspn(p, "/")] && fstat(fd, &pst) == 0 && unsafe(&pst, 0, above, why, n)) {
      close(fd);
      errno = EPERM;
      return -1;
    }
    int next = openat(fd, name, DIR_FLAGS);
    if (next < 0 && errno == ENOENT && create && (mkdirat(fd, name, 0755) == 0 || errno == EEXIST))
      next = openat(fd, name, DIR_FLAGS); /* EEXIST: another run made it meanwhile */
    if (next < 0 && (errno == ELOOP || errno == ENOTDIR)) {
      int e = errno, r = read_link(fd, name, shown, target, sizeof target, why, n);
      if (r == -2) {
        int last = !p[strspn(p, "/")];
        close(fd);
        return last ? -2 : -1;
      }
      if (r == 0 && ++links <= MAX_LINKS && strlen(target) + strlen(p) + 2 < PATH_MAX) {
        /* rest becomes target/remaining, walked from / or from here */
        char tail[2 * PATH_MAX];
        snprintf(tail, sizeof tail, "%s/%s", target, p);
        snprintf(rest, sizeof rest, "%s", tail);
        p = rest;
        shown[sl] = 0;
        if (target[0] == '/') {
          close(fd);
          fd = open("/", DIR_FLAGS);
          snprintf(shown, sizeof shown, "/");
        }
        continue;
      }
      errno = r == 0 ? ELOOP : e;
    }
    if (next < 0) {
      int e = errno;
      say(why, n, "%s: %s", shown, strerror(e));
      close(fd);
      fd = -1;
      errno = e;
      break;
    }
    close(fd);
    fd = next;
  }
  if (fd < 0) {
    int e = errno;
    if (!why[0])
      say(why, n, "%s: %s", shown[0] ? shown : ".", strerror(e));
    errno = e;
    return -1;
  }
  /* The directory written in: no other user may put names in it. */
  struct stat st;
  int rc = fd;
  if (fstat(fd, &st) != 0) {
    say(why, n, "%s: %s", shown, strerror(errno));
    rc = -1;
  } else if (unsafe(&st, 1, shown, why, n)) {
    rc = -2;
  }
  if (rc < 0) {
    close(fd);
    errno = EPERM;
  }
  return rc;
}

int ot_dir_path(int fd, const char *hint, char *out, size_t size) {
  char proc[64], buf[PATH_MAX];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  ssize_t len = readlink(proc, buf, sizeof buf - 1);
  if (len > 0 && buf[0] == '/') {
    buf[len] = 0;
  } else if (!realpath(hint, buf)) {
    return -1;
  }
  if (strlen(buf) >= size) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(out, buf, strlen(buf) + 1);
  return 0;
}

int ot_make_dirs(const char *path) {
  char why[PATH_MAX + 128];
  int fd = ot_dir_open(path, 1, why, sizeof why);
  if (fd < 0)
    return -1;
  close(fd);
  return 0;
}
