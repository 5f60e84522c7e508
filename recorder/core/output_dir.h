/* Creating the archive directory (core/output_dir.c). */
#ifndef OMPTRACE_OUTPUT_DIR_H
#define OMPTRACE_OUTPUT_DIR_H

#include "core/safe_dir.h" /* ot_dir_open, ot_dir_path, ot_make_dirs */

#include <stddef.h>

/* What a run puts in its directory: the OTF2 archive <dir>/traces.otf2
 * (with traces.def and traces/) and the record log <dir>/.log/ (log/format.h),
 * which also claims the directory for one run until the archive is
 * written. */
#define OT_ARCHIVE_NAME "traces"
#define OT_LOG_NAME ".log"

/* Creates the directory out (parents included) or, when it already holds
 * an archive or another run's claim, or is not safe to write in (see
 * ot_dir_open), the first free <out>.N; stores the absolute path of the
 * directory chosen back into out (size bytes). Returns 0, or -1 after one
 * error line. */
int ot_output_dir_create(char *out, size_t size);
/* Tracing could not start after dir was claimed: removes the claim
 * (<dir>/.log) and the directory itself when nothing else is in it. */
void ot_output_dir_abandon(const char *dir);
#endif
