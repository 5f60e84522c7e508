/* Many short parallel loops (enough records to fill a small disk with
 * the record log), then 100 ms of serial work. With FULL_DISK_WAIT=<file>,
 * says "loops done" after the loops and waits until that file is gone (the
 * test frees the disk then, so records were dropped while it was full). */
#include "spin.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  for (int r = 0; r < 3000; r++) {
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < 2; i++)
      spin_ms(0.05);
  }
  const char *wait = getenv("FULL_DISK_WAIT");
  struct stat st;
  if (wait) {
    printf("loops done\n");
    fflush(stdout);
  }
  while (wait && stat(wait, &st) == 0)
    usleep(1000);
  spin_ms(100);
  return 0;
}
