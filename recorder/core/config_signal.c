/* Signal names for OMPTRACE_SAMPLING_SIGNAL: which signals the sampling
 * timers may use, parsed from a name or a number, and named back for
 * messages. Real-time signals are named relative to SIGRTMIN/SIGRTMAX,
 * whose values the C library decides at run time. */
#include "core/config_table.h"

#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
  const char *name;
  int sig;
} fixed[] = {{"PROF", SIGPROF},
             {"ALRM", SIGALRM},
             {"VTALRM", SIGVTALRM},
             {"USR1", SIGUSR1},
             {"USR2", SIGUSR2}};

static int usable(int sig) {
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    if (fixed[i].sig == sig)
      return 1;
  return sig >= SIGRTMIN && sig <= SIGRTMAX;
}

/* "+N" / "-N" after RTMIN / RTMAX; empty means 0. */
static int offset(const char *s, int sign, int *out) {
  if (!*s) {
    *out = 0;
    return 0;
  }
  if ((sign > 0 && *s != '+') || (sign < 0 && *s != '-') || !isdigit((unsigned char)s[1]))
    return -1;
  char *end;
  long v = strtol(s + 1, &end, 10);
  if (*end || v > 64)
    return -1;
  *out = (int)v * sign;
  return 0;
}

const char *ot_signal_parse(const char *s, int *sig) {
  static char why[160];
  snprintf(why, sizeof why,
           "not SIGPROF, SIGALRM, SIGVTALRM, SIGUSR1, SIGUSR2 or a real-time signal "
           "(SIGRTMIN+N, SIGRTMAX-N, %d..%d)",
           SIGRTMIN, SIGRTMAX);
  const char *p = strncasecmp(s, "SIG", 3) == 0 ? s + 3 : s;
  int v = -1, off;
  if (isdigit((unsigned char)*p) && p == s) {
    char *end;
    long n = strtol(p, &end, 10);
    if (!*end && n < 1000)
      v = (int)n;
  } else if (strncasecmp(p, "RTMIN", 5) == 0) {
    if (offset(p + 5, 1, &off) == 0)
      v = SIGRTMIN + off;
  } else if (strncasecmp(p, "RTMAX", 5) == 0) {
    if (offset(p + 5, -1, &off) == 0)
      v = SIGRTMAX + off;
  } else {
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
      if (strcasecmp(p, fixed[i].name) == 0)
        v = fixed[i].sig;
  }
  if (v < 1 || !usable(v))
    return why;
  *sig = v;
  return NULL;
}

const char *ot_signal_name(int sig, char *buf, size_t n) {
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    if (fixed[i].sig == sig) {
      snprintf(buf, n, "SIG%s", fixed[i].name);
      return buf;
    }
  if (sig == SIGRTMIN)
    snprintf(buf, n, "SIGRTMIN");
  else if (sig > SIGRTMIN && sig <= SIGRTMAX)
    snprintf(buf, n, "SIGRTMIN+%d", sig - SIGRTMIN);
  else
    snprintf(buf, n, "signal %d", sig);
  return buf;
}
