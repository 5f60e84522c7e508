/* unit_clock: recorder/core/clock.c's calibration points. A point pairs a
 * TSC tick with CLOCK_MONOTONIC; a thread preempted between the two reads
 * would pair them microseconds apart, and every archive time between two
 * points would inherit that error (an MPI job's messages then appear
 * received before they were sent). This program's own clock_gettime
 * stalls one chosen read, as a preemption would, and the point must still
 * lie on the line through two clean points. */
#define _GNU_SOURCE
#include "check.h"
#include "core/clock.h"

#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

#define STALL_NS 40000u /* a preemption: 40 us */

typedef int clock_gettime_fn(clockid_t, struct timespec *);
static clock_gettime_fn *real_gettime;
static int stall_at; /* stall the stall_at-th read from now (1-based), 0: none */

static uint64_t real_ns(void) {
  struct timespec ts;
  real_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Calls from clock.c resolve to this definition: the program's own. */
int clock_gettime(clockid_t id, struct timespec *ts) {
  if (!real_gettime) {
    void *sym = dlsym(RTLD_NEXT, "clock_gettime");
    __builtin_memcpy(&real_gettime, &sym, sizeof sym);
  }
  if (id == CLOCK_MONOTONIC && stall_at > 0 && --stall_at == 0) {
    uint64_t until = real_ns() + STALL_NS;
    while (real_ns() < until) {
    }
  }
  return real_gettime(id, ts);
}

static void sleep_ms(int ms) {
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}

/* |ns - the line through a and b at raw|, in ns. */
static uint64_t off_line(uint64_t a_raw, uint64_t a_ns, uint64_t b_raw, uint64_t b_ns, uint64_t raw,
                         uint64_t ns) {
  double at =
      (double)a_ns + (double)(b_ns - a_ns) * (double)(raw - a_raw) / (double)(b_raw - a_raw);
  double d = (double)ns - at;
  return (uint64_t)(d < 0 ? -d : d);
}

/* The point with one of its reads stalled (stall: which read, 1-based:
 * 2 is the read right after the first try's tick), checked against clean
 * points 20 ms before and after. */
static void stalled_point(int stall) {
  uint64_t a_raw, a_ns, raw, ns, b_raw, b_ns;
  ot_clock_point(&a_raw, &a_ns);
  sleep_ms(20);
  stall_at = stall;
  ot_clock_point(&raw, &ns);
  CHECK_U64("the stall happened", (uint64_t)stall_at, 0);
  stall_at = 0;
  sleep_ms(20);
  ot_clock_point(&b_raw, &b_ns);
  char what[96];
  snprintf(what, sizeof what, "read %d stalled %u ns: point within 2 us of the line", stall,
           STALL_NS);
  uint64_t off = off_line(a_raw, a_ns, b_raw, b_ns, raw, ns);
  CHECK_TRUE(what, off < 2000);
  if (off >= 2000)
    printf("  the point is %llu ns off the line\n", (unsigned long long)off);
}

int main(void) {
  ot_clock_use_tsc = 1; /* x86-64: the TSC runs whatever the kernel's choice */
  for (int stall = 1; stall <= 6; stall++)
    stalled_point(stall);

  /* Conversion through two stalled points stays on the clean line. */
  uint64_t a_raw, a_ns, mid_raw, mid_ns, b_raw, b_ns;
  stall_at = 2;
  ot_clock_point(&a_raw, &a_ns);
  sleep_ms(10);
  ot_clock_point(&mid_raw, &mid_ns);
  sleep_ms(10);
  stall_at = 2;
  ot_clock_point(&b_raw, &b_ns);
  ot_clock_set_points(1, a_raw, a_ns, b_raw, b_ns);
  uint64_t conv = ot_clock_to_ns(mid_raw);
  CHECK_TRUE("a time between two stalled points converts within 2 us",
             (conv > mid_ns ? conv - mid_ns : mid_ns - conv) < 2000);

  /* Without the TSC a point's raw value is its nanoseconds. */
  ot_clock_use_tsc = 0;
  uint64_t raw, ns;
  ot_clock_point(&raw, &ns);
  CHECK_U64("monotonic clock: raw == ns", raw, ns);
  return ut_done("unit_clock");
}
