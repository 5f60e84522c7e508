/* Failure reporting and the closing line shared by the unit tests. */
#include "check.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long checks, failed;

static void fail(const char *file, int line, const char *what) {
  failed++;
  const char *base = strrchr(file, '/');
  printf("FAIL %s:%d %s: ", base ? base + 1 : file, line, what);
}

void ut_u64(const char *file, int line, const char *what, uint64_t got, uint64_t want) {
  checks++;
  if (got == want)
    return;
  fail(file, line, what);
  printf("got %" PRIu64 ", want %" PRIu64 "\n", got, want);
}

void ut_i64(const char *file, int line, const char *what, int64_t got, int64_t want) {
  checks++;
  if (got == want)
    return;
  fail(file, line, what);
  printf("got %" PRId64 ", want %" PRId64 "\n", got, want);
}

void ut_str(const char *file, int line, const char *what, const char *got, const char *want) {
  checks++;
  if (got == want || (got && want && strcmp(got, want) == 0))
    return;
  fail(file, line, what);
  printf("got %s%s%s, want %s%s%s\n", got ? "'" : "", got ? got : "NULL", got ? "'" : "",
         want ? "'" : "", want ? want : "NULL", want ? "'" : "");
}

void ut_true(const char *file, int line, const char *what, int ok) {
  checks++;
  if (ok)
    return;
  fail(file, line, what);
  printf("false\n");
}

int ut_done(const char *program) {
  if (failed)
    printf("%s: %lu checks, %lu failed\n", program, checks, failed);
  else
    printf("%s: %lu checks, all passed\n", program, checks);
  return failed ? 1 : 0;
}

int ut_tmpdir(char *dir, size_t size, const char *program) {
  snprintf(dir, size, "/tmp/%s.XXXXXX", program);
  if (mkdtemp(dir))
    return 0;
  fprintf(stderr, "%s: mkdtemp %s: %s\n", program, dir, strerror(errno));
  return -1;
}
