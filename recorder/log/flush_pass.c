/* The writing half of the flusher (log/flush_pass.h): for each location a
 * THREAD frame first, then LOST (what was discarded since the last
 * write), RECORDS (chunks in ring order, the active one up to the owner's
 * published end), CAPTURES (new bytes of the sampler buffers) and STATS;
 * in the process file META (when changed), CLOCK and MAPS (when changed).
 * A location's frames go to the shared file until the next one would take
 * it past OMPTRACE_LOG_SHARED bytes there, then to its own file for good
 * (which opens with the THREAD frame again): most threads of a program
 * with hundreds of them never cost a file creation.
 * A frame that cannot be written leaves everything where it was, so the
 * next pass retries it; a partial write is cut off again (ftruncate) so a
 * file is always a sequence of whole frames.
 * Every file keeps OT_PASS_RESERVE bytes allocated past its end (fallocate
 * FALLOC_FL_KEEP_SIZE), which only the accounting of the last pass may use:
 * when the disk is full at the end, the records still in memory are counted
 * lost and that count (LOST, STATS, CLOCK, META frames) still reaches the
 * log, so every record the log misses is counted there. */
#define _GNU_SOURCE /* program_invocation_short_name */
#include "log/flush_pass.h"
#include "buffer/chunk.h"
#include "buffer/record.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/filter.h"
#include "core/log.h"
#include "core/threads.h"
#include "log/codec.h"
#include "log/format.h"
#include "log/frame.h"
#include "log/meta.h"
#include "services/counters.h"
#include "services/sampler_buf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* Files kept open at once; further locations reopen per frame (a program
 * with thousands of threads keeps its own descriptors). */
#define OT_PASS_MAX_OPEN 512
/* Raw bytes per RECORDS or CAPTURES frame. */
#define OT_PASS_PIECE (1u << 20)
#define OT_PASS_BUF (4u << 20) /* frame buffer: a piece's encoding, META, MAPS */
#define PROCESS_LOC UINT32_MAX

typedef struct log_file {
  int fd;
  uint32_t seq;
  uint64_t size;  /* bytes of whole frames written */
  int torn;       /* a partial write could not be cut off: the file is not size bytes */
  int noreserve;  /* its file system has no fallocate: no reserve */
  uint64_t alloc; /* bytes from 0 allocated by fallocate (the reserve ends there) */
} log_file;
#define LOG_FILE_INIT                                                                              \
  { .fd = -1 }

/* The reserve past the end of each file (see above): the accounting frames
 * of a last pass (THREAD, LOST, STATS: 240 bytes per location; META and
 * CLOCK in the process file) fit many times over. */
#define OT_PASS_RESERVE (16u << 10)
#define OT_PASS_RESERVE_SHARED (64u << 10) /* process and shared files */

typedef struct loc_log {
  log_file f;          /* its own file, <loc>.log */
  int started;         /* THREAD frame written */
  int own;             /* its frames go to f, for good */
  uint64_t in_shared;  /* bytes of its frames in the shared file */
  uint64_t written;    /* records in RECORDS frames plus records counted lost */
  uint64_t cap_off[2]; /* enum ot_capture_buf: bytes already written */
  ot_log_lost lost;    /* discarded, not yet in a LOST frame (count 0: none) */
  ot_log_stats last;   /* last STATS frame written */
} loc_log;

static char dir[PATH_MAX];
static loc_log *locs; /* OT_MAX_THREADS, untouched pages cost nothing */
static log_file process = LOG_FILE_INIT;
static log_file shared = LOG_FILE_INIT;
static uint64_t shared_budget; /* OMPTRACE_LOG_SHARED */
static uint8_t *buf;
/* A THREAD frame written at the head of a location's own file while buf
 * holds the frame that made it switch. */
static uint64_t head_frame[(sizeof(ot_frame_hdr) + sizeof(ot_log_thread) + 7) / 8];
static unsigned nopen;
static uint32_t meta_crc, maps_crc;
static size_t meta_len, maps_len;
static uint64_t realtime0;
/* Write failures: warned once when they start, once when they end. */
static int failing;
static int failing_warned;
static int fail_errno;
static uint32_t fail_loc;
static uint64_t lost_since;
static unsigned pass_records; /* RECORDS and LOST frames written in this pass */
/* The accounting of a last pass is being written: frames may use the
 * reserve, and a location's go to the shared file while it has no file of
 * its own (a new file has no reserve). */
