/* OpenMP constructs and their Region definitions: "<construct> @ <file>:<line>"
 * resolved from a code pointer (finalize/regions.c). */
#ifndef OMPTRACE_REGIONS_H
#define OMPTRACE_REGIONS_H

#include "core/constructs.h"

#include <stdint.h>

/* Region id for a construct at codeptr (0 = unknown location). */
uint32_t ot_region(enum ot_construct c, uint64_t codeptr);
/* 1 when OMPTRACE_FILTER excludes the region (no Enter/Leave for it). */
int ot_region_excluded(uint32_t region);
/* Name of the i-th construct the filter excluded (in the order finalize
 * met them), or NULL past the last. */
const char *ot_region_excluded_name(uint32_t i);
void ot_regions_free(void);

#endif
