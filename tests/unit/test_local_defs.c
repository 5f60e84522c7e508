/* unit_local_defs: finalize/local_defs.c on real OTF2 archives in a
 * temporary directory. Location 0's definition file is OTF2's, the others
 * are hard links to it (one inode, as many links as locations); where
 * link(2) fails, OTF2 writes that location's file and the following ones, with the
 * same bytes. This program's own link() fails on request. */
#define _GNU_SOURCE
#include "check.h"
#include "finalize/local_defs.h"
#include "finalize/otf2_io.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef int link_fn(const char *, const char *);
static link_fn *real_link;
static int fail_at; /* the fail_at-th link from now (1-based) fails with EPERM; 0: none */

/* Calls from local_defs.c resolve to this definition: the program's own. */
int link(const char *from, const char *to) {
  if (!real_link) {
    void *sym = dlsym(RTLD_NEXT, "link");
    memcpy(&real_link, &sym, sizeof sym);
  }
  if (fail_at > 0 && --fail_at == 0) {
    errno = EPERM;
    return -1;
  }
  return real_link(from, to);
}

/* Writes an archive of nloc locations' local definitions into dir; the
 * number of files linked. */
static uint32_t write_defs(const char *dir, uint32_t nloc) {
  uint32_t linked = UINT32_MAX;
  OTF2_Archive *a = ot_otf2_open(dir);
  CHECK_TRUE("archive opens", a != NULL);
  if (!a) {
    fprintf(stderr, "unit_local_defs: %s: %s\n", dir, ot_otf2_reason());
    return linked;
  }
  CHECK_U64("ot_local_defs_write", ot_local_defs_write(a, dir, nloc, &linked), OTF2_SUCCESS);
  CHECK_U64("archive closes", OTF2_Archive_Close(a), OTF2_SUCCESS);
  ot_otf2_closed();
  return linked;
}

static int def_stat(const char *dir, uint32_t loc, struct stat *st) {
  char path[600];
  snprintf(path, sizeof path, "%s/traces/%u.def", dir, loc);
  return stat(path, st);
}

/* The bytes of a location's file (up to 64), their count in *n. */
static void def_bytes(const char *dir, uint32_t loc, unsigned char *b, size_t *n) {
  char path[600];
  snprintf(path, sizeof path, "%s/traces/%u.def", dir, loc);
  FILE *f = fopen(path, "rb");
  *n = f ? fread(b, 1, 64, f) : 0;
  if (f)
    fclose(f);
}

/* Locations first..nloc: files of their own (one link each) with location
 * 0's bytes, or all links to location 0's file. */
static void check_files(const char *dir, uint32_t nloc, uint32_t own_from, const char *what) {
  struct stat s0, s;
  unsigned char b0[64], b[64];
  size_t n0, n;
  CHECK_I64(what, def_stat(dir, 0, &s0), 0);
  def_bytes(dir, 0, b0, &n0);
  CHECK_TRUE("location 0's file holds OTF2's header", n0 > 0);
  CHECK_U64("links to location 0's file", (uint64_t)s0.st_nlink, own_from);
  for (uint32_t i = 1; i < nloc; i++) {
    if (def_stat(dir, i, &s) != 0) {
      CHECK_TRUE("every location has its file", 0);
      continue;
    }
    def_bytes(dir, i, b, &n);
    CHECK_TRUE("the same bytes as location 0's", n == n0 && memcmp(b, b0, n) == 0);
    if (i < own_from)
      CHECK_TRUE("a link to location 0's file", s.st_ino == s0.st_ino);
    else
      CHECK_TRUE("a file of its own", s.st_ino != s0.st_ino && s.st_nlink == 1);
  }
}

int main(void) {
  char root[64], dir[512];
  if (ut_tmpdir(root, sizeof root, "unit_local_defs") != 0)
    return 1;
  snprintf(dir, sizeof dir, "%s/a", root);
  CHECK_U64("5 locations: 4 linked", write_defs(dir, 5), 4);
  check_files(dir, 5, 5, "5 locations");
  /* The third link fails: locations 3 and 4 get files of their own. */
  snprintf(dir, sizeof dir, "%s/b", root);
  fail_at = 3;
  CHECK_U64("link fails at location 3: 2 linked", write_defs(dir, 5), 2);
  check_files(dir, 5, 3, "link fails");

  snprintf(dir, sizeof dir, "%s/c", root);
  CHECK_U64("1 location: none linked", write_defs(dir, 1), 0);
  struct stat s;
  CHECK_I64("1 location: its file", def_stat(dir, 0, &s), 0);

  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0)
    fprintf(stderr, "unit_local_defs: cannot remove %s\n", root);
  return ut_done("unit_local_defs");
}