static int spending;
static ot_pass_written_fn on_written;

void ot_pass_on_written(ot_pass_written_fn fn) {
  on_written = fn;
}

static char *put_str(char *o, const char *s) {
  while (*s)
    *o++ = *s++;
  return o;
}

static char *put_u64(char *o, uint64_t v) {
  char tmp[24];
  int n = 0;
  do
    tmp[n++] = (char)('0' + v % 10);
  while ((v /= 10) != 0);
  while (n > 0)
    *o++ = tmp[--n];
  return o;
}

/* signal-safe: no snprintf. */
static void file_path(char *out, uint32_t loc) {
  char *o = put_str(out, dir);
  *o++ = '/';
  if (loc == PROCESS_LOC) {
    o = put_str(o, OT_LOG_PROCESS_FILE);
  } else if (loc == OT_LOG_SHARED_LOC) {
    o = put_str(o, OT_LOG_SHARED_FILE);
  } else {
    o = put_u64(o, loc);
    o = put_str(o, OT_LOG_THREAD_SUFFIX);
  }
  *o = '\0';
}

static void note_failure(uint32_t loc, int err, int in_signal) {
  if (!failing) {
    failing = 1;
    failing_warned = 0;
    fail_errno = err;
    fail_loc = loc;
  }
  if (!failing_warned && !in_signal) {
    char path[PATH_MAX + 32];
    file_path(path, fail_loc);
    ot_warn("cannot write %s: %s; records stay in memory and are written when possible; "
            "when the buffers are full the oldest are dropped (counted in the trace)",
            path, strerror(fail_errno));
    failing_warned = 1;
  }
}

/* Writing has resumed once a whole pass wrote everything that was due
 * (not at the first small frame that fits a nearly full disk). */
static void note_pass_ok(int in_signal) {
  if (!failing || in_signal)
    return;
  failing = 0;
  if (failing_warned)
    ot_warn("writing the record log %s resumed; %llu records were lost", dir,
            (unsigned long long)lost_since);
  lost_since = 0;
}

/* signal-safe: fallocate(2). Keeps the reserve allocated past the n bytes
 * about to be appended to f; -1 (errno ENOSPC) when the disk has no room
 * for both, so the frame is not written. A file system without fallocate
 * gets no reserve (the accounting of a last pass is then best effort). */
static int keep_reserve(log_file *f, int fd, uint32_t file, size_t n) {
  uint64_t want =
      f->size + n +
      (file == PROCESS_LOC || file == OT_LOG_SHARED_LOC ? OT_PASS_RESERVE_SHARED : OT_PASS_RESERVE);
  if (f->noreserve || want <= f->alloc)
    return 0;
  int rc;
  do
    rc = fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)f->size, (off_t)(want - f->size));
  while (rc != 0 && errno == EINTR);
  if (rc == 0) {
    f->alloc = want;
    return 0;
  }
  if (errno == ENOSPC || errno == EDQUOT || errno == EFBIG)
    return -1;
  f->noreserve = 1; /* EOPNOTSUPP, ENOSYS, EINVAL... */
  return 0;
}

/* signal-safe: seals the frame whose payload (len bytes) follows its
 * header at `frame` and appends it to file `file` (a location, PROCESS_LOC
 * or OT_LOG_SHARED_LOC) with one write(2); `loc` goes into the header.
 * Only with `spend` (the accounting of a last pass) may the frame use the
 * file's reserve. */
