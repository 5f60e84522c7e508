/* OpenMP constructs and their Region definitions: "<construct> @ <file>:<line>"
 * resolved from a code pointer (finalize/regions.c). */
#ifndef OMPTRACE_REGIONS_H
#define OMPTRACE_REGIONS_H

#include "core/constructs.h"

#include <stdint.h>

/* Region id for a construct at codeptr (0 = unknown location). */
uint32_t ot_region(enum ot_construct c, uint64_t codeptr);
/* Flags by region id of the regions OMPTRACE_FILTER excludes (ids past
 * the cap are not excluded). */
extern uint8_t *ot_regions_excluded;
extern uint32_t ot_regions_excluded_cap;
/* 1 when OMPTRACE_FILTER excludes the region (no Enter/Leave for it):
 * asked at every Enter and Leave, so inline. */
static inline int ot_region_excluded(uint32_t region) {
  return region < ot_regions_excluded_cap && ot_regions_excluded[region];
}
/* Name of the i-th construct the filter excluded (in the order finalize
 * met them), or NULL past the last. */
const char *ot_region_excluded_name(uint32_t i);
void ot_regions_free(void);

#endif
