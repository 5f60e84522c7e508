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
  ot_reader_head head;   /* first: ot_reader_next reads it (reader.h) */
  ot_frame_reader fr;    /* <loc>.log (fd -1: none) */
  ot_frame_reader sh;    /* the shared file (fd -1: none) */
  const ot_frame_at *at; /* the location's frames there, and the next one */
  uint32_t nat, next_at;
  int in_records; /* dec holds a RECORDS frame being decoded */
  ot_codec_dec dec;
  uint64_t batch[BATCH_BYTES / 8];
  uint64_t frame_at; /* file offset and number of that frame */
  uint32_t frame_seq;
  int shared_frame; /* the frame last returned by next_frame is the shared file's */
  ot_rec lost;
  uint64_t cut; /* records after this raw time end the stream (ot_reader_cut) */
  int cut_hit;  /* ... and one did */
};

/* Opens log_dir/name into fr; -1 with errno set. */
static int open_in(ot_frame_reader *fr, const char *log_dir, const char *name) {
  char path[PATH_MAX];
  int k = snprintf(path, sizeof path, "%s/%s", log_dir, name);
  if (k < 0 || (size_t)k >= sizeof path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  return ot_frame_open(fr, path);
}

ot_reader *ot_reader_open(const char *log_dir, uint32_t loc) {
  return ot_reader_open_stream(log_dir, loc, NULL, 0, 0, 1);
}

ot_reader *ot_reader_open_stream(const char *log_dir, uint32_t loc, const ot_frame_at *shared,
                                 uint32_t n, uint64_t shared_trusted, int own) {
  ot_reader *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->fr.fd = r->sh.fd = -1;
  char own_name[32];
  snprintf(own_name, sizeof own_name, "%u%s", loc, OT_LOG_THREAD_SUFFIX);
  if ((own && open_in(&r->fr, log_dir, own_name) < 0) ||
      (n && open_in(&r->sh, log_dir, OT_LOG_SHARED_FILE) < 0)) {
    int e = errno;
    ot_reader_close(r);
    errno = e;
    return NULL;
  }
  r->sh.trusted = shared_trusted;
  r->at = shared;
  r->nat = n;
  r->cut = UINT64_MAX;
  return r;
}

void ot_reader_cut(ot_reader *r, uint64_t raw) {
  r->cut = raw;
}

/* The batch just decoded ends before its first record after the cut. */
static const ot_rec *apply_cut(ot_reader *r, const uint8_t *at, const uint8_t *end) {
  for (const uint8_t *p = at; p < end; p += ot_rec_size((const ot_rec *)(const void *)p))
    if (((const ot_rec *)(const void *)p)->ts > r->cut) {
      r->cut_hit = 1;
      end = p;
      break;
    }
  if (at == end)
    return NULL;
  r->head.at = at + ot_rec_size((const ot_rec *)(const void *)at);
  r->head.end = end;
  r->head.records++;
  return (const ot_rec *)(const void *)at;
}

/* The next wanted frame of the stream: the shared file's listed frames,
 * then the own file's. */
static const ot_frame_hdr *next_frame(ot_reader *r, uint32_t want, const uint8_t **pl) {
  while (r->next_at < r->nat) {
    const ot_frame_at *a = &r->at[r->next_at++];
    const ot_frame_hdr *h = ot_frame_again(&r->sh, a->offset, a->seq, pl);
    if (!h) {
      r->next_at = r->nat;
      r->fr.damaged = 1;
      r->fr.damaged_at = a->offset;
      snprintf(r->fr.why, sizeof r->fr.why, "frame %u of %s no longer reads", (unsigned)a->seq,
               OT_LOG_SHARED_FILE);
      return NULL;
    }
    if (want & (1u << h->type)) {
      r->shared_frame = 1;
      return h;
    }
  }
  r->shared_frame = 0;
  return ot_frame_next(&r->fr, want, pl);
}

/* File offset of the frame next_frame just returned. */
static uint64_t frame_offset(const ot_reader *r, const ot_frame_hdr *h) {
  if (r->shared_frame)
    return r->at[r->next_at - 1].offset;
  return r->fr.offset - sizeof *h - h->length;
}

/* Marks the stream damaged at the frame just read. */
static const ot_rec *bad_frame(ot_reader *r, const ot_frame_hdr *h, const char *what) {
  r->fr.damaged = 1;
  r->fr.damaged_at = frame_offset(r, h);
  snprintf(r->fr.why, sizeof r->fr.why, "%s in %sframe %u", what,
           r->shared_frame ? "the shared file's " : "", (unsigned)h->seq);
  r->in_records = 0;
  return NULL;
}

const ot_rec *ot_reader_refill(ot_reader *r) {
  static const uint32_t want = (1u << OT_FRAME_RECORDS) | (1u << OT_FRAME_LOST);
  for (;;) {
    if (r->cut_hit)
      return NULL;
    if (r->in_records) {
      size_t len = ot_codec_dec_many(&r->dec, (uint8_t *)r->batch, sizeof r->batch);
      if (len && r->cut != UINT64_MAX)
        return apply_cut(r, (const uint8_t *)r->batch, (const uint8_t *)r->batch + len);
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
    const ot_frame_hdr *h = next_frame(r, want, &pl);
    if (!h)
      return NULL;
    if (h->type == OT_FRAME_LOST) {
      ot_log_lost lost;
      if (h->length != sizeof lost)
        return bad_frame(r, h, "bad LOST length");
      memcpy(&lost, pl, sizeof lost);
      if (lost.first_ts > r->cut) {
        r->cut_hit = 1;
        return NULL;
      }
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
    r->frame_at = frame_offset(r, h);
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
  ot_frame_close(&r->sh);
  free(r);
}
