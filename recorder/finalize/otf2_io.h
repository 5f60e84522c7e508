/* OTF2 plumbing of the archive writer (finalize/otf2_io.c): opening an
 * archive with the flush, memory, collective and locking callbacks it
 * needs, and the first error OTF2 reported as a readable reason. */
#ifndef OMPTRACE_OTF2_IO_H
#define OMPTRACE_OTF2_IO_H

#include <otf2/otf2.h>

/* Opens dir/traces for writing with its event files open. NULL when that
 * fails (ot_otf2_reason says why). */
OTF2_Archive *ot_otf2_open(const char *dir);
/* After OTF2_Archive_Close: the chunk memory goes back to the system
 * (kept while an abandoned archive holds some). */
void ot_otf2_closed(void);
/* The first OTF2 error since ot_otf2_open, or "" when none. */
const char *ot_otf2_reason(void);

#endif
