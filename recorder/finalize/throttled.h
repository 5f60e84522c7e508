/* What OMPTRACE_THROTTLE counted instead of recording, in the archive
 * (docs/otf2-mapping.md): "omptrace::throttled" on the process node, one
 * line per construct and thread that ran throttled instances. */
#ifndef OMPTRACE_THROTTLED_H
#define OMPTRACE_THROTTLED_H

#include "buffer/record.h"

#include <otf2/otf2.h>

/* An OT_THROTTLED record of location loc (finalize/scan.c). 0, or -1 out
 * of memory. */
int ot_throttled_note(uint32_t loc, const ot_rec *r);
/* After the events are written, before the definitions: adds what the
 * live threads counted but did not write yet, defines the regions and
 * interns the property's strings. */
void ot_throttled_prepare(void);
OTF2_ErrorCode ot_throttled_write(OTF2_GlobalDefWriter *w, OTF2_SystemTreeNodeRef process);
void ot_throttled_free(void);

#endif
