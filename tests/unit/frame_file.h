/* Test helper: appends a sealed frame to a record log file, as the flusher
 * writes it (tests of the log reader and of the run model build logs). */
#ifndef OMPTRACE_TEST_FRAME_FILE_H
#define OMPTRACE_TEST_FRAME_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Frame `type` with payload a then b (b may be NULL), sequence number
 * (*seq)++, appended to path; a failed write is reported on stderr.
 * Returns the frame's size. */
size_t ut_frame_append(const char *path, uint32_t *seq, unsigned type, const void *a, size_t alen,
                       const void *b, size_t blen);
/* The same with location `loc` in the header (frames of the shared file). */
size_t ut_frame_append_loc(const char *path, uint32_t *seq, uint32_t loc, unsigned type,
                           const void *a, size_t alen, const void *b, size_t blen);
/* The last frame appended, whole (a test tears a copy of it). */
const void *ut_frame_last(void);

#endif
