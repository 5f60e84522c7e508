/* Decoding of the compact record encoding (format in codec.c, API in
 * codec.h). Finalize and recovery decode every record twice (scan and
 * replay passes), so this is their innermost loop. Two flavours of one
 * record:
 *  - fast, while FAST_MIN bytes or more are left in the frame: no end
 *    checks; a varint of one or two bytes (most of them) by predicted
 *    branches, which let the next field's address be known before the
 *    bytes are loaded, a longer one with one 8-byte load and no loop
 *    (code pointers take 6-7 bytes);
 *  - careful, near the frame's end: every byte checked against the end.
 * Both accept exactly the same input and reject exactly the same: a
 * truncated or over-long (more than 64 bits) varint, a flags byte that is
 * 0 or has bit 7 set, a > 2^32 - 1, nval > OT_CODEC_MAX_VALUES, and bytes
 * left over after the frame's records. State lives in locals while a
 * batch decodes (no store to the decoder that the next record reloads). */
#include "log/codec.h"

#include <string.h>

/* The most bytes one record's fixed part can take (code, type, flags, ts,
 * kind, a, nval, b, c: 3 + 10 + 1 + 3 * 10 + 10 = 54) plus the 8-byte load
 * of its last varint's tail. */
#define FAST_MIN 64

/* The state one batch keeps in registers. */
typedef struct dec_state {
  const uint8_t *p, *end;
  uint64_t ts, rb, rc;
} dec_state;

static inline uint64_t unzz(uint64_t z) {
  return (z >> 1) ^ (uint64_t) - (int64_t)(z & 1);
}

static inline unsigned slot(unsigned type) {
  return type < OT_CODE_ESCAPE ? type : OT_CODE_ESCAPE;
}

static inline uint64_t load64(const uint8_t *p) {
  uint64_t x;
  memcpy(&x, p, sizeof x);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap64(x);
#endif
  return x;
}

/* The 7-bit groups of 8 little-endian varint bytes (continuation bits
 * already cleared), packed into 56 bits. */
static inline uint64_t pack7(uint64_t x) {
  x = (x & 0x007f007f007f007full) | ((x & 0x7f007f007f007f00ull) >> 1);
  x = (x & 0x00003fff00003fffull) | ((x & 0x3fff00003fff0000ull) >> 2);
  return (x & 0x000000000fffffffull) | ((x & 0x0fffffff00000000ull) >> 4);
}

/* A varint and its length in bytes (0: over-long, more than 64 bits). */
typedef struct varint {
  uint64_t v;
  unsigned n;
} varint;

/* A varint of 9 or 10 bytes (its first 8 in x): as the careful reader, the
 * 10th byte may only carry bit 63. */
static varint peek_long(const uint8_t *p, uint64_t x) {
  uint64_t v = pack7(x & 0x7f7f7f7f7f7f7f7full);
  if (p[8] < 0x80)
    return (varint){v | (uint64_t)p[8] << 56, 9};
  if (p[9] > 1)
    return (varint){0, 0};
  return (varint){v | (uint64_t)(p[8] & 0x7f) << 56 | (uint64_t)p[9] << 63, 10};
}

/* The varint at p. Reads up to 10 bytes past p whatever the varint's
 * length: callers have FAST_MIN bytes. */
static inline __attribute__((always_inline)) varint peek(const uint8_t *p) {
  if (p[0] < 0x80)
    return (varint){p[0], 1};
  if (p[1] < 0x80)
    return (varint){(uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7, 2};
  uint64_t x = load64(p);
  uint64_t stop = ~x & 0x8080808080808080ull; /* bytes that end a varint */
  if (__builtin_expect(stop == 0, 0))
    return peek_long(p, x);
  return (varint){pack7(x & (stop ^ (stop - 1)) & 0x7f7f7f7f7f7f7f7full),
                  (unsigned)(__builtin_ctzll(stop) + 1) >> 3};
}

/* Careful reads: checked against the frame's end; *bad set on a truncated
 * or over-long varint. */
static uint64_t get_careful(const uint8_t **pp, const uint8_t *end, int *bad) {
  const uint8_t *p = *pp;
  uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (p >= end)
      break;
    uint8_t b = *p++;
    if (shift == 63 && b > 1)
      break; /* more than 64 bits */
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *pp = p;
      return v;
    }
  }
  *pp = p;
  *bad = 1;
  return 0;
}

