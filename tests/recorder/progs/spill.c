/* Many small records (about 60 000 on each of two threads) so that a small
 * OMPTRACE_BUFFER_SIZE forces many buffer hand-offs. Every count is fixed.
 * With SPILL_DAMAGE=<file>, cuts that file (a spill file of the tool) in
 * the middle of a record before exit, as a damaged disk would. With
 * SPILL_WAIT=<file>, waits after its output until that file is gone (the
 * test frees space on a full disk before the archive is written); then,
 * with SPILL_HOLD=<file>, until that one is gone too (the test reads the
 * record log of the running program meanwhile). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  long x = 0;
  for (int r = 0; r < 200; r++) {
#pragma omp parallel num_threads(2) /* @par */
    {
#pragma omp for schedule(static) /* @loop */
      for (int i = 0; i < 200; i++) {
#pragma omp critical /* @critical */
        x += i;
      }
#pragma omp barrier /* @barrier */
    }
  }
  const char *victim = getenv("SPILL_DAMAGE");
  struct stat st;
  if (victim && stat(victim, &st) == 0 && truncate(victim, st.st_size / 2 + 3) != 0)
    perror("truncate");
  printf("spill %ld\n", x);
  fflush(stdout);
  const char *wait = getenv("SPILL_WAIT");
  while (wait && stat(wait, &st) == 0)
    usleep(1000);
  const char *hold = getenv("SPILL_HOLD");
  while (hold && stat(hold, &st) == 0)
    usleep(1000);
  return 0;
}
