/* Unknown OMPTRACE_* variables. A misspelt name (OMPTRACE_SAMPLNG=1kHz)
 * would otherwise be ignored without a word; each one gets a line that
 * names the closest variable of the table (core/config_table.c) when one
 * is close enough to be the intended one. */
#define _GNU_SOURCE /* environ */
#include "core/config_table.h"
#include "core/log.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define PREFIX "OMPTRACE_"
#define PREFIX_LEN (sizeof PREFIX - 1)
/* Longer names are not typos of ours: no suggestion. */
#define MAX_COMPARED 48

/* Optimal string alignment distance (insertions, deletions,
 * substitutions, swaps of neighbours), ignoring case. */
static unsigned distance(const char *a, size_t na, const char *b, size_t nb) {
  unsigned d[MAX_COMPARED + 1][MAX_COMPARED + 1];
  for (size_t i = 0; i <= na; i++)
    d[i][0] = (unsigned)i;
  for (size_t j = 0; j <= nb; j++)
    d[0][j] = (unsigned)j;
  for (size_t i = 1; i <= na; i++) {
    for (size_t j = 1; j <= nb; j++) {
      int ca = toupper((unsigned char)a[i - 1]), cb = toupper((unsigned char)b[j - 1]);
      unsigned best = d[i - 1][j - 1] + (ca != cb);
      if (d[i - 1][j] + 1 < best)
        best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best)
        best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && ca == toupper((unsigned char)b[j - 2]) &&
          cb == toupper((unsigned char)a[i - 2]) && d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  }
  return d[na][nb];
}

static int listed(const char *name, size_t len) {
  for (size_t i = 0; i < ot_option_count; i++)
    if (strlen(ot_options[i].name) == len && strncmp(ot_options[i].name, name, len) == 0)
      return 1;
  for (size_t i = 0; ot_config_foreign[i]; i++)
    if (strlen(ot_config_foreign[i]) == len && strncmp(ot_config_foreign[i], name, len) == 0)
      return 1;
  return 0;
}

/* The known variable closest to `name` (prefix included), or NULL when
 * none is within 1 edit per 6 characters of it (at least 1, at most 3). */
static const char *closest(const char *name, size_t len) {
  const char *best = NULL;
  unsigned best_d = ~0u;
  if (len - PREFIX_LEN > MAX_COMPARED)
    return NULL;
  for (size_t i = 0; i < ot_option_count; i++) {
    const char *known = ot_options[i].name + PREFIX_LEN;
    size_t klen = strlen(known);
    if (klen > MAX_COMPARED)
      continue;
    unsigned d = distance(name + PREFIX_LEN, len - PREFIX_LEN, known, klen);
    unsigned limit = 1 + (unsigned)klen / 6;
    if (d <= (limit < 3 ? limit : 3) && d < best_d) {
      best = ot_options[i].name;
      best_d = d;
    }
  }
  return best;
}

void ot_config_warn_unknown(void) {
  for (char **e = environ; e && *e; e++) {
    const char *name = *e;
    if (strncasecmp(name, PREFIX, PREFIX_LEN) != 0)
      continue;
    size_t len = strcspn(name, "=");
    if (listed(name, len))
      continue;
    const char *near = closest(name, len);
    char shown[96];
    if (len > 80)
      snprintf(shown, sizeof shown, "%.60s... (%zu characters)", name, len);
    else
      snprintf(shown, sizeof shown, "%.*s", (int)len, name);
    if (near)
      ot_warn("%s: unknown variable (did you mean %s?); ignored", shown, near);
    else
      ot_warn("%s: unknown variable (omptrace --help lists the known ones); ignored", shown);
  }
}
