/* Many output streams written in any interleaving and read back one after
 * the other: each stream has a small memory buffer that spills as blocks to
 * one temporary file. Memory: buffers x streams plus one index entry per
 * spilled block; the temporary file holds what does not fit. */
#ifndef OMPTRACE_CONVERT_SPILL_H
#define OMPTRACE_CONVERT_SPILL_H

#include "convert.h"

typedef struct cv_spill cv_spill;

/* NULL with errno set when the temporary file cannot be created; streams
 * are numbered from 0 and come into being at their first write. */
cv_spill *cv_spill_new(void);
void cv_spill_printf(cv_spill *s, uint32_t stream, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Copies the stream to o; false on an I/O error of the temporary file. */
bool cv_spill_copy(cv_spill *s, uint32_t stream, cv_out *o);
void cv_spill_free(cv_spill *s);

#endif
