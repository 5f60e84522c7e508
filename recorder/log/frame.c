/* Framing of the record log (frame.h): sealing a frame in memory and
 * reading a log file back frame by frame, validating each one. */
#include "log/frame.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* CRC over the header with crc = 0, then the payload (format.h). */
static uint32_t frame_crc(const ot_frame_hdr *h, const uint8_t *payload) {
  ot_frame_hdr z = *h;
  z.crc = 0;
  uLong crc = crc32(0L, (const Bytef *)&z, (uInt)sizeof z);
  if (h->length)
    crc = crc32(crc, (const Bytef *)payload, (uInt)h->length);
  return (uint32_t)crc;
}

/* signal-safe: stores into the caller's memory and calls zlib's crc32, a
 * pure function of its arguments. */
size_t ot_frame_seal(ot_frame_hdr *h, unsigned type, uint32_t length, uint32_t seq, uint32_t loc) {
  h->magic = OT_LOG_MAGIC;
  h->type = (uint8_t)type;
  h->version = OT_LOG_VERSION;
  h->flags = 0;
  h->length = length;
  h->seq = seq;
  h->crc = 0;
  h->loc = loc;
  h->crc = frame_crc(h, (const uint8_t *)(h + 1));
  return sizeof *h + length;
}

int ot_frame_open(ot_frame_reader *r, const char *path) {
  memset(r, 0, sizeof *r);
  r->fd = open(path, O_RDONLY | O_CLOEXEC);
  return r->fd < 0 ? -1 : 0;
}

/* Reads up to n bytes at off; returns the count read (short only at end of
 * file) or -1 on a read error. */
static ssize_t read_at(int fd, void *dst, size_t n, uint64_t off) {
  size_t got = 0;
  while (got < n) {
    ssize_t k = pread(fd, (uint8_t *)dst + got, n - got, (off_t)(off + got));
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0)
      return -1;
    if (k == 0)
      break;
    got += (size_t)k;
  }
  return (ssize_t)got;
}

static const ot_frame_hdr *damaged(ot_frame_reader *r, const char *fmt, unsigned long long v) {
  r->damaged = 1;
  r->damaged_at = r->offset;
  snprintf(r->why, sizeof r->why, fmt, v);
  return NULL;
}

/* Reads and validates the frame at r->offset into r->buf (header first,
 * payload after it). NULL at a clean end of file or on damage. */
static const ot_frame_hdr *read_frame(ot_frame_reader *r) {
  ot_frame_hdr h;
  ssize_t got = read_at(r->fd, &h, sizeof h, r->offset);
  if (got == 0)
    return NULL; /* clean end: a later call sees frames appended since */
  if (got < 0)
    return damaged(r, "read error (errno %llu)", (unsigned long long)errno);
  if ((size_t)got < sizeof h) {
    r->torn = 1;
    r->torn_loc = UINT32_MAX;
    return damaged(r, "torn: %llu of 24 header bytes", (unsigned long long)got);
  }
  if (h.magic != OT_LOG_MAGIC)
    return damaged(r, "bad magic 0x%08llx", h.magic);
  if (h.version != OT_LOG_VERSION)
    return damaged(r, "unsupported version %llu", h.version);
  if (h.type == 0 || h.type >= OT_FRAME_TYPE_MAX)
    return damaged(r, "bad frame type %llu", h.type);
  if (h.length > OT_LOG_MAX_FRAME)
    return damaged(r, "bad length %llu", h.length);
  if (h.seq != r->next_seq)
    return damaged(r, "sequence gap: got %llu", h.seq);
  size_t need = sizeof h + h.length, take = h.length;
  int trusted = r->offset + need <= r->trusted;
  if (trusted && (r->skim & (1u << h.type)) && take > OT_FRAME_SKIM)
    take = OT_FRAME_SKIM;
  if (sizeof h + take > r->cap) { /* room for what is read: a skimmed frame's head */
    size_t cap = r->cap ? r->cap : 4096;
    while (cap < sizeof h + take)
      cap *= 2;
    uint8_t *nb = realloc(r->buf, cap);
    if (!nb)
      return damaged(r, "out of memory for a %llu-byte frame", h.length);
    r->buf = nb;
    r->cap = cap;
  }
  memcpy(r->buf, &h, sizeof h);
  got = read_at(r->fd, r->buf + sizeof h, take, r->offset + sizeof h);
  if (got < 0)
    return damaged(r, "read error (errno %llu)", (unsigned long long)errno);
  if ((size_t)got < take) {
    r->torn = 1;
    r->torn_loc = h.loc;
    return damaged(r, "torn: %llu payload bytes missing", take - (unsigned long long)got);
  }
  if (!trusted && frame_crc(&h, r->buf + sizeof h) != h.crc)
    return damaged(r, "crc mismatch in frame %llu", h.seq);
  r->next_seq++;
  r->offset += need;
  return (const ot_frame_hdr *)r->buf;
}

const ot_frame_hdr *ot_frame_next(ot_frame_reader *r, uint32_t want, const uint8_t **payload) {
  if (r->fd < 0 || r->damaged)
    return NULL;
  const ot_frame_hdr *h;
  while ((h = read_frame(r))) {
    if (!want || (want & (1u << h->type))) {
      *payload = (const uint8_t *)(h + 1);
      return h;
    }
  }
  return NULL;
}

const ot_frame_hdr *ot_frame_again(ot_frame_reader *r, uint64_t offset, uint32_t seq,
                                   const uint8_t **payload) {
  ot_frame_reader keep = *r;
  r->offset = offset;
  r->next_seq = seq;
  r->skim = 0;
  r->damaged = 0;
  const ot_frame_hdr *h = r->fd >= 0 ? read_frame(r) : NULL;
  /* The buffer may have grown: keep it, and the rest as it was. */
  keep.buf = r->buf;
  keep.cap = r->cap;
  *r = keep;
  if (h)
    *payload = (const uint8_t *)(h + 1);
  return h;
}

void ot_frame_close(ot_frame_reader *r) {
  if (r->fd >= 0)
    close(r->fd);
  free(r->buf);
  r->fd = -1;
  r->buf = NULL;
  r->cap = 0;
}
