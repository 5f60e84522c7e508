/* Clock selection and calibration. The hot path reads the raw TSC (about
 * 10 ns here, against 24 ns for clock_gettime); two calibration points
 * against CLOCK_MONOTONIC, taken at initialization and at finalize, turn
 * ticks into nanoseconds afterwards. */
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"

#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int ot_clock_use_tsc = 0;
int64_t ot_clock_skew_ns = 0;
/* Whether recorded times are TSC ticks: the recording clock for a live
 * run, the log's clock for a recovered one. Kept apart from
 * ot_clock_use_tsc, which threads still running at finalize (exit() in a
 * parallel region) read on every event and which must not change then. */
static int convert_tsc;

/* One calibration point: a TSC value and the monotonic time at that tick. */
typedef struct {
  uint64_t tsc, ns;
} clock_point;

static clock_point p0, p1;
static int calibrated;
/* ns per tick as whole part and 64-bit fraction, rounded up, so that
 * converting (a multiply per record at finalize, not a 128-bit division)
 * gives floor(ticks * dn / dt), exact on multiples. */
static uint64_t per_tick_whole, per_tick_frac;

static void set_ratio(void) {
  unsigned __int128 dt = p1.tsc - p0.tsc, dn = p1.ns - p0.ns;
  per_tick_whole = (uint64_t)(dn / dt);
  unsigned __int128 rem = dn % dt;
  per_tick_frac = (uint64_t)(((rem << 64) + dt - 1) / dt);
}

/* Shortest interval between two calibration points; a shorter run is
 * stretched by sleeping. Between the points the conversion error stays
 * within the brackets' uncertainty (about 100 ns) whatever the span; the
 * minimum only keeps the tick rate sane for programs that end at once. */
#define OT_CLOCK_MIN_SPAN_NS 2000000ull

/* Pairs a TSC reading with the midpoint of the tightest of a few
 * clock_gettime brackets, so preemption during one try does not matter:
 * a lone pair read on a loaded machine can be microseconds apart, and
 * every time between two points inherits that error. */
void ot_clock_point(uint64_t *raw, uint64_t *ns) {
  uint64_t best_span = UINT64_MAX;
  *raw = *ns = 0;
  for (int i = 0; i < 7; i++) {
    uint64_t a = ot_monotonic_ns();
    uint64_t t = __rdtsc();
    uint64_t b = ot_monotonic_ns();
    if (b - a < best_span) {
      best_span = b - a;
      *raw = t;
      *ns = a + (b - a) / 2;
    }
  }
  if (!ot_clock_use_tsc)
    *raw = *ns;
}

static clock_point take_point(void) {
  clock_point p;
  ot_clock_point(&p.tsc, &p.ns);
  return p;
}

static int cpuid_invariant_tsc(void) {
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u)
    return 0;
  if (!__get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx))
    return 0;
  return (edx >> 8) & 1;
}

/* Hypervisors often hide the cpuid bit but the kernel still reports the
 * TSC as constant and nonstop. */
static int cpuinfo_invariant_tsc(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f)
    return 0;
  char line[8192];
  int ok = 0;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "flags", 5) == 0) {
      ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
      break;
    }
  }
  fclose(f);
  return ok;
}

void ot_clock_init(void) {
  ot_clock_skew_ns = ot_clock_test_skew();
  ot_clock_use_tsc = ot_cfg.clock_tsc && (cpuid_invariant_tsc() || cpuinfo_invariant_tsc());
  convert_tsc = ot_clock_use_tsc;
  calibrated = 0;
  if (ot_clock_use_tsc)
    p0 = take_point();
}

void ot_clock_calibrate(void) {
  if (!convert_tsc)
    return;
  uint64_t now = ot_monotonic_ns();
  if (now - p0.ns < OT_CLOCK_MIN_SPAN_NS) {
    uint64_t left = OT_CLOCK_MIN_SPAN_NS - (now - p0.ns);
    struct timespec ts = {(time_t)(left / 1000000000u), (long)(left % 1000000000u)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
  }
  p1 = take_point();
  calibrated = 1;
  if (p1.tsc <= p0.tsc || p1.ns <= p0.ns) {
    /* A TSC that did not advance (broken virtualization): times would be
     * meaningless, so say so once; conversion assumes 1 tick = 1 ns. */
    ot_warn("the TSC did not advance during the run; archive times are unreliable "
            "(use OMPTRACE_CLOCK=monotonic)");
    p1.tsc = p0.tsc + 1;
    p1.ns = p0.ns + 1;
  }
  set_ratio();
}

void ot_clock_set_points(int use_tsc, uint64_t raw0, uint64_t ns0, uint64_t raw1, uint64_t ns1) {
  convert_tsc = use_tsc;
  p0 = (clock_point){raw0, ns0};
  calibrated = 0;
  if (!use_tsc)
    return;
  if (raw1 > raw0 && ns1 > ns0) {
    p1 = (clock_point){raw1, ns1};
    calibrated = 1;
    set_ratio();
  } else {
    ot_clock_calibrate();
  }
}

void ot_clock_conversion(ot_clock_conv *c) {
  if (convert_tsc && !calibrated)
    ot_clock_calibrate();
  *c = (ot_clock_conv){convert_tsc, p0.tsc, p0.ns, per_tick_whole, per_tick_frac};
}

uint64_t ot_clock_to_ns(uint64_t raw) {
  ot_clock_conv c;
  ot_clock_conversion(&c);
  return ot_clock_conv_ns(&c, raw);
}

const char *ot_clock_name(void) {
  return ot_clock_use_tsc ? "tsc" : "monotonic";
}
