/* Record stream of one location over a record log (format.h): the records
 * of its RECORDS frames in stream order (the shared file's, then its own
 * file's), each LOST frame turned into one
 * OT_LOST record in its place. Reads one frame at a time (bounded memory),
 * prints nothing: the caller reports damage. */
#ifndef OMPTRACE_LOG_READER_H
#define OMPTRACE_LOG_READER_H

#include "buffer/record.h"
#include "log/frame.h"

#include <stdint.h>

typedef struct ot_reader ot_reader;

/* The first member of an ot_reader: the batch of decoded records it hands
 * out, read by the inline ot_reader_next (a call per record costs as much
 * as handing one out). The rest of the reader is private to reader.c. */
typedef struct ot_reader_head {
  const uint8_t *at, *end; /* next record of the batch, end of the batch */
  uint64_t records;        /* records returned so far */
} ot_reader_head;

/* Opens <log_dir>/<loc>.log. NULL with errno set when it cannot be opened
 * (ENOENT: no such file, which the caller may take as "no records"). */
ot_reader *ot_reader_open(const char *log_dir, uint32_t loc);
/* Opens location loc's whole stream: its n frames of the shared file at
 * `shared` (the caller's array, kept until the close; frames ending at or
 * before shared_trusted are not CRC-checked again), then <loc>.log when
 * `own`. NULL with errno set when a file cannot be opened. */
ot_reader *ot_reader_open_stream(const char *log_dir, uint32_t loc, const ot_frame_at *shared,
                                 uint32_t n, uint64_t shared_trusted, int own);

/* Frames of the file ending at or before byte `end` were validated by an
 * earlier reading (ot_run_load): their CRC is not checked again. Every
 * other check still holds, and frames past `end` are validated in full. */
void ot_reader_trust(ot_reader *r, uint64_t end);

/* The stream ends before its first record (or LOST frame) after raw time
 * `raw`: a snapshot's cut (finalize/run.h). */
void ot_reader_cut(ot_reader *r, uint64_t raw);

/* ot_reader_next once the batch is used up: decodes the next one. */
const ot_rec *ot_reader_refill(ot_reader *r);

/* Next record (valid until the next call), or NULL at the end of the valid
 * part of the file. A LOST frame gives {type OT_LOST, ts = last_ts, a =
 * count saturated to UINT32_MAX, b = first_ts, c = last_ts}. */
static inline const ot_rec *ot_reader_next(ot_reader *r) {
  ot_reader_head *h = (ot_reader_head *)(void *)r;
  if (h->at < h->end) {
    const ot_rec *rec = (const ot_rec *)(const void *)h->at;
    h->at += ot_rec_size(rec);
    h->records++;
    return rec;
  }
  return ot_reader_refill(r);
}

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