static int put_frame_at(log_file *f, uint32_t file, void *frame, uint32_t loc, unsigned type,
                        uint32_t len, int spend, int in_signal) {
  size_t n = ot_frame_seal(frame, type, len, f->seq, loc);
  int fd = f->fd, transient = 0;
  if (fd < 0) {
    char path[PATH_MAX + 32];
    file_path(path, file);
    fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
      note_failure(file, errno, in_signal);
      return -1;
    }
    if (file == PROCESS_LOC || file == OT_LOG_SHARED_LOC || nopen < OT_PASS_MAX_OPEN) {
      f->fd = fd;
      nopen++;
    } else {
      transient = 1; /* reopened per frame: no reserve kept (nobody would free it) */
      f->noreserve = 1;
    }
  }
  if (!spend && keep_reserve(f, fd, file, n) != 0) {
    int err = errno;
    if (transient)
      close(fd);
    note_failure(file, err, in_signal);
    return -1;
  }
  ssize_t w;
  do
    w = write(fd, frame, n);
  while (w < 0 && errno == EINTR);
  int err = w < 0 ? errno : ENOSPC;
  if (w != (ssize_t)n && w > 0) {
    if (ftruncate(fd, (off_t)f->size) != 0)
      f->torn = 1;      /* the torn frame fails its CRC: readers stop there, as after a crash */
    f->alloc = f->size; /* the cut may have freed the reserve too */
  }
  if (transient)
    close(fd);
  if (w != (ssize_t)n) {
    note_failure(file, err, in_signal);
    return -1;
  }
  f->seq++;
  f->size += n;
  return 0;
}

/* Gives back the unused reserve of an open file (its end stays). */
static void release_reserve(log_file *f) {
  if (f->fd >= 0 && !f->noreserve && f->alloc > f->size)
    (void)fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)f->size,
                    (off_t)(f->alloc - f->size));
  f->alloc = f->size;
}

/* A process frame from buf. */
static int put_process(unsigned type, uint32_t len, int in_signal) {
  return put_frame_at(&process, PROCESS_LOC, buf, 0, type, len, spending, in_signal);
}

static void thread_payload(void *out, uint32_t loc, const ot_thread *t, uint64_t shared_bytes) {
  /* nval: the configured counters (t->nctr is set by the owner later and
   * may change; each record carries its own count anyway). */
  ot_log_thread th = {loc,          t->thread_type, (int32_t)t->tid, ot_counters_count(),
                      shared_bytes, realtime0};
  memcpy(out, &th, sizeof th);
}

/* signal-safe: a LOCATION frame in the process file (format.h), so that
 * recovery notices a location's stream or file that is gone. A failure
 * only leaves the check out. */
static void put_location(uint32_t loc, uint32_t what, int in_signal) {
  static uint64_t frame[(sizeof(ot_frame_hdr) + sizeof(ot_log_location) + 7) / 8];
  ot_log_location l = {loc, what};
  memcpy((ot_frame_hdr *)(void *)frame + 1, &l, sizeof l);
  (void)put_frame_at(&process, PROCESS_LOC, frame, 0, OT_FRAME_LOCATION, sizeof l, spending,
                     in_signal);
}

/* signal-safe: close, unlink. A location's own file that its first frame
 * did not fit in (a full disk) is removed again: left empty, it would read
 * as a file emptied since (damage) to recovery, while the location's
 * stream simply goes on in the shared file. Made again when a frame fits. */
static void drop_empty(log_file *f, uint32_t loc) {
  if (f->size != 0)
    return;
  if (f->fd >= 0) {
    close(f->fd);
    f->fd = -1;
    nopen--;
  }
  char path[PATH_MAX + 32];
  file_path(path, loc);
  (void)unlink(path);
  f->alloc = 0;
}

/* signal-safe: put_frame_at and a THREAD frame built in place. A frame of
 * location loc from buf: to the shared file while the
 * location's bytes there stay within the budget (and the file is whole),
 * else to its own file, which starts with the THREAD frame again. */
static int put_frame(loc_log *L, uint32_t loc, unsigned type, uint32_t len, int in_signal) {
  uint64_t n = sizeof(ot_frame_hdr) + len;
  if (!L->own) {
    if (!shared.torn && (L->in_shared + n <= shared_budget || spending)) {
      if (put_frame_at(&shared, OT_LOG_SHARED_LOC, buf, loc, type, len, spending, in_signal) != 0)
        return -1;
      L->in_shared += n;
      return 0;
    }
    if (L->f.seq == 0 && type != OT_FRAME_THREAD) {
      thread_payload((ot_frame_hdr *)(void *)head_frame + 1, loc, ot_thread_get(loc), L->in_shared);
      if (put_frame_at(&L->f, loc, head_frame, loc, OT_FRAME_THREAD, sizeof(ot_log_thread),
                       spending, in_signal) != 0) {
        drop_empty(&L->f, loc);
        return -1;
      }
      put_location(loc, OT_LOC_OWN_FILE, in_signal);
    }
    L->own = 1;
  }
  return put_frame_at(&L->f, loc, buf, loc, type, len, spending, in_signal);
}

