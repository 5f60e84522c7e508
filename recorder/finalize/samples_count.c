/* The samples each thread took against those its timer owed it, as the
 * archive's "omptrace::samples" property on the process node: one line per
 * sampled location, "<location> <expected> <reached> <taken>": expected =
 * the time the thread's timer counted while armed (its CPU time, or wall
 * time with OMPTRACE_SAMPLING_CLOCK=wall) / period; reached = the timer
 * expirations that reached the handler (1 + overruns per signal); taken =
 * the samples stored. expected - taken is the shortfall (signals coalesced
 * or lost, samples dropped, the handler's own time). */
#include "finalize/defs.h"
#include "finalize/run.h"
#include "finalize/samples_out.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t name_ref, text_ref;
static int have;
static char *text; /* kept while its string may be referenced */

void ot_samples_count_prepare(const ot_run *run) {
  have = 0;
  if (!run->sampling_ns)
    return;
  free(text);
  text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  if (!m)
    return;
  for (uint32_t i = 0; i < run->nthreads; i++) {
    const ot_sampler_thread *st = &run->threads[i].sampler;
    if (!st->armed_ns)
      continue;
    uint64_t span = st->disarmed_ns > st->armed_ns ? st->disarmed_ns - st->armed_ns : 0;
    fprintf(m, "%" PRIu32 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", i, span / run->sampling_ns,
            st->expirations, st->taken);
  }
  fclose(m);
  if (text && *text) {
    name_ref = ot_defs_string("omptrace::samples");
    text_ref = ot_defs_string(text);
    have = 1;
  }
}

OTF2_ErrorCode ot_samples_count_write(OTF2_GlobalDefWriter *w, OTF2_SystemTreeNodeRef node) {
  if (!have)
    return OTF2_SUCCESS;
  OTF2_AttributeValue v;
  v.stringRef = text_ref;
  return OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(w, node, name_ref, OTF2_TYPE_STRING, v);
}
