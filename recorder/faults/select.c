/* OMPTRACE_SIGNALS and OMPTRACE_SNAPSHOT_SIGNAL: which signals the fault
 * handlers take. A bad value is reported in one line, as core/config.c
 * does for the other variables, and the default is used. */
#include "core/config.h"
#include "core/config_table.h"
#include "core/log.h"
#include "faults/faults_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
  const char *name; /* as in OMPTRACE_SIGNALS, and SIG<NAME> in messages */
  const char *full;
  int sig;
} known[] = {
    {"term", "SIGTERM", SIGTERM}, {"int", "SIGINT", SIGINT},    {"hup", "SIGHUP", SIGHUP},
    {"quit", "SIGQUIT", SIGQUIT}, {"segv", "SIGSEGV", SIGSEGV}, {"bus", "SIGBUS", SIGBUS},
    {"fpe", "SIGFPE", SIGFPE},    {"ill", "SIGILL", SIGILL},    {"abrt", "SIGABRT", SIGABRT}};
#define NKNOWN (sizeof known / sizeof known[0])

/* signal-safe: reads a constant table. */
const char *ot_faults_signal_name(int sig) {
  for (size_t i = 0; i < NKNOWN; i++)
    if (known[i].sig == sig)
      return known[i].full;
  return "signal";
}

static unsigned long all_mask(void) {
  unsigned long m = 0;
  for (size_t i = 0; i < NKNOWN; i++)
    m |= 1ul << known[i].sig;
  return m;
}

/* One item of the list, blanks and a SIG prefix allowed. 0 if unknown. */
static unsigned long item_mask(const char *p, size_t n) {
  while (n && (*p == ' ' || *p == '\t')) {
    p++;
    n--;
  }
  while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
    n--;
  if (n > 3 && strncasecmp(p, "sig", 3) == 0) {
    p += 3;
    n -= 3;
  }
  if (n == 3 && strncasecmp(p, "all", 3) == 0)
    return all_mask();
  for (size_t i = 0; i < NKNOWN; i++)
    if (strlen(known[i].name) == n && strncasecmp(p, known[i].name, n) == 0)
      return 1ul << known[i].sig;
  return 0;
}

unsigned long ot_faults_signal_mask(void) {
  const char *s = ot_cfg.signals;
  if (strcasecmp(s, "none") == 0)
    return 0;
  unsigned long mask = 0;
  for (const char *p = s; *p;) {
    size_t n = strcspn(p, ",");
    int empty = strspn(p, " \t") >= n; /* as in "term,,int": skipped */
    unsigned long m = empty ? 0 : item_mask(p, n);
    if (!empty && !m) {
      ot_warn("OMPTRACE_SIGNALS='%s': unknown signal '%.*s' (all, none, or a list of term, "
              "int, hup, quit, segv, bus, fpe, ill, abrt); using all",
              s, n > 40 ? 40 : (int)n, p);
      return all_mask();
    }
    mask |= m;
    p += n + (p[n] == ',');
  }
  if (!mask) {
    ot_warn("OMPTRACE_SIGNALS='%s': empty list; using all", s);
    return all_mask();
  }
  return mask;
}

int ot_faults_snapshot_signal(int *explicit_set) {
  *explicit_set = getenv("OMPTRACE_SNAPSHOT_SIGNAL") != NULL;
  const char *s = ot_cfg.snapshot_signal;
  if (strcasecmp(s, "none") == 0 || strcasecmp(s, "off") == 0 || strcmp(s, "0") == 0)
    return 0;
  int sig;
  const char *why = ot_signal_parse(s, &sig);
  if (why) {
    ot_warn("OMPTRACE_SNAPSHOT_SIGNAL='%s': %s; using SIGUSR2", s, why);
    *explicit_set = 0;
    return SIGUSR2;
  }
  return sig;
}
