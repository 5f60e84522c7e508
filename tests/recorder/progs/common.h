/* Helpers shared by the recorder's test programs: deterministic busy work
 * and a sleep that survives signal interruptions. */
#ifndef OT_TEST_COMMON_H
#define OT_TEST_COMMON_H

#include <errno.h>
#include <time.h>

/* Work the compiler cannot remove; the result is printed by the caller. */
static inline double ot_work(int n) {
  volatile double x = 0.0;
  for (int i = 0; i < n; i++)
    x += (double)(i % 7) * 0.5;
  return x;
}

static inline void ot_sleep_ms(long ms) {
  struct timespec left = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&left, &left) != 0 && errno == EINTR)
    ;
}

#endif
