/* Compact encoding of raw records (buffer/record.h) for the log: a frame's
 * records are encoded independently of every other frame (the first
 * timestamp is absolute), so a dropped frame never corrupts the next one.
 * Fields are varints, timestamps and the b/c/value fields deltas against
 * the previous record of the same type (zigzag), which makes a typical
 * event 6-10 bytes instead of 32. Pure functions: no process state. */
#ifndef OMPTRACE_LOG_CODEC_H
#define OMPTRACE_LOG_CODEC_H

#include "buffer/record.h"

#include <stddef.h>
#include <stdint.h>

/* Most bytes ot_codec_encode may write for raw_bytes of records. */
size_t ot_codec_bound(size_t raw_bytes);

/* Encodes the whole records in [p, end) into out (capacity at least
 * ot_codec_bound(end - p)); stores the record count in *nrec. Returns the
 * bytes written. No allocation (the flusher and signal paths call it). */
size_t ot_codec_encode(const uint8_t *p, const uint8_t *end, uint8_t *out, uint32_t *nrec);

/* Decoder of one RECORDS frame's encoded bytes. */
typedef struct ot_codec_dec {
  const uint8_t *p, *end;
  uint32_t left;  /* records still to decode (from the frame header) */
  int error;      /* malformed input met: decoding stopped */
  uint64_t state[64 * 3]; /* per type: previous ts, b, c */
  uint64_t prev_val[64];  /* previous counter values (any type) */
  union {
    ot_rec rec;
    uint64_t words[4 + 64]; /* the record and up to 64 counter values */
  } out;
} ot_codec_dec;

void ot_codec_dec_init(ot_codec_dec *d, const uint8_t *bytes, size_t len, uint32_t nrec);
/* Next record (valid until the next call), or NULL at the end or on error
 * (d->error set). */
const ot_rec *ot_codec_dec_next(ot_codec_dec *d);

#endif
