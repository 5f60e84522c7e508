/* Sampling at 10 kHz while every thread allocates, writes and reads a
 * file, and sleeps: all results must still be exact. Sleeps and reads
 * are interrupted by the sampling signal (EINTR) and resumed here, as
 * a portable program must do. */
#define _GNU_SOURCE
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 40

static void sleep_fully(long ns) {
  struct timespec req = {0, ns}, rem;
  while (nanosleep(&req, &rem) != 0 && errno == EINTR)
    req = rem;
}

static long round_trip(FILE *f, int tid, int r) {
  size_t n = 1000 + (size_t)(r * 37 + tid * 11) % 4000;
  unsigned char *buf = malloc(n), *back = malloc(n);
  if (!buf || !back) {
    free(buf);
    free(back);
    return -1;
  }
  for (size_t i = 0; i < n; i++)
    buf[i] = (unsigned char)(i * 7 + (size_t)r + (size_t)tid);
  rewind(f);
  if (fwrite(buf, 1, n, f) != n || fflush(f) != 0) {
    free(buf);
    free(back);
    return -1;
  }
  rewind(f);
  size_t got = 0;
  while (got < n) {
    size_t k = fread(back + got, 1, n - got, f);
    if (k == 0 && !(ferror(f) && errno == EINTR))
      break;
    clearerr(f);
    got += k;
  }
  long sum = got == n && memcmp(buf, back, n) == 0 ? (long)n : -1;
  free(buf);
  free(back);
  return sum;
}

int main(void) {
  long total = 0, expect = 0;
  int failed = 0;
  for (int tid = 0; tid < 2; tid++)
    for (int r = 0; r < ROUNDS; r++)
      expect += 1000 + (r * 37 + tid * 11) % 4000;
#pragma omp parallel num_threads(2) reduction(+ : total) reduction(| : failed)
  {
    int tid = omp_get_thread_num();
    FILE *f = tmpfile();
    if (!f)
      failed = 1;
    for (int r = 0; f && r < ROUNDS; r++) {
      long s = round_trip(f, tid, r);
      if (s < 0)
        failed = 1;
      else
        total += s;
      sleep_fully(2000000); /* 2 ms */
    }
    if (f)
      fclose(f);
  }
  int ok = !failed && total == expect;
  printf("robust %s (%ld of %ld bytes)\n", ok ? "ok" : "bad", total, expect);
  return ok ? 0 : 1;
}
