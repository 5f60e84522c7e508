/* The thread-local "units" counter the SDE test programs increment by known
 * amounts, and the callbacks that expose it (and three times it) to PAPI. */
#ifndef OMPTRACE_TEST_SDE_UNITS_H
#define OMPTRACE_TEST_SDE_UNITS_H

static __thread long long units;

static inline void bump(long long n) {
  units += n;
}

static inline long long read_units(void *p) {
  (void)p;
  return units;
}

static inline long long read_units_x3(void *p) {
  (void)p;
  return 3 * units;
}

#endif
