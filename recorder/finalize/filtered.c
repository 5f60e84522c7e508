/* The filter's outcome in the archive: "omptrace::filter" (the rules in
 * force, one per line) and "omptrace::filtered" (the names of the regions
 * left out, one per line) on the process node. A construct whose every
 * instance was dropped while recording reaches finalize only through the
 * decision table: its region is defined here from its key. */
#include "finalize/filtered.h"
#include "core/filter.h"
#include "finalize/defs.h"
#include "finalize/regions.h"

#include <stdio.h>
#include <stdlib.h>

static uint32_t name_filter, name_filtered, rules, list;
static char *text;

static void define_dropped(void) {
  for (uint32_t i = 0; i < OT_FILTER_SLOTS; i++) {
    uint64_t key = atomic_load_explicit(&ot_filter_keys[i], memory_order_acquire);
    if (key && atomic_load_explicit(&ot_filter_state[i], memory_order_acquire) == OT_FILT_DROP)
      ot_region(ot_filter_construct_of((unsigned)(key >> 56), (unsigned)(key >> 48) & 0xffu),
                key & 0xffffffffffffull);
  }
}

void ot_filtered_prepare(void) {
  const char *r = ot_filter_describe();
  if (!r)
    return;
  define_dropped();
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  if (!m)
    return;
  for (uint32_t i = 0; ot_region_excluded_name(i); i++)
    fprintf(m, "%s\n", ot_region_excluded_name(i));
  fclose(m);
  name_filter = ot_defs_string("omptrace::filter");
  name_filtered = ot_defs_string("omptrace::filtered");
  rules = ot_defs_string(r);
  list = ot_defs_string(text ? text : "");
}

OTF2_ErrorCode ot_filtered_write(OTF2_GlobalDefWriter *w, OTF2_SystemTreeNodeRef process) {
  if (!ot_filter_describe())
    return OTF2_SUCCESS;
  OTF2_AttributeValue v;
  v.stringRef = rules;
  OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(w, process, name_filter,
                                                                      OTF2_TYPE_STRING, v);
  v.stringRef = list;
  if (e == OTF2_SUCCESS)
    e = OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(w, process, name_filtered,
                                                         OTF2_TYPE_STRING, v);
  return e;
}

void ot_filtered_free(void) {
  free(text);
  text = NULL;
}