static uint8_t byte_careful(const uint8_t **pp, const uint8_t *end, int *bad) {
  if (*pp >= end) {
    *bad = 1;
    return 0;
  }
  return *(*pp)++;
}

/* The counter values of r (its nval set) from the i-th on. Each by peek
 * while 10 bytes are left (a varint ends within 10 or is over-long), then
 * carefully. The position after them, or NULL on malformed input. */
static const uint8_t *values(ot_codec_dec *d, const uint8_t *p, const uint8_t *end, ot_rec *r) {
  int bad = 0;
  uint64_t *v = ot_rec_values_mut(r);
  unsigned i = 0, n = r->nval;
  for (; i < n && end - p >= 10; i++) {
    varint z = peek(p);
    if (!z.n)
      return NULL;
    p += z.n;
    v[i] = d->prev_val[i] += unzz(z.v);
  }
  for (; i < n && !bad; i++)
    v[i] = d->prev_val[i] += unzz(get_careful(&p, end, &bad));
  return bad ? NULL : p;
}

/* kind, a and nval when the flags say they follow, read carefully. The
 * position after them, or NULL on malformed input. */
static const uint8_t *changed_fields(const uint8_t *p, const uint8_t *end, ot_codec_prev *pv,
                                     unsigned flags) {
  int bad = 0;
  if (flags & OT_F_KIND)
    pv->kind = byte_careful(&p, end, &bad);
  if (flags & OT_F_A) {
    uint64_t a = get_careful(&p, end, &bad);
    if (a > UINT32_MAX)
      bad = 1;
    pv->a = (uint32_t)a;
  }
  if (flags & OT_F_NVAL) {
    uint64_t nval = get_careful(&p, end, &bad);
    if (nval > OT_CODEC_MAX_VALUES)
      bad = 1;
    else
      pv->nval = (uint16_t)nval;
  }
  return bad ? NULL : p;
}

/* One record with at least FAST_MIN bytes left: the state in *s advanced
 * (the caller's locals: this is inlined). Returns the record's size, 0
 * on malformed input. */
static inline __attribute__((always_inline)) size_t dec_fast(ot_codec_dec *d, dec_state *s,
                                                             ot_rec *r) {
  const uint8_t *p = s->p;
  unsigned code = p[0], type = code & 63u, esc = type == OT_CODE_ESCAPE;
  type = esc ? p[1] : type;
  p += 1 + esc;
  unsigned hasf = (code >> 6) & 1, flags = hasf ? p[0] : 0;
  p += hasf;
  if ((flags & ~(unsigned)OT_F_ALL) || (hasf && !flags))
    return 0;
  ot_codec_prev *pv = &d->prev[slot(type)];
  varint t = peek(p);
  if (!t.n)
    return 0;
  p += t.n;
  uint64_t ts = s->ts + unzz(t.v);
  if (__builtin_expect(flags & (OT_F_A | OT_F_NVAL), 0)) {
    p = changed_fields(p, s->end, pv, flags);
    if (!p)
      return 0;
  } else if (flags & OT_F_KIND) {
    pv->kind = *p++;
  }
  unsigned bmode = (flags >> OT_B_SHIFT) & 3, cmode = (flags >> OT_C_SHIFT) & 3;
  uint64_t pb = pv->b, pc = pv->c, b = pb, c = pc;
  if (bmode) {
    varint z = peek(p);
    if (!z.n)
      return 0;
    p += z.n;
    b = (bmode == 1 ? pb : bmode == 2 ? pc : s->rc) + unzz(z.v);
  }
  if (cmode || !(code & OT_CODE_C_SAME)) {
    varint z = peek(p);
    if (!z.n)
      return 0;
    p += z.n;
    c = (cmode == 0 ? pc : cmode == 1 ? pb : cmode == 2 ? s->rc : s->rb) + unzz(z.v);
  }
  pv->b = b;
  pv->c = c;
  s->ts = ts;
  s->rb = b;
  s->rc = c;
  unsigned nval = pv->nval;
  r->ts = ts;
  r->type = (uint8_t)type;
  r->kind = pv->kind;
  r->nval = (uint16_t)nval;
  r->a = pv->a;
  r->b = b;
  r->c = c;
  if (__builtin_expect(nval != 0, 0) && !(p = values(d, p, s->end, r)))
    return 0;
  s->p = p;
  return sizeof(ot_rec) + 8u * nval;
}