static uint8_t *payload(void) {
  return buf + sizeof(ot_frame_hdr);
}

static int put_lost(loc_log *L, uint32_t loc, int in_signal) {
  memcpy(payload(), &L->lost, sizeof L->lost);
  if (put_frame(L, loc, OT_FRAME_LOST, sizeof L->lost, in_signal) != 0)
    return -1;
  if (on_written) { /* the record log/reader.c makes of the frame */
    ot_rec r = {.ts = L->lost.last_ts,
                .type = OT_LOST,
                .a = L->lost.count > UINT32_MAX ? UINT32_MAX : (uint32_t)L->lost.count,
                .b = L->lost.first_ts,
                .c = L->lost.last_ts};
    on_written(loc, (const uint8_t *)&r, 1, in_signal);
  }
  L->lost.count = 0;
  pass_records++;
  return 0;
}

/* Records [p, end) of location L dropped: counted, with the time span. */
static void count_lost(loc_log *L, ot_thread *t, const uint8_t *p, const uint8_t *end) {
  uint64_t n = 0;
  while (p + sizeof(ot_rec) <= end) {
    const ot_rec *rec = (const ot_rec *)p;
    if (L->lost.count == 0 && n == 0)
      L->lost.first_ts = rec->ts;
    L->lost.last_ts = rec->ts;
    n++;
    p += ot_rec_size(rec);
  }
  L->lost.count += n;
  L->written += n;
  t->lost += n;
  lost_since += n;
}

/* The owner waits for the chunk that cannot be written: drop it, counted. */
static void discard_oldest(loc_log *L, ot_ring *r, ot_thread *t) {
  ot_chunk *c = &r->chunks[r->flush_next];
  if (atomic_load_explicit(&c->state, memory_order_acquire) != OT_CHUNK_FULL)
    return;
  count_lost(L, t, c->base + r->flushed, c->base + c->used);
  r->flushed = 0;
  r->flush_next = (r->flush_next + 1) % r->nchunks;
  atomic_store_explicit(&c->state, OT_CHUNK_FREE, memory_order_release);
}

/* A last pass that could not write everything: whatever the ring still
 * holds (FULL chunks, the active one up to the published end) is dropped,
 * counted, as flush_ring would have written it. */
static void drop_rest(loc_log *L, ot_ring *r, ot_thread *t) {
  for (uint32_t k = 0; k < r->nchunks; k++) {
    ot_chunk *c = &r->chunks[r->flush_next];
    unsigned st = atomic_load_explicit(&c->state, memory_order_acquire);
    if (st == OT_CHUNK_FULL) {
      count_lost(L, t, c->base + r->flushed, c->base + c->used);
      r->flushed = 0;
      r->flush_next = (r->flush_next + 1) % r->nchunks;
      atomic_store_explicit(&c->state, OT_CHUNK_FREE, memory_order_release);
      continue;
    }
    if (st == OT_CHUNK_ACTIVE) {
      const uint8_t *cur = atomic_load_explicit(&t->cur, memory_order_acquire);
      if (atomic_load_explicit(&c->state, memory_order_acquire) == OT_CHUNK_ACTIVE &&
          cur >= c->base + r->flushed && cur <= c->base + r->chunk_size) {
        count_lost(L, t, c->base + r->flushed, cur);
        r->flushed = (uint64_t)(cur - c->base);
      }
    }
    break;
  }
}

/* Bytes of the first nrec records at p. */
static size_t raw_bytes(const uint8_t *p, uint32_t nrec) {
  const uint8_t *q = p;
  for (uint32_t i = 0; i < nrec; i++)
    q += ot_rec_size((const ot_rec *)q);
  return (size_t)(q - p);
}

