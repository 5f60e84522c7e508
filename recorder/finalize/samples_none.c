/* Samples into the archive in a build without sampling (OMPTRACE_SAMPLING
 * off or libunwind not found): nothing to write. Same interface as
 * finalize/samples_out.c; the service side is services/sampler_none.c. */
#include "finalize/samples_out.h"

void ot_samples_prepare(const ot_run *run) {
  (void)run;
}

OTF2_ErrorCode ot_samples_emit_until(uint32_t loc, uint64_t limit_raw) {
  (void)loc;
  (void)limit_raw;
  return OTF2_SUCCESS;
}

int ot_samples_due(uint32_t loc, uint64_t limit_raw) {
  (void)loc;
  (void)limit_raw;
  return 0;
}

void ot_samples_count_prepare(const ot_run *run) {
  (void)run;
}

OTF2_ErrorCode ot_samples_count_write(OTF2_GlobalDefWriter *w, OTF2_SystemTreeNodeRef node) {
  (void)w;
  (void)node;
  return OTF2_SUCCESS;
}

int ot_samples_any(void) {
  return 0;
}

uint64_t ot_samples_taken(void) {
  return 0;
}

uint64_t ot_samples_failed(void) {
  return 0;
}