/* One record near the frame's end: every byte checked. Its size, or 0. */
static size_t dec_careful(ot_codec_dec *d, dec_state *s, ot_rec *r) {
  int bad = 0;
  const uint8_t *p = s->p, *end = s->end;
  unsigned code = byte_careful(&p, end, &bad);
  unsigned type = code & 63u;
  if (type == OT_CODE_ESCAPE)
    type = byte_careful(&p, end, &bad);
  unsigned flags = code & OT_CODE_FLAGS ? byte_careful(&p, end, &bad) : 0;
  if (bad || (flags & ~(unsigned)OT_F_ALL) || ((code & OT_CODE_FLAGS) && !flags))
    return 0;
  ot_codec_prev *pv = &d->prev[slot(type)];
  uint64_t ts = s->ts + unzz(get_careful(&p, end, &bad));
  if (bad || !(p = changed_fields(p, end, pv, flags)))
    return 0;
  unsigned bmode = (flags >> OT_B_SHIFT) & 3, cmode = (flags >> OT_C_SHIFT) & 3;
  uint64_t pb = pv->b, pc = pv->c;
  if (bmode)
    pv->b = (bmode == 1 ? pb : bmode == 2 ? pc : s->rc) + unzz(get_careful(&p, end, &bad));
  if (cmode || !(code & OT_CODE_C_SAME))
    pv->c = (cmode == 0   ? pc
             : cmode == 1 ? pb
             : cmode == 2 ? s->rc
                          : s->rb) +
            unzz(get_careful(&p, end, &bad));
  if (bad)
    return 0;
  unsigned nval = pv->nval;
  r->ts = s->ts = ts;
  r->type = (uint8_t)type;
  r->kind = pv->kind;
  r->nval = (uint16_t)nval;
  r->a = pv->a;
  r->b = s->rb = pv->b;
  r->c = s->rc = pv->c;
  if (nval && !(p = values(d, p, end, r)))
    return 0;
  s->p = p;
  return sizeof(ot_rec) + 8u * nval;
}

void ot_codec_dec_init(ot_codec_dec *d, const uint8_t *bytes, size_t len, uint32_t nrec) {
  memset(d, 0, sizeof *d);
  d->p = bytes;
  d->end = bytes + len;
  d->left = nrec;
}

size_t ot_codec_dec_many(ot_codec_dec *d, uint8_t *out, size_t cap) {
  if (d->error)
    return 0;
  if (!d->left) {
    if (d->p != d->end)
      d->error = 1; /* bytes the frame header does not account for */
    return 0;
  }
  dec_state s = {d->p, d->end, d->ts, d->rb, d->rc};
  uint32_t left = d->left;
  size_t used = 0;
  while (left && cap - used >= OT_CODEC_REC_MAX) {
    ot_rec *r = (ot_rec *)(out + used);
    size_t size;
    if (s.end - s.p >= FAST_MIN) {
      size = dec_fast(d, &s, r);
    } else { /* a copy: s stays in registers on the fast path */
      dec_state c = s;
      size = dec_careful(d, &c, r);
      s = c;
    }
    if (!size) {
      d->error = 1;
      break;
    }
    used += size;
    left--;
  }
  d->p = s.p;
  d->ts = s.ts;
  d->rb = s.rb;
  d->rc = s.rc;
  d->left = left;
  return used;
}

const ot_rec *ot_codec_dec_next(ot_codec_dec *d) {
  return ot_codec_dec_many(d, (uint8_t *)d->out.words, sizeof d->out.words) ? &d->out.rec : NULL;
}
