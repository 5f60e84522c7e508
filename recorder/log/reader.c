/* Per-location record stream over the log (reader.h): frames from
 * log/frame.c, records decoded by log/codec.c. */
#include "log/reader.h"

#include "log/codec.h"
#include "log/frame.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records decoded per batch: a few hundred, so the decoder's loop keeps
 * its state in registers, and small enough to stay in the L1 cache while
 * finalize merges several locations' streams. */
#define BATCH_BYTES (8u << 10)

struct ot_reader {
  ot_reader_head head; /* first: ot_reader_next reads it (reader.h) */
  ot_frame_reader fr;
  int in_records; /* dec holds a RECORDS frame being decoded */
  ot_codec_dec dec;
  uint64_t batch[BATCH_BYTES / 8];
  uint64_t frame_at; /* file offset and number of that frame */
  uint32_t frame_seq;
  ot_rec lost;
};

ot_reader *ot_reader_open(const char *log_dir, uint32_t loc) {
  char path[PATH_MAX];
  int n = snprintf(path, sizeof path, "%s/%u%s", log_dir, loc, OT_LOG_THREAD_SUFFIX);
  if (n < 0 || (size_t)n >= sizeof path) {
    errno = ENAMETOOLONG;
    return NULL;
  }
  ot_reader *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  if (ot_frame_open(&r->fr, path) < 0) {
    int e = errno;
    free(r);
    errno = e;
    return NULL;
  }
  return r;
}

/* Marks the stream damaged at the frame just read. */
static const ot_rec *bad_frame(ot_reader *r, const ot_frame_hdr *h, const char *what) {
  r->fr.damaged = 1;
  r->fr.damaged_at = r->fr.offset - sizeof *h - h->length;
  snprintf(r->fr.why, sizeof r->fr.why, "%s in frame %u", what, (unsigned)h->seq);
  r->in_records = 0;
  return NULL;
}

const ot_rec *ot_reader_refill(ot_reader *r) {
  static const uint32_t want = (1u << OT_FRAME_RECORDS) | (1u << OT_FRAME_LOST);
  for (;;) {
    if (r->in_records) {
      size_t len = ot_codec_dec_many(&r->dec, (uint8_t *)r->batch, sizeof r->batch);
      if (len) {
        const ot_rec *rec = (const ot_rec *)(const void *)r->batch;
        r->head.at = (const uint8_t *)r->batch + ot_rec_size(rec);
        r->head.end = (const uint8_t *)r->batch + len;
        r->head.records++;
        return rec;
      }
      r->in_records = 0;
      if (r->dec.error) {
        r->fr.damaged = 1;
        r->fr.damaged_at = r->frame_at;
        snprintf(r->fr.why, sizeof r->fr.why, "records that do not decode in frame %u",
                 (unsigned)r->frame_seq);
        return NULL;
      }
    }
    const uint8_t *pl;
    const ot_frame_hdr *h = ot_frame_next(&r->fr, want, &pl);
    if (!h)
      return NULL;
    if (h->type == OT_FRAME_LOST) {
      ot_log_lost lost;
      if (h->length != sizeof lost)
        return bad_frame(r, h, "bad LOST length");
      memcpy(&lost, pl, sizeof lost);
      r->lost = (ot_rec){.ts = lost.last_ts,
                         .type = OT_LOST,
                         .a = lost.count > UINT32_MAX ? UINT32_MAX : (uint32_t)lost.count,
                         .b = lost.first_ts,
                         .c = lost.last_ts};
      r->head.records++;
      return &r->lost;
    }
    ot_log_records rh;
    if (h->length < sizeof rh)
      return bad_frame(r, h, "short RECORDS header");
    memcpy(&rh, pl, sizeof rh);
    if (rh.bytes != h->length - sizeof rh)
      return bad_frame(r, h, "RECORDS byte count mismatch");
    ot_codec_dec_init(&r->dec, pl + sizeof rh, rh.bytes, rh.nrec);
    r->frame_at = r->fr.offset - sizeof *h - h->length;
    r->frame_seq = h->seq;
    r->in_records = 1;
  }
}

void ot_reader_trust(ot_reader *r, uint64_t end) {
  r->fr.trusted = end;
}

int ot_reader_damaged(const ot_reader *r) {
  return r->fr.damaged;
}

const char *ot_reader_why(const ot_reader *r) {
  return r->fr.damaged ? r->fr.why : "";
}

uint64_t ot_reader_damaged_at(const ot_reader *r) {
  return r->fr.damaged_at;
}

uint64_t ot_reader_records(const ot_reader *r) {
  return r->head.records;
}

void ot_reader_close(ot_reader *r) {
  if (!r)
    return;
  ot_frame_close(&r->fr);
  free(r);
}
