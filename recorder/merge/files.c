/* The merged archive's files: each location's event file linked (hard
 * link; a copy where linking fails) from its rank's archive unchanged, and
 * the finished archive moved into place, its anchor traces.otf2 last, so a
 * reader never sees half an archive. */
#define _GNU_SOURCE /* copy_file_range, nftw's FTW_PHYS, renameat2 */
#include "merge/merge.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int copy_file(const char *src, const char *dst, uint64_t *bytes) {
  int in = open(src, O_RDONLY | O_CLOEXEC);
  if (in < 0)
    return -1;
  /* a new file in the new archive: never through a link planted there */
  int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (out < 0) {
    close(in);
    return -1;
  }
  ssize_t n;
  while ((n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0)) > 0)
    *bytes += (uint64_t)n;
  int rc = n < 0 || fsync(out) != 0 ? -1 : 0;
  close(in);
  if (close(out) != 0)
    rc = -1;
  return rc;
}

static int link_one(mg_job *j, const mg_rank *r, const mg_def *loc, uint64_t global) {
  char src[4096], dst[4096];
  snprintf(src, sizeof src, "%s/traces/%" PRIu64 ".evt", r->dir, loc->id);
  snprintf(dst, sizeof dst, "%s/traces/%" PRIu64 ".evt", j->tmp, global);
  struct stat st;
  if (stat(src, &st) != 0) {
    if (errno == ENOENT && loc->f[2] == 0)
      return 0; /* a location without events may have no file */
    mg_error("%s: %s", src, strerror(errno));
    return -1;
  }
  if (link(src, dst) == 0) {
    j->linked++, j->link_bytes += (uint64_t)st.st_size;
    return 0;
  }
  if (copy_file(src, dst, &j->copy_bytes) != 0) {
    mg_error("%s: cannot link or copy it to %s (%s)", src, dst, strerror(errno));
    return -1;
  }
  j->copied++;
  return 0;
}

int mg_link_events(mg_job *j) {
  for (size_t i = 0; i < j->nranks; i++) {
    const mg_rank *r = &j->ranks[i];
    for (size_t l = 0; l < r->defs[K_LOCATION].n; l++) {
      const mg_def *loc = &r->defs[K_LOCATION].v[l];
      if (link_one(j, r, loc, *mg_hash_get(r->map[K_LOCATION], &loc->id, sizeof loc->id)) != 0)
        return -1;
    }
  }
  return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)ftw;
  return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int mg_remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0)
    return errno == ENOENT ? 0 : -1;
  if (!S_ISDIR(st.st_mode))
    return unlink(path);
  return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The previous merge is removed first, so a name taken now is another
 * process's (a link planted in the meantime): never replaced. */
static int move(const mg_job *j, const char *from, const char *to) {
  char a[4096], b[4096];
  snprintf(a, sizeof a, "%s/%s", j->tmp, from);
  snprintf(b, sizeof b, "%s/%s", j->dir, to);
  if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_NOREPLACE) == 0)
    return 0;
  if ((errno == EINVAL || errno == ENOSYS) && rename(a, b) == 0)
    return 0; /* a file system without RENAME_NOREPLACE */
  mg_error("cannot rename %s to %s (%s)", a, b, strerror(errno));
  return -1;
}

int mg_install(mg_job *j) {
  char path[4096];
  for (int i = 0; i < 2; i++) { /* the anchor first: no archive is left half there */
    snprintf(path, sizeof path, "%s/traces.%s", j->dir, i ? "def" : "otf2");
    if (unlink(path) != 0 && errno != ENOENT) {
      mg_error("%s: %s", path, strerror(errno));
      return -1;
    }
  }
  snprintf(path, sizeof path, "%s/traces", j->dir);
  if (mg_remove_tree(path) != 0) {
    mg_error("%s: cannot remove the previous merge (%s)", path, strerror(errno));
    return -1;
  }
  if (move(j, "traces.def", "traces.def") != 0 || move(j, "traces", "traces") != 0)
    return -1;
  return move(j, "traces.otf2", "traces.otf2");
}
