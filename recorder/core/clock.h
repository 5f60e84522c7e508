/* Timestamps: raw TSC ticks where the TSC is constant and invariant,
 * CLOCK_MONOTONIC nanoseconds otherwise. Converted to nanoseconds of
 * CLOCK_MONOTONIC at finalize using two calibration points. */
#ifndef OMPTRACE_CLOCK_H
#define OMPTRACE_CLOCK_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

extern int ot_clock_use_tsc; /* set once by ot_clock_init */
/* Test-only skew added to every CLOCK_MONOTONIC read (ot_clock_test_skew);
 * 0 in real runs. Each library has its copy: core/clock.c sets it in
 * ot_clock_init, mpi/clock_sync.c when it is loaded. */
extern int64_t ot_clock_skew_ns;

/* signal-safe: reachable from the sampling signal handler.
 * CLOCK_MONOTONIC in nanoseconds: the archive's time base. */
static inline uint64_t ot_monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + (uint64_t)ot_clock_skew_ns;
}

/* For tests only (docs/mpi.md, "Clocks"): OMPTRACE_TEST_CLOCK_SKEW=R:NS
 * makes the clock of MPI world rank R (OMPI_COMM_WORLD_RANK or PMIX_RANK
 * in the environment) run NS ns (signed) ahead of the host's: its events
 * and its clock-sync reads alike, as on a host whose clock differs.
 * Returns NS for that rank, 0 otherwise or when malformed. */
static inline int64_t ot_clock_test_skew(void) {
  const char *v = getenv("OMPTRACE_TEST_CLOCK_SKEW"), *me = getenv("OMPI_COMM_WORLD_RANK");
  if (!me)
    me = getenv("PMIX_RANK");
  char *end;
  if (!v || !me)
    return 0;
  long rank = strtol(v, &end, 10);
  if (end == v || *end != ':' || rank != strtol(me, NULL, 10))
    return 0;
  const char *ns = end + 1;
  long long skew = strtoll(ns, &end, 10);
  return end == ns || *end ? 0 : (int64_t)skew;
}

/* signal-safe: reachable from the sampling signal handler. */
static inline uint64_t ot_clock_now(void) {
  if (__builtin_expect(ot_clock_use_tsc, 1))
    return __rdtsc();
  return ot_monotonic_ns();
}

/* signal-safe. A calibration point: the raw clock (ot_clock_now's ticks)
 * and the CLOCK_MONOTONIC ns read at the same instant, within the
 * tightest of a few brackets. */
void ot_clock_point(uint64_t *raw, uint64_t *ns);
/* Chooses the clock (OMPTRACE_CLOCK, TSC invariance) and takes the first
 * calibration point. */
void ot_clock_init(void);
/* Takes the second calibration point; call before ot_clock_to_ns. */
void ot_clock_calibrate(void);
/* Sets the conversion from two calibration points read back from a record
 * log (raw tick, CLOCK_MONOTONIC ns): use_tsc says which clock the ticks
 * come from. raw1 <= raw0 (one point only) calibrates against now, as
 * ot_clock_calibrate does: right for the machine and boot that recorded. */
void ot_clock_set_points(int use_tsc, uint64_t raw0, uint64_t ns0, uint64_t raw1, uint64_t ns1);
/* Raw ticks to CLOCK_MONOTONIC nanoseconds (monotone in raw). */
uint64_t ot_clock_to_ns(uint64_t raw);

/* The conversion ot_clock_to_ns applies, as a value: finalize converts
 * every record's time and does it inline with a copy taken once the
 * calibration points are set. tsc = 0: raw values are nanoseconds. */
typedef struct ot_clock_conv {
  int tsc;
  uint64_t raw0, ns0;   /* the first calibration point */
  uint64_t whole, frac; /* ns per tick: whole part and 64-bit fraction */
} ot_clock_conv;
/* The current conversion (calibrating first, as ot_clock_to_ns does). */
void ot_clock_conversion(ot_clock_conv *c);
static inline uint64_t ot_clock_conv_ns(const ot_clock_conv *c, uint64_t raw) {
  if (!c->tsc)
    return raw;
  uint64_t d = raw >= c->raw0 ? raw - c->raw0 : c->raw0 - raw;
  uint64_t ns = d * c->whole + (uint64_t)(((unsigned __int128)d * c->frac) >> 64);
  if (raw >= c->raw0)
    return c->ns0 + ns;
  return ns < c->ns0 ? c->ns0 - ns : 0;
}
/* Human-readable name of the clock in use ("tsc" or "monotonic"). */
const char *ot_clock_name(void);

#endif