static int put_records(loc_log *L, uint32_t loc, const uint8_t **pp, const uint8_t *end,
                       int in_signal) {
  if (L->lost.count && put_lost(L, loc, in_signal) != 0)
    return -1;
  const uint8_t *p = *pp;
  if ((size_t)(end - p) > OT_PASS_PIECE)
    end = p + OT_PASS_PIECE;
  ot_log_records h;
  size_t enc = ot_codec_encode(p, end, payload() + sizeof h, &h.nrec);
  if (h.nrec == 0) {
    *pp = end; /* not a record (cannot happen with the emit helper): skipped */
    return 0;
  }
  h.bytes = (uint32_t)enc;
  memcpy(payload(), &h, sizeof h);
  if (put_frame(L, loc, OT_FRAME_RECORDS, (uint32_t)(sizeof h + enc), in_signal) != 0)
    return -1;
  if (on_written)
    on_written(loc, p, h.nrec, in_signal);
  *pp = p + raw_bytes(p, h.nrec);
  L->written += h.nrec;
  pass_records++;
  return 0;
}

/* Chunks in ring order from flush_next: FULL ones whole, then (all) the
 * active one up to the owner's published cur. */
static int flush_ring(loc_log *L, uint32_t loc, ot_ring *r, ot_thread *t, int all, int in_signal) {
  for (;;) {
    ot_chunk *c = &r->chunks[r->flush_next];
    unsigned st = atomic_load_explicit(&c->state, memory_order_acquire);
    const uint8_t *end;
    if (st == OT_CHUNK_FULL) {
      end = c->base + c->used;
    } else if (st == OT_CHUNK_ACTIVE && all) {
      const uint8_t *cur = atomic_load_explicit(&t->cur, memory_order_acquire);
      /* Still ACTIVE after reading cur: cur was published inside c. */
      if (atomic_load_explicit(&c->state, memory_order_acquire) != OT_CHUNK_ACTIVE)
        continue;
      if (cur < c->base || cur > c->base + r->chunk_size)
        break;
      end = cur;
    } else {
      break;
    }
    const uint8_t *p = c->base + r->flushed;
    while (p < end) {
      if (put_records(L, loc, &p, end, in_signal) != 0) {
        if (atomic_load(&r->waiting))
          discard_oldest(L, r, t);
        return -1;
      }
      r->flushed = (uint64_t)(p - c->base);
    }
    if (st != OT_CHUNK_FULL)
      break;
    r->flushed = 0;
    r->flush_next = (r->flush_next + 1) % r->nchunks;
    atomic_store_explicit(&c->state, OT_CHUNK_FREE, memory_order_release);
  }
  /* Nothing left to write but a discard still pending: say so now. */
  if (L->lost.count && put_lost(L, loc, in_signal) != 0)
    return -1;
  return 0;
}

/* New bytes of the sampler buffers, whole captures per frame. */
static int flush_captures(loc_log *L, uint32_t loc, const ot_sampler_thread *st, int in_signal) {
  for (unsigned which = OT_LOG_SAMPLES; which <= OT_LOG_CONTEXTS; which++) {
    const ot_cap_buf *b = which == OT_LOG_SAMPLES ? &st->samples : &st->contexts;
    if (!b->base)
      continue;
    size_t used = __atomic_load_n(&b->used, __ATOMIC_ACQUIRE);
    while (L->cap_off[which] < used) {
      size_t off = L->cap_off[which], n = 0;
      while (off + n < used && n < OT_PASS_PIECE) {
        const ot_capture *c = (const ot_capture *)(b->base + off + n);
        if (c->size < sizeof *c || c->size > used - off - n) {
          n = used - off; /* malformed: the reader validates */
          break;
        }
        n += c->size;
      }
      ot_log_captures h = {which, 0, off};
      if (n > OT_PASS_BUF - sizeof(ot_frame_hdr) - sizeof h)
        n = OT_PASS_BUF - sizeof(ot_frame_hdr) - sizeof h;
      memcpy(payload(), &h, sizeof h);
      memcpy(payload() + sizeof h, b->base + off, n);
      if (put_frame(L, loc, OT_FRAME_CAPTURES, (uint32_t)(sizeof h + n), in_signal) != 0)
        return -1;
      L->cap_off[which] = off + n;
    }
  }
  return 0;
}

