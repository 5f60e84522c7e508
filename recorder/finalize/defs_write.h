/* Writing the definitions collected through defs.h (finalize/defs.c). The
 * archive writer calls these in dependency order after interning every
 * string it needs itself. */
#ifndef OMPTRACE_DEFS_WRITE_H
#define OMPTRACE_DEFS_WRITE_H

#include <otf2/otf2.h>

/* 0 on success; the OTF2 error otherwise. */
OTF2_ErrorCode ot_defs_write_strings(OTF2_GlobalDefWriter *w);
OTF2_ErrorCode ot_defs_write_regions(OTF2_GlobalDefWriter *w);
OTF2_ErrorCode ot_defs_write_parameters(OTF2_GlobalDefWriter *w); /* and attributes */
OTF2_ErrorCode ot_defs_write_sampling(OTF2_GlobalDefWriter *w);
void ot_defs_reset(void);

#endif
