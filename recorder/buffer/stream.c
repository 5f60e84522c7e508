/* Reading a location's records back: the spill file, then (if spilling
 * failed) one OT_LOST record summing what was discarded, then the chunks
 * still in memory, oldest first. Streams only read the rings' frozen
 * snapshot, so records written by threads still running during finalize
 * are never seen half-written. */
#include "buffer/stream.h"
#include "buffer/buffer.h"
#include "buffer/chunk.h"
#include "core/log.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OT_STREAM_READ (1u << 20)
#define OT_STREAM_MAX_NVAL 64 /* anything larger is a corrupt header */

enum { PH_FILE, PH_LOST, PH_MEM, PH_DONE };

struct ot_stream {
  uint32_t loc;
  ot_ring *ring;
  int phase;
  /* Spill file. */
  int fd;
  uint8_t *buf;
  size_t len, pos;
  uint64_t file_records;
  char path[PATH_MAX + 32];
  /* Memory. */
  uint32_t chunk;   /* index of the chunk being read */
  uint32_t visited; /* chunks visited, at most nchunks */
  const uint8_t *mp, *mend;
  ot_rec lost;
};

ot_stream *ot_stream_open(uint32_t loc) {
  ot_ring *r = ot_ring_get(loc);
  ot_stream *s = calloc(1, sizeof *s);
  if (!s) {
    ot_warn("out of memory reading the records of thread %u", loc);
    return NULL;
  }
  s->loc = loc;
  s->ring = r;
  s->fd = -1;
  s->phase = r ? PH_FILE : PH_DONE;
  if (r && r->spilled_bytes > 0) {
    snprintf(s->path, sizeof s->path, "%s/%u.raw", ot_spill_dir(), loc);
    s->fd = open(s->path, O_RDONLY | O_CLOEXEC);
    s->buf = malloc(OT_STREAM_READ);
    if (s->fd < 0 || !s->buf) {
      ot_warn("cannot read %s: %s", s->path, s->fd < 0 ? strerror(errno) : "out of memory");
      ot_stream_close(s);
      return NULL;
    }
  }
  return s;
}

/* Makes at least `need` bytes available at buf+pos; 0 at end of file. */
static int fill(ot_stream *s, size_t need) {
  if (s->len - s->pos >= need)
    return 1;
  memmove(s->buf, s->buf + s->pos, s->len - s->pos);
  s->len -= s->pos;
  s->pos = 0;
  while (s->len < need) {
    ssize_t n = read(s->fd, s->buf + s->len, OT_STREAM_READ - s->len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return 0;
    s->len += (size_t)n;
  }
  return 1;
}

static const ot_rec *next_from_file(ot_stream *s) {
  if (s->fd < 0)
    return NULL;
  if (s->len == s->pos && !fill(s, 1))
    return NULL; /* clean end of file */
  if (fill(s, sizeof(ot_rec))) {
    const ot_rec *r = (const ot_rec *)(s->buf + s->pos);
    if (r->type != OT_NONE && r->type < OT_REC_TYPE_COUNT && r->nval <= OT_STREAM_MAX_NVAL &&
        fill(s, ot_rec_size(r))) {
      r = (const ot_rec *)(s->buf + s->pos);
      s->pos += ot_rec_size(r);
      s->file_records++;
      return r;
    }
  }
  if (!s->ring->damaged)
    ot_warn("%s is truncated or damaged after %llu records: the rest of thread %u is not in "
            "the trace",
            s->path, (unsigned long long)s->file_records, s->loc);
  s->ring->damaged = 1;
  s->phase = PH_DONE;
  return NULL;
}

/* Moves mp/mend to the next in-memory chunk; 0 when there is none. */
static int next_chunk(ot_stream *s) {
  ot_ring *r = s->ring;
  uint32_t first = r->frozen ? r->frozen_first : r->spill_next;
  while (s->visited < r->nchunks) {
    const ot_chunk *c = &r->chunks[(first + s->visited) % r->nchunks];
    s->visited++;
    unsigned st = atomic_load_explicit(&c->state, memory_order_acquire);
    if (st == OT_CHUNK_FULL) {
      s->mp = c->base;
      s->mend = c->base + c->used;
      return 1;
    }
    if (st == OT_CHUNK_ACTIVE) {
      s->mp = c->base;
      s->mend =
          r->frozen ? r->frozen_cur : atomic_load_explicit(&r->owner->cur, memory_order_acquire);
      s->visited = r->nchunks; /* the active chunk is the newest */
      return 1;
    }
    return 0;
  }
  return 0;
}

const ot_rec *ot_stream_next(ot_stream *s) {
  for (;;) {
    switch (s->phase) {
    case PH_FILE: {
      const ot_rec *r = next_from_file(s);
      if (r)
        return r;
      if (s->phase == PH_DONE)
        return NULL;
      s->phase = PH_LOST;
      break;
    }
    case PH_LOST:
      s->phase = PH_MEM;
      s->mp = s->mend = NULL;
      if (s->ring->owner->lost > 0) {
        uint64_t n = s->ring->owner->lost;
        s->lost = (ot_rec){.ts = s->ring->lost_last_ts,
                           .type = OT_LOST,
                           .a = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n,
                           .b = s->ring->lost_first_ts,
                           .c = s->ring->lost_last_ts};
        return &s->lost;
      }
      break;
    case PH_MEM:
      if (s->mp && s->mp + sizeof(ot_rec) <= s->mend) {
        const ot_rec *r = (const ot_rec *)s->mp;
        s->mp += ot_rec_size(r);
        return r;
      }
      if (!next_chunk(s))
        s->phase = PH_DONE;
      break;
    default:
      return NULL;
    }
  }
}

void ot_stream_close(ot_stream *s) {
  if (!s)
    return;
  if (s->fd >= 0)
    close(s->fd);
  free(s->buf);
  free(s);
}