static int flush_stats(loc_log *L, uint32_t loc, const ot_thread *t, const ot_sampler_thread *st,
                       int force, int in_signal) {
  ot_log_stats s = {0};
  s.records = L->written;
  s.stall_ns = __atomic_load_n(&t->stall_ns, __ATOMIC_RELAXED);
  if (st) {
    s.taken = __atomic_load_n(&st->taken, __ATOMIC_RELAXED);
    s.full = __atomic_load_n(&st->full, __ATOMIC_RELAXED);
    s.busy_skips = __atomic_load_n(&st->busy_skips, __ATOMIC_RELAXED);
    s.ctx_full = __atomic_load_n(&st->ctx_full, __ATOMIC_RELAXED);
    s.ctx_taken = __atomic_load_n(&st->ctx_taken, __ATOMIC_RELAXED);
    s.ctx_reused = __atomic_load_n(&st->ctx_reused, __ATOMIC_RELAXED);
    s.sample_ticks = __atomic_load_n(&st->sample_ticks, __ATOMIC_RELAXED);
    s.ctx_ticks = __atomic_load_n(&st->ctx_ticks, __ATOMIC_RELAXED);
    s.expirations = __atomic_load_n(&st->expirations, __ATOMIC_RELAXED);
    s.armed_ns = __atomic_load_n(&st->armed_ns, __ATOMIC_RELAXED);
    s.disarmed_ns = __atomic_load_n(&st->disarmed_ns, __ATOMIC_RELAXED);
  }
  if (!force && memcmp(&s, &L->last, sizeof s) == 0)
    return 0;
  memcpy(payload(), &s, sizeof s);
  if (put_frame(L, loc, OT_FRAME_STATS, sizeof s, in_signal) != 0)
    return -1;
  L->last = s;
  return 0;
}

static int flush_location(uint32_t loc, int what, int in_signal) {
  ot_thread *t = ot_thread_get(loc);
  if (!t)
    return 0;
  loc_log *L = &locs[loc];
  ot_ring *r = ot_ring_get(loc);
  if (!L->started) {
    thread_payload(payload(), loc, t, 0);
    if (put_frame(L, loc, OT_FRAME_THREAD, sizeof(ot_log_thread), in_signal) != 0) {
      if (r && atomic_load(&r->waiting)) /* the disk was full from the start */
        discard_oldest(L, r, t);
      return -1;
    }
    L->started = 1;
    put_location(loc, L->own ? OT_LOC_OWN_FILE : OT_LOC_STARTED, in_signal);
  }
  int rc = 0;
  if (r && flush_ring(L, loc, r, t, what != OT_PASS_FULL, in_signal) != 0)
    rc = -1;
  if (what == OT_PASS_FULL)
    return rc;
  const ot_sampler_thread *st =
      __atomic_load_n((ot_sampler_thread **)&t->sampler, __ATOMIC_ACQUIRE);
  if (st && flush_captures(L, loc, st, in_signal) != 0)
    rc = -1;
  if (flush_stats(L, loc, t, st, what == OT_PASS_FINISH, in_signal) != 0)
    rc = -1;
  return rc;
}

/* A last pass could not write everything of loc: the rest of its ring is
 * counted lost, and its THREAD frame (when still missing), LOST and STATS
 * frames are written from the reserve, so the log says exactly how many
 * of its records it misses, and when they were made. */
static int account_location(uint32_t loc, int in_signal) {
  ot_thread *t = ot_thread_get(loc);
  if (!t)
    return 0;
  loc_log *L = &locs[loc];
  ot_ring *r = ot_ring_get(loc);
  if (r)
    drop_rest(L, r, t);
  spending = 1;
  int rc = 0;
  if (!L->started) {
    thread_payload(payload(), loc, t, 0);
    rc = put_frame(L, loc, OT_FRAME_THREAD, sizeof(ot_log_thread), in_signal);
    if (rc == 0) {
      L->started = 1;
      put_location(loc, L->own ? OT_LOC_OWN_FILE : OT_LOC_STARTED, in_signal);
    }
  }
  if (rc == 0 && L->lost.count)
    rc = put_lost(L, loc, in_signal);
  if (rc == 0)
    rc =
        flush_stats(L, loc, t, __atomic_load_n((ot_sampler_thread **)&t->sampler, __ATOMIC_ACQUIRE),
                    1, in_signal);
  spending = 0;
  return rc;
}

