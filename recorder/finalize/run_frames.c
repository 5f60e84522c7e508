/* The run model's per-location facts from its frames (run_frames.h). */
#include "finalize/run_frames.h"
#include "log/codec.h"
#include "log/format.h"

#include <stdlib.h>
#include <string.h>

/* Appends a CAPTURES frame's bytes at their offset into the thread's
 * sample or context buffer (frames arrive in order; the buffer is the
 * concatenation of what was written). */
static int add_captures(ot_run_thread *t, const uint8_t *p, uint32_t len) {
  if (len < sizeof(ot_log_captures))
    return 0;
  ot_log_captures c;
  memcpy(&c, p, sizeof c);
  ot_cap_buf *b = c.which == OT_LOG_CONTEXTS ? &t->sampler.contexts : &t->sampler.samples;
  size_t n = len - sizeof c;
  if (c.offset > OT_LOG_MAX_FRAME * 1024ull || c.offset != b->used)
    return 0; /* a gap or an overlap: the captures after it cannot be placed */
  if (b->used + n > b->cap) {
    size_t cap = b->cap ? b->cap : 1u << 16;
    while (cap < b->used + n)
      cap *= 2;
    uint8_t *nb = realloc(b->base, cap);
    if (!nb)
      return -1;
    b->base = nb;
    b->cap = cap;
  }
  memcpy(b->base + b->used, p + sizeof c, n);
  b->used += n;
  return 0;
}

/* Keeps the whole, well-formed captures at the start of a rebuilt buffer:
 * the finalize passes walk captures by their sizes and trust them. */
void ot_run_trim_captures(ot_cap_buf *b) {
  size_t at = 0;
  while (b->used - at >= sizeof(ot_capture)) {
    const ot_capture *c = (const ot_capture *)(b->base + at);
    size_t need = sizeof *c + c->nlevels * sizeof(ot_cap_level) + c->nframes * sizeof(ot_cap_frame);
    if (c->size % 8 || c->size < need || c->size > b->used - at)
      break;
    at += c->size;
  }
  b->used = at;
}

static void apply_stats(ot_run_thread *t, const uint8_t *p, uint32_t len) {
  ot_log_stats s;
  if (len < sizeof s)
    return;
  memcpy(&s, p, sizeof s);
  t->records = s.records;
  t->stall_ns = s.stall_ns;
  ot_sampler_thread *st = &t->sampler;
  st->taken = s.taken;
  st->full = s.full;
  st->busy_skips = s.busy_skips;
  st->ctx_full = s.ctx_full;
  st->ctx_taken = s.ctx_taken;
  st->ctx_reused = s.ctx_reused;
  st->sample_ticks = s.sample_ticks;
  st->ctx_ticks = s.ctx_ticks;
  st->expirations = s.expirations;
  st->armed_ns = s.armed_ns;
  st->disarmed_ns = s.disarmed_ns;
}

/* Raw time of the last record of a RECORDS frame's payload. */
uint64_t ot_run_last_time(const uint8_t *p, uint32_t len) {
  if (len < sizeof(ot_log_records))
    return 0;
  ot_log_records h;
  memcpy(&h, p, sizeof h);
  if (h.bytes > len - sizeof h)
    return 0;
  static ot_codec_dec d; /* large: keep it off the stack */
  ot_codec_dec_init(&d, p + sizeof h, h.bytes, h.nrec);
  uint64_t ts = 0;
  for (const ot_rec *r; (r = ot_codec_dec_next(&d)) != NULL;)
    ts = r->ts;
  return ts;
}

_Static_assert(sizeof(ot_log_records) <= OT_FRAME_SKIM, "a skimmed RECORDS frame holds its count");

/* A RECORDS or LOST frame of the shared file, listed for the location's
 * readers. */
static int list_shared(ot_run_thread *t, ot_frame_at at) {
  if (t->nshared == t->shared_cap) {
    uint32_t cap = t->shared_cap ? 2 * t->shared_cap : 16;
    ot_frame_at *n = realloc(t->shared, cap * sizeof *n);
    if (!n)
      return -1;
    t->shared = n;
    t->shared_cap = cap;
  }
  t->shared[t->nshared++] = at;
  return 0;
}

/* What one frame of location t says, everything but the records'
 * contents; `at` is where it is, in the shared file (in_shared) or in the
 * location's own. */
int ot_run_apply_frame(ot_run_thread *t, const ot_frame_hdr *h, const uint8_t *p, ot_frame_at at,
                       int in_shared) {
  switch (h->type) {
  case OT_FRAME_THREAD:
    if (h->length >= OT_LOG_THREAD_MIN) {
      ot_log_thread th;
      memcpy(&th, p, OT_LOG_THREAD_MIN);
      t->present = 1;
      t->type = th.type;
      t->tid = th.tid;
      t->nval = th.nval;
    }
    return 0;
  case OT_FRAME_RECORDS:
    if (h->length >= sizeof(ot_log_records)) {
      ot_log_records rh;
      memcpy(&rh, p, sizeof rh);
      t->logged += rh.nrec;
      t->last = at;
      t->last_in = in_shared ? 1 : 2;
      return in_shared ? list_shared(t, at) : 0;
    }
    return 0;
  case OT_FRAME_CAPTURES:
    return add_captures(t, p, h->length);
  case OT_FRAME_LOST:
    if (h->length >= sizeof(ot_log_lost)) {
      ot_log_lost l;
      memcpy(&l, p, sizeof l);
      t->lost += l.count;
      return in_shared ? list_shared(t, at) : 0;
    }
    return 0;
  case OT_FRAME_STATS:
    apply_stats(t, p, h->length);
    return 0;
  default:
    return 0;
  }
}
