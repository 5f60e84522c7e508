/* OTF2 plumbing of the archive writer (finalize/otf2_io.c): opening an
 * archive with the flush, memory, collective and locking callbacks it
 * needs, and the first error OTF2 reported as a readable reason. */
#ifndef OMPTRACE_OTF2_IO_H
#define OMPTRACE_OTF2_IO_H

#include <otf2/otf2.h>

/* Opens dir/traces for writing with its event files open. NULL when that
 * fails (ot_otf2_reason says why). */
OTF2_Archive *ot_otf2_open(const char *dir);
/* The same, written into a private directory dir/.traces.XXXXXX (fresh,
 * mode 0700; ot_otf2_dir names it) until ot_otf2_publish moves the
 * finished files into dir: OTF2 opens its files by name with O_TRUNC, and
 * would write through a link another user planted in dir; and a partial
 * archive never has the archive's names. */
OTF2_Archive *ot_otf2_open_staged(const char *dir);
/* Where the archive opened last is written. */
const char *ot_otf2_dir(void);
/* After OTF2_Archive_Close of a staged archive: when ok, its files move
 * into dir (traces/, traces.def, then the anchor traces.otf2), none
 * replacing a name there (renameat2 RENAME_NOREPLACE); the private
 * directory goes, with what a failed archive left in it. Returns 0, or -1
 * (ot_otf2_reason says why; when a name was taken the finished archive
 * stays in the private directory, which the reason names). */
int ot_otf2_publish(int ok);
/* After OTF2_Archive_Close: the chunk memory goes back to the system
 * (kept while an abandoned archive holds some). */
void ot_otf2_closed(void);
/* The first OTF2 error since ot_otf2_open, or "" when none. */
const char *ot_otf2_reason(void);

#endif