/* META text: written when it differs from the last one written. */
static int flush_meta(int finished, int in_signal) {
  char *p = (char *)payload();
  size_t cap = OT_PASS_BUF - sizeof(ot_frame_hdr), len = 0;
  char num[24], key[48];
#define NUM(v) (*put_u64(num, (v)) = '\0', num)
  ot_meta_put(p, cap, &len, "version", NUM(OT_LOG_VERSION));
  ot_meta_put(p, cap, &len, "program", program_invocation_short_name);
  ot_meta_put(p, cap, &len, "pid", NUM((uint64_t)getpid()));
  char host[256] = "localhost";
  gethostname(host, sizeof host - 1);
  ot_meta_put(p, cap, &len, "host", host);
  ot_meta_put(p, cap, &len, "clock", ot_clock_name());
  ot_meta_put(p, cap, &len, "realtime_ns", NUM(realtime0));
  ot_meta_put(p, cap, &len, "callstacks",
              ot_cfg.callstacks == OT_CALLSTACKS_MACHINE ? "machine" : "user");
  ot_meta_put(p, cap, &len, "sampling_ns", NUM(ot_sampler_enabled() ? ot_sampler_period_ns() : 0));
  ot_meta_put(p, cap, &len, "sampling_clock", ot_cfg.sampling_clock == 1 ? "wall" : "cpu");
  ot_meta_put(p, cap, &len, "chunks_none", NUM(ot_cfg.chunks == OT_CHUNKS_NONE));
  unsigned n = ot_counters_count();
  ot_meta_put(p, cap, &len, "counters", NUM(n));
  for (unsigned i = 0; i < n; i++) {
    static const char *const field[] = {"name", "desc", "unit", "estimate"};
    for (unsigned f = 0; f < 4; f++) {
      char *k = put_str(put_u64(put_str(key, "counter."), i), ".");
      *put_str(k, field[f]) = '\0';
      const char *v = f == 0   ? ot_counters_name(i)
                      : f == 1 ? ot_counters_description(i)
                      : f == 2 ? ot_counters_unit(i)
                               : NUM((uint64_t)ot_counters_is_estimate(i));
      ot_meta_put(p, cap, &len, key, v ? v : "");
    }
  }
  ot_meta_put(p, cap, &len, "counters_strict", NUM((uint64_t)ot_counters_strict()));
  if (ot_filter_path())
    ot_meta_put(p, cap, &len, "filter", ot_filter_path());
  if (finished)
    ot_meta_put(p, cap, &len, "finished", "1");
#undef NUM
  uint32_t crc = (uint32_t)crc32(0L, (const Bytef *)p, (uInt)len);
  if (len == meta_len && crc == meta_crc)
    return 0;
  if (put_process(OT_FRAME_META, (uint32_t)len, in_signal) != 0)
    return -1;
  meta_len = len;
  meta_crc = crc;
  return 0;
}

static int flush_clock(int in_signal) {
  ot_log_clock c;
  ot_clock_point(&c.raw, &c.ns);
  memcpy(payload(), &c, sizeof c);
  return put_process(OT_FRAME_CLOCK, sizeof c, in_signal);
}

/* /proc/self/maps when it changed (libraries loaded or unloaded): finalize
 * resolves addresses with the last one. */
static int flush_maps(int in_signal) {
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  size_t len = 0, cap = OT_PASS_BUF - sizeof(ot_frame_hdr);
  ssize_t n;
  while (len < cap && ((n = read(fd, payload() + len, cap - len)) > 0 || (n < 0 && errno == EINTR)))
    len += n > 0 ? (size_t)n : 0;
  close(fd);
  uint32_t crc = (uint32_t)crc32(0L, payload(), (uInt)len);
  if (len == maps_len && crc == maps_crc)
    return 0;
  if (put_process(OT_FRAME_MAPS, (uint32_t)len, in_signal) != 0)
    return -1;
  maps_len = len;
  maps_crc = crc;
  return 0;
}

