/* What OMPTRACE_FILTER left out of the archive: its rules and the regions
 * it excluded. Time inside an excluded construct belongs to the region
 * around it, as it was measured: it is no idle time and no runtime
 * overhead, and the report says so. */
#include "summary.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* One table row per line of text. */
static void rows(rtable *t, const char *text) {
  for (const char *l = text; l && *l;) {
    const char *nl = strchr(l, '\n');
    size_t n = nl ? (size_t)(nl - l) : strlen(l);
    if (n) {
      char *line = otr_xmalloc(n + 1);
      memcpy(line, l, n);
      line[n] = 0;
      rt_row(t);
      rt_str(t, line);
      free(line);
    }
    l = nl ? nl + 1 : l + n;
  }
}

void sm_filtered_report(sm *s, report *r) {
  const otr_defs *d = s->d;
  if (!d->filter_rules)
    return;
  rtable *t = rt_new(r, "overview", "filter", "Filter file rules (OMPTRACE_FILTER)", false);
  rt_col(t, "rule", "Rule", RV_STR);
  rows(t, d->filter_rules);
  if (!d->filtered || !*d->filtered) {
    rt_note(t, "no construct of this run matched an excluding rule");
    return;
  }
  t = rt_new(r, "overview", "filtered", "Constructs left out by the filter", false);
  rt_col(t, "region", "Region", RV_STR);
  rows(t, d->filtered);
  rt_note(t, "these constructs were not recorded: the time inside them counts in the region "
             "around them (no idle time, no runtime overhead), and what they contain was "
             "recorded as usual");
}
