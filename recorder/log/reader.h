/* Record stream of one location over a record log (format.h): the records
 * of its RECORDS frames in file order, each LOST frame turned into one
 * OT_LOST record in its place. Reads one frame at a time (bounded memory),
 * prints nothing: the caller reports damage. */
#ifndef OMPTRACE_LOG_READER_H
#define OMPTRACE_LOG_READER_H

#include "buffer/record.h"

#include <stdint.h>

typedef struct ot_reader ot_reader;

/* Opens <log_dir>/<loc>.log. NULL with errno set when it cannot be opened
 * (ENOENT: no such file, which the caller may take as "no records"). */
ot_reader *ot_reader_open(const char *log_dir, uint32_t loc);

/* Frames of the file ending at or before byte `end` were validated by an
 * earlier reading (ot_run_load): their CRC is not checked again. Every
 * other check still holds, and frames past `end` are validated in full. */
void ot_reader_trust(ot_reader *r, uint64_t end);

/* Next record (valid until the next call), or NULL at the end of the valid
 * part of the file. A LOST frame gives {type OT_LOST, ts = last_ts, a =
 * count saturated to UINT32_MAX, b = first_ts, c = last_ts}. */
const ot_rec *ot_reader_next(ot_reader *r);

/* 1 when the file ended in a frame that failed validation (torn or
 * corrupt), or a valid RECORDS/LOST frame could not be decoded; the
 * records before it were all returned. */
int ot_reader_damaged(const ot_reader *r);
/* What failed ("" when not damaged) and the file offset of that frame. */
const char *ot_reader_why(const ot_reader *r);
uint64_t ot_reader_damaged_at(const ot_reader *r);

/* Records returned so far (OT_LOST records included). */
uint64_t ot_reader_records(const ot_reader *r);

void ot_reader_close(ot_reader *r);

#endif
