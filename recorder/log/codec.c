/* Compact record encoding (codec.h); decode.c reads it back. One record is:
 *   code      byte: bits 0-5 the type (63: the type byte follows), bit 6
 *             a flags byte follows, bit 7 c equals the previous c of this
 *             type (only when the flags' c mode is 0)
 *   [type]    byte, when the code says 63
 *   [flags]   byte (no flags byte = all 0): bit 0 kind, 1 a, 2 nval
 *             follow (otherwise each is the previous record's of this
 *             type); bits 3-4 b's mode, 5-6 c's mode; bit 7 is 0
 *   ts        zigzag varint delta against the previous record (0 before
 *             the first one, so a frame starts absolute)
 *   [kind]    byte;  [a] varint;  [nval] varint
 *   [b]       b mode 0: the previous b of this type (no bytes); else a
 *             zigzag varint delta against 1: that b, 2: the previous c of
 *             this type, 3: the previous record's c
 *   [c]       c mode 0: code bit 7 set: the previous c of this type (no
 *             bytes), clear: delta against it; else a delta against 1: the
 *             previous b of this type, 2: the previous record's c, 3: the
 *             previous record's b
 *   values    nval zigzag varint deltas against the previous record's
 *             value at the same index
 * The modes let ids that move between fields cost one byte: a task
 * schedule's next task is the task just created, a completion swaps the
 * previous switch's prior and next tasks. All arithmetic wraps modulo
 * 2^64, so any field value round-trips. */
#include "log/codec.h"

#include <string.h>

size_t ot_codec_bound(size_t raw_bytes) {
  /* A record of 32 + 8n raw bytes takes at most 3 + 10 + 1 + 5 + 3 + 10 +
   * 10 + 10n = 42 + 10n encoded bytes. */
  return 2 * raw_bytes + 16;
}

static inline uint64_t zz(uint64_t d) {
  return (d << 1) ^ (uint64_t) - (int64_t)(d >> 63);
}

static inline uint8_t *put(uint8_t *o, uint64_t v) {
  while (v >= 0x80) {
    *o++ = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  *o++ = (uint8_t)v;
  return o;
}

static inline unsigned slot(unsigned type) {
  return type < OT_CODE_ESCAPE ? type : OT_CODE_ESCAPE;
}

/* Picks the base among bases[1..3] giving the smallest zigzag delta for v
 * (so the shortest varint; mode 1-3, lowest mode on ties) and stores that
 * delta in *z. Comparing values, not varint lengths, keeps this a few
 * instructions: it runs for most fields of most records. */
static inline unsigned pick(uint64_t v, const uint64_t bases[4], uint64_t *z) {
  uint64_t d1 = zz(v - bases[1]), d2 = zz(v - bases[2]), d3 = zz(v - bases[3]);
  unsigned best = 1;
  uint64_t d = d1;
  if (d2 < d) {
    best = 2;
    d = d2;
  }
  if (d3 < d) {
    best = 3;
    d = d3;
  }
  *z = d;
  return best;
}

/* signal-safe: no allocation, no lock, no syscall; the delta state lives on the
 * stack (about 2 KiB). */
size_t ot_codec_encode(const uint8_t *p, const uint8_t *end, uint8_t *out, uint32_t *nrec) {
  ot_codec_prev prev[64];
  uint64_t prev_val[OT_CODEC_MAX_VALUES];
  memset(prev, 0, sizeof prev);
  memset(prev_val, 0, sizeof prev_val);
  uint64_t ts = 0, rb = 0, rc = 0;
  uint32_t n = 0;
  uint8_t *o = out;
  while ((size_t)(end - p) >= sizeof(ot_rec)) {
    const ot_rec *r = (const ot_rec *)p;
    size_t size = ot_rec_size(r);
    if (r->nval > OT_CODEC_MAX_VALUES || (size_t)(end - p) < size)
      break;
    ot_codec_prev *pv = &prev[slot(r->type)];
    unsigned flags = (r->kind != pv->kind ? OT_F_KIND : 0) | (r->a != pv->a ? OT_F_A : 0) |
                     (r->nval != pv->nval ? OT_F_NVAL : 0);
    uint64_t bz = 0, cz = 0;
    if (r->b != pv->b) {
      const uint64_t bb[4] = {0, pv->b, pv->c, rc};
      flags |= pick(r->b, bb, &bz) << OT_B_SHIFT;
    }
    unsigned cmode = 0;
    if (r->c != pv->c) {
      const uint64_t cb[4] = {pv->c, pv->b, rc, rb};
      cmode = pick(r->c, cb, &cz);
      uint64_t own = zz(r->c - pv->c);
      if (own <= cz) {
        cmode = 0;
        cz = own;
      }
    }
    flags |= cmode << OT_C_SHIFT;
    unsigned code =
        slot(r->type) | (flags ? OT_CODE_FLAGS : 0) | (r->c == pv->c ? OT_CODE_C_SAME : 0);
    *o++ = (uint8_t)code;
    if (slot(r->type) == OT_CODE_ESCAPE)
      *o++ = r->type;
    if (flags)
      *o++ = (uint8_t)flags;
    o = put(o, zz(r->ts - ts));
    if (flags & OT_F_KIND)
      *o++ = r->kind;
    if (flags & OT_F_A)
      o = put(o, r->a);
    if (flags & OT_F_NVAL)
      o = put(o, r->nval);
    if (r->b != pv->b)
      o = put(o, bz);
    if (r->c != pv->c)
      o = put(o, cz);
    const uint64_t *v = ot_rec_values(r);
    for (unsigned i = 0; i < r->nval; i++) {
      o = put(o, zz(v[i] - prev_val[i]));
      prev_val[i] = v[i];
    }
    ts = r->ts;
    rb = r->b;
    rc = r->c;
    *pv = (ot_codec_prev){.b = r->b, .c = r->c, .a = r->a, .nval = r->nval, .kind = r->kind};
    n++;
    p += size;
  }
  *nrec = n;
  return (size_t)(o - out);
}
