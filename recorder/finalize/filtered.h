/* What OMPTRACE_FILTER left out, in the archive (docs/otf2-mapping.md):
 * the rules and the excluded regions, as properties of the process's
 * system tree node, so omptrace-summary can report them. */
#ifndef OMPTRACE_FILTERED_H
#define OMPTRACE_FILTERED_H

#include <otf2/otf2.h>

/* After the events are written, before the definitions: defines the
 * regions of every construct dropped while recording (so each has a
 * definition) and interns the property strings. */
void ot_filtered_prepare(void);
OTF2_ErrorCode ot_filtered_write(OTF2_GlobalDefWriter *w, OTF2_SystemTreeNodeRef process);
void ot_filtered_free(void);

#endif