int ot_pass_open(const char *log_dir) {
  size_t dl = strlen(log_dir);
  if (dl + 32 >= sizeof dir) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(dir, log_dir, dl + 1);
  if (!locs) {
    locs = calloc(OT_MAX_THREADS, sizeof *locs);
    void *m = mmap(NULL, OT_PASS_BUF, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (!locs || m == MAP_FAILED) {
      free(locs);
      locs = NULL;
      errno = ENOMEM;
      return -1;
    }
    buf = m;
    for (uint32_t i = 0; i < OT_MAX_THREADS; i++)
      locs[i].f.fd = -1; /* not 0: the reset below closes what is open */
  }
  ot_pass_reset();
  char path[PATH_MAX + 32];
  file_path(path, PROCESS_LOC);
  process.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (process.fd < 0)
    return -1;
  nopen = 1;
  shared_budget = ot_cfg.log_shared;
  struct timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  realtime0 = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
  return 0;
}

void ot_pass_reset(void) {
  for (uint32_t i = 0; locs && i < OT_MAX_THREADS; i++) {
    if (locs[i].f.fd >= 0)
      close(locs[i].f.fd);
    memset(&locs[i], 0, sizeof locs[i]);
    locs[i].f.fd = -1;
  }
  if (process.fd >= 0)
    close(process.fd);
  process = (log_file)LOG_FILE_INIT;
  if (shared.fd >= 0)
    close(shared.fd);
  shared = (log_file)LOG_FILE_INIT;
  nopen = 0;
  meta_len = maps_len = 0;
  meta_crc = maps_crc = 0;
  failing = failing_warned = 0;
  lost_since = 0;
}

/* signal-safe: open/read/write/ftruncate/close on preallocated state;
 * warnings only when !in_signal. */
int ot_pass_run(int what, int in_signal) {
  if (!locs || !buf)
    return -1;
  int rc = 0, proc_rc = 0, last = what == OT_PASS_FINISH || what == OT_PASS_LAST;
  pass_records = 0;
  if (what != OT_PASS_FULL) {
    if (flush_meta(what == OT_PASS_FINISH, in_signal) != 0)
      proc_rc = -1;
    if (flush_clock(in_signal) != 0)
      proc_rc = -1;
    if (flush_maps(in_signal) != 0)
      rc = -1;
  }
  uint32_t n = ot_thread_count();
  for (uint32_t loc = 0; loc < n; loc++)
    if (flush_location(loc, what, in_signal) != 0) {
      if (last)
        (void)account_location(loc, in_signal); /* ot_pass_uncounted says when it failed */
      rc = -1;
    }
  if (last && proc_rc != 0) { /* the last CLOCK point and META from the reserve */
    spending = 1;
    proc_rc = flush_meta(what == OT_PASS_FINISH, in_signal) | flush_clock(in_signal);
    spending = 0;
  }
  if (proc_rc != 0)
    rc = -1;
  if (rc == 0 && pass_records > 0)
    note_pass_ok(in_signal);
  return rc;
}

void ot_pass_close(void) {
  for (uint32_t i = 0; locs && i < OT_MAX_THREADS; i++) {
    if (locs[i].f.fd >= 0) {
      release_reserve(&locs[i].f);
      close(locs[i].f.fd);
      locs[i].f.fd = -1;
    }
  }
  release_reserve(&process);
  release_reserve(&shared);
  if (process.fd >= 0)
    close(process.fd);
  process.fd = -1;
  if (shared.fd >= 0)
    close(shared.fd);
  shared.fd = -1;
  nopen = 0;
}

uint64_t ot_pass_written(uint32_t loc) {
  if (loc == OT_LOG_SHARED_LOC)
    return shared.torn ? 0 : shared.size;
  if (!locs || loc >= OT_MAX_THREADS || locs[loc].f.torn)
    return 0;
  return locs[loc].f.size;
}

uint64_t ot_pass_uncounted(int *err) {
  uint64_t n = 0;
  *err = fail_errno;
  for (uint32_t i = 0; locs && i < OT_MAX_THREADS; i++)
    n += locs[i].lost.count;
  return n;
}
