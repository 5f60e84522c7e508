/* "omptrace::throttled" (docs/otf2-mapping.md): lines "<region ref>
 * <location ref> <instances> <ns>" into otr_throttled rows; lines naming
 * no defined region or location are skipped. */
#include "archive.h"
#include "xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void otr_throttled_resolve(otr_archive *a) {
  otr_defs *d = &a->d;
  const char *p = d->throttled_text;
  uint32_t cap = 0;
  while (p && *p) {
    uint64_t region, loc, count, ns;
    if (sscanf(p, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &region, &loc, &count, &ns) ==
        4) {
      uint32_t r = otr_idmap_get(&a->regions, region), l = otr_idmap_get(&a->locations, loc);
      if (r != OTR_NONE && l != OTR_NONE) {
        if (d->n_throttled == cap) {
          cap = cap ? 2 * cap : 8;
          d->throttled = otr_xrealloc(d->throttled, cap * sizeof *d->throttled);
        }
        d->throttled[d->n_throttled++] = (otr_throttled){r, l, count, ns};
      }
    }
    const char *nl = strchr(p, '\n');
    p = nl ? nl + 1 : NULL;
  }
}
