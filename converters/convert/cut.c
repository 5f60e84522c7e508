/* Values of the cut options: times with units (1.5s, 200ms, 30us, 500ns; a
 * bare number is seconds), event counts, and thread lists ("0,2-3": location
 * indices in definition order, as omptrace-summary --threads lists them). */
#include "convert.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool cv_parse_time(const char *s, uint64_t *ns) {
  static const struct {
    const char *unit;
    double scale;
  } units[] = {{"", 1e9}, {"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1.0}};
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno || !(v >= 0) || isinf(v))
    return false;
  for (size_t i = 0; i < sizeof units / sizeof *units; i++)
    if (!strcmp(end, units[i].unit) && v * units[i].scale < 1.8e19) {
      *ns = (uint64_t)(v * units[i].scale + 0.5);
      return true;
    }
  return false;
}

bool cv_parse_count(const char *s, uint64_t *n) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || *end || errno || v == 0 || s[0] == '-')
    return false;
  *n = v;
  return true;
}

/* One item: N or N-M, both below n. */
static bool range(const char *item, uint32_t n, bool *keep) {
  char *end;
  unsigned long a = strtoul(item, &end, 10), b = a;
  if (end == item || item[0] == '-')
    return false;
  if (*end == '-') {
    const char *m = end + 1;
    b = strtoul(m, &end, 10);
    if (end == m || *m == '-')
      return false;
  }
  if (*end || a > b || b >= n)
    return false;
  for (unsigned long i = a; i <= b; i++)
    keep[i] = true;
  return true;
}

bool cv_parse_threads(const char *s, uint32_t n, bool *keep, char *err, size_t errlen) {
  char buf[1024];
  if (strlen(s) >= sizeof buf || !*s) {
    snprintf(err, errlen, "--threads '%s': expected a list like 0,2-3", s);
    return false;
  }
  strcpy(buf, s);
  char *save = NULL;
  for (char *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save))
    if (!range(it, n, keep)) {
      snprintf(err, errlen, "--threads '%s': '%s' is not a thread index or range in 0-%u", s, it,
               n ? n - 1 : 0);
      return false;
    }
  return true;
}
