/* Compact encoding of raw records (buffer/record.h) for the log: a frame's
 * records are encoded independently of every other frame (the first
 * timestamp is absolute), so a dropped frame never corrupts the next one.
 * Fields are varints: the timestamp a zigzag delta against the previous
 * record, b and c zigzag deltas against the previous b or c of the same
 * type or of the previous record (whichever is shortest), counter values
 * deltas against the previous record's, kind/a/nval only when they change;
 * a typical event takes 4-8 bytes instead of 32 (codec.c). Pure functions:
 * no process state (encoder codec.c, decoder decode.c). */
#ifndef OMPTRACE_LOG_CODEC_H
#define OMPTRACE_LOG_CODEC_H

#include "buffer/record.h"

#include <stddef.h>
#include <stdint.h>

/* Most counter values per record the codec carries (the counters service
 * records at most 16). */
#define OT_CODEC_MAX_VALUES 64

/* Bits of a record's code and flags bytes (the format: codec.c). */
enum { OT_CODE_ESCAPE = 63, OT_CODE_FLAGS = 0x40, OT_CODE_C_SAME = 0x80 };
enum { OT_F_KIND = 1, OT_F_A = 2, OT_F_NVAL = 4, OT_B_SHIFT = 3, OT_C_SHIFT = 5, OT_F_ALL = 0x7f };

/* Most bytes ot_codec_encode may write for raw_bytes of records. */
size_t ot_codec_bound(size_t raw_bytes);

/* Encodes the whole records in [p, end) into out (capacity at least
 * ot_codec_bound(end - p)); stores the record count in *nrec. Returns the
 * bytes written. Stops early (fewer records) at a record that ends past
 * `end` or has more than OT_CODEC_MAX_VALUES values. No allocation (the
 * flusher and signal paths call it). */
size_t ot_codec_encode(const uint8_t *p, const uint8_t *end, uint8_t *out, uint32_t *nrec);

/* Previous fields of one record type (the delta base). */
typedef struct ot_codec_prev {
  uint64_t b, c;
  uint32_t a;
  uint16_t nval;
  uint8_t kind;
} ot_codec_prev;

/* Decoder of one RECORDS frame's encoded bytes. */
typedef struct ot_codec_dec {
  const uint8_t *p, *end;
  uint32_t left;                          /* records still to decode (from the frame header) */
  int error;                              /* malformed input met: decoding stopped */
  uint64_t ts, rb, rc;                    /* previous record's timestamp, b and c */
  ot_codec_prev prev[64];                 /* per type (escaped types share 63) */
  uint64_t prev_val[OT_CODEC_MAX_VALUES]; /* previous counter values (any type) */
  union {
    ot_rec rec;
    uint64_t words[4 + OT_CODEC_MAX_VALUES]; /* the record and its counter values */
  } out;
} ot_codec_dec;

void ot_codec_dec_init(ot_codec_dec *d, const uint8_t *bytes, size_t len, uint32_t nrec);
/* Next record (valid until the next call), or NULL at the end or on error
 * (d->error set). */
const ot_rec *ot_codec_dec_next(ot_codec_dec *d);
/* Decodes the next records into out (8-byte aligned, cap bytes) laid out
 * as in a thread buffer (buffer/record.h: each record then its counter
 * values); returns the bytes written, 0 at the end or on error (d->error
 * set; the records written before the bad one are valid). Fills out while
 * OT_CODEC_REC_MAX bytes are free, so cap must be at least that. */
#define OT_CODEC_REC_MAX (sizeof(ot_rec) + 8u * OT_CODEC_MAX_VALUES)
size_t ot_codec_dec_many(ot_codec_dec *d, uint8_t *out, size_t cap);

#endif
