/* Shared by every finalize component that writes events. */
#ifndef OMPTRACE_OUT_H
#define OMPTRACE_OUT_H

#include <stdint.h>

/* Raw clock value to archive nanoseconds, clamped so that the times
 * written on one location never decrease. */
uint64_t ot_out_ts(uint32_t loc, uint64_t raw);

/* Runs the whole finalize pipeline (scan, symbols, samples, replay into
 * OTF2, definitions) into the archive dir/traces and prints the exit
 * line. Returns 0 on success. */
int ot_finalize_write(const char *dir);

#endif
