/* OMPTRACE_THROTTLE's value: "N,T" (instances, mean duration such as
 * 10us) or off. */
#include "core/config.h"
#include "core/config_table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define THROTTLE_N_MAX 4294967295ull
#define THROTTLE_T_MAX_NS 1e9

/* T: a positive number with ns, us, ms or s, at most 1 s. */
static const char *parse_time(const char *s, uint64_t *ns) {
  static const struct {
    const char *unit;
    double mult;
  } units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
  errno = 0;
  char *end;
  double v = strtod(s, &end);
  if (end == s || errno || !(v > 0))
    return "T is not a positive duration";
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (strcasecmp(end, units[i].unit) == 0) {
      double d = v * units[i].mult;
      if (d > THROTTLE_T_MAX_NS)
        return "T longer than 1s";
      if (d < 1)
        return "T shorter than 1ns";
      *ns = (uint64_t)(d + 0.5);
      return NULL;
    }
  return "T needs a unit (ns, us, ms, s)";
}

const char *ot_throttle_parse(const char *s) {
  if (strcasecmp(s, "off") == 0 || strcmp(s, "0") == 0) {
    ot_cfg.throttle_n = ot_cfg.throttle_ns = 0;
    return NULL;
  }
  const char *comma = strchr(s, ',');
  if (!comma)
    return "not N,T (a count and a duration, e.g. 100000,10us)";
  errno = 0;
  char *end;
  unsigned long long n = strtoull(s, &end, 10);
  if (end != comma || errno || n == 0 || n > THROTTLE_N_MAX || *s == '-' || *s == '+')
    return "N is not a count from 1 to 4294967295";
  uint64_t ns = 0;
  const char *why = parse_time(comma + 1, &ns);
  if (why)
    return why;
  ot_cfg.throttle_n = n;
  ot_cfg.throttle_ns = ns;
  return NULL;
}
