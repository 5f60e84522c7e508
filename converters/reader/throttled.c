/* "omptrace::throttled" (docs/otf2-mapping.md): lines "<region ref>
 * <location ref> <instances> <ns>" into otr_throttled rows, and
 * "omptrace::throttled_waits": lines "<location ref> <wait> <ns>" into
 * throttled_wait_ns; lines naming no defined region, location or wait
 * are skipped. */
#include "archive.h"
#include "xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const struct {
  const char *name;
  otr_cat cat;
} waits[] = {{"implicit_barrier", OTR_T_IBARRIER},
             {"barrier", OTR_T_EBARRIER},
             {"taskwait", OTR_T_TASKWAIT},
             {"taskgroup", OTR_T_TASKGROUP}};

static void resolve_waits(otr_archive *a) {
  otr_defs *d = &a->d;
  for (const char *p = d->throttled_waits_text; p && *p;) {
    uint64_t loc, ns;
    char name[32];
    if (sscanf(p, "%" SCNu64 " %31s %" SCNu64, &loc, name, &ns) == 3) {
      uint32_t l = otr_idmap_get(&a->locations, loc);
      for (size_t k = 0; l != OTR_NONE && k < sizeof waits / sizeof *waits; k++)
        if (!strcmp(name, waits[k].name)) {
          if (!d->throttled_wait_ns)
            d->throttled_wait_ns =
                otr_xcalloc((size_t)d->n_locations * OTR_T_COUNT, sizeof(uint64_t));
          d->throttled_wait_ns[(size_t)l * OTR_T_COUNT + waits[k].cat] += ns;
        }
    }
    const char *nl = strchr(p, '\n');
    p = nl ? nl + 1 : NULL;
  }
}

void otr_throttled_resolve(otr_archive *a) {
  resolve_waits(a);
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
