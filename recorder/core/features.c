/* Which OMPTRACE_* variables belong to an optional feature, and whether
 * that feature was built in (OT_HAVE_* come from recorder/CMakeLists.txt). */
#include "core/features.h"

#include <stddef.h>
#include <string.h>

#if !defined(OT_HAVE_COUNTERS) || !defined(OT_HAVE_SAMPLING)
#error "OT_HAVE_COUNTERS and OT_HAVE_SAMPLING come from the build (recorder/CMakeLists.txt)"
#endif

static const struct {
  const char *variable;
  int built;
  const char *why;
} features[] = {
    {"OMPTRACE_METRICS", OT_HAVE_COUNTERS, "omptrace was built without PAPI"},
    {"OMPTRACE_METRICS_ON", OT_HAVE_COUNTERS, "omptrace was built without PAPI"},
    {"OMPTRACE_MULTIPLEX", OT_HAVE_COUNTERS, "omptrace was built without PAPI"},
    {"OMPTRACE_SAMPLING", OT_HAVE_SAMPLING, "omptrace was built without libunwind"},
    {"OMPTRACE_SAMPLING_SIGNAL", OT_HAVE_SAMPLING, "omptrace was built without libunwind"},
    {"OMPTRACE_CALLSTACKS", OT_HAVE_SAMPLING, "omptrace was built without libunwind"},
    {"OMPTRACE_SAMPLE_CONTEXTS", OT_HAVE_SAMPLING, "omptrace was built without libunwind"},
    {"OMPTRACE_SAMPLING_CLOCK", OT_HAVE_SAMPLING, "omptrace was built without libunwind"},
};

const char *ot_feature_missing(const char *variable) {
  for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
    if (strcmp(features[i].variable, variable) == 0)
      return features[i].built ? NULL : features[i].why;
  return NULL;
}
