/* The reference decoder of the record encoding (codec_ref.h): the format
 * as codec.c describes it, byte by byte. */
#include "codec_ref.h"

#include <string.h>

typedef struct ref {
  const uint8_t *p, *end;
  int error;
} ref;

static uint8_t byte(ref *s) {
  if (s->p >= s->end) {
    s->error = 1;
    return 0;
  }
  return *s->p++;
}

static uint64_t varint(ref *s) {
  uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    uint8_t b = byte(s);
    if (s->error || (shift == 63 && b > 1))
      break;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return v;
  }
  s->error = 1;
  return 0;
}

static uint64_t delta(ref *s, uint64_t base) {
  uint64_t z = varint(s);
  return base + ((z >> 1) ^ (uint64_t) - (int64_t)(z & 1));
}

size_t ut_codec_ref(const uint8_t *bytes, size_t len, uint32_t nrec, uint8_t *out, size_t cap,
                    int *error) {
  ref s = {bytes, bytes + len, 0};
  ot_codec_prev prev[64];
  uint64_t vals[OT_CODEC_MAX_VALUES], ts = 0, rb = 0, rc = 0;
  memset(prev, 0, sizeof prev);
  memset(vals, 0, sizeof vals);
  size_t used = 0;
  for (uint32_t n = 0; n < nrec && !s.error; n++) {
    unsigned code = byte(&s), type = code & 63;
    if (type == OT_CODE_ESCAPE)
      type = byte(&s);
    unsigned flags = code & OT_CODE_FLAGS ? byte(&s) : 0;
    if ((flags & 0x80) || ((code & OT_CODE_FLAGS) && !flags))
      s.error = 1;
    ot_codec_prev *pv = &prev[type < OT_CODE_ESCAPE ? type : OT_CODE_ESCAPE];
    ts = delta(&s, ts);
    if (flags & OT_F_KIND)
      pv->kind = byte(&s);
    if (flags & OT_F_A) {
      uint64_t a = varint(&s);
      s.error |= a > UINT32_MAX;
      pv->a = (uint32_t)a;
    }
    if (flags & OT_F_NVAL) {
      uint64_t nval = varint(&s);
      s.error |= nval > OT_CODEC_MAX_VALUES;
      pv->nval = (uint16_t)(nval > OT_CODEC_MAX_VALUES ? 0 : nval);
    }
    unsigned bmode = (flags >> OT_B_SHIFT) & 3, cmode = (flags >> OT_C_SHIFT) & 3;
    uint64_t b = pv->b, c = pv->c;
    const uint64_t bbase[4] = {0, pv->b, pv->c, rc}, cbase[4] = {pv->c, pv->b, rc, rb};
    if (bmode)
      b = delta(&s, bbase[bmode]);
    if (cmode || !(code & OT_CODE_C_SAME))
      c = delta(&s, cbase[cmode]);
    ot_rec r = {.ts = ts,
                .type = (uint8_t)type,
                .kind = pv->kind,
                .nval = pv->nval,
                .a = pv->a,
                .b = b,
                .c = c};
    size_t size = sizeof r + 8u * r.nval;
    if (s.error || used + size > cap)
      break;
    memcpy(out + used, &r, sizeof r);
    for (unsigned i = 0; i < r.nval && !s.error; i++) {
      vals[i] = delta(&s, vals[i]);
      memcpy(out + used + sizeof r + 8 * i, &vals[i], 8);
    }
    if (s.error)
      break;
    pv->b = rb = b;
    pv->c = rc = c;
    used += size;
  }
  if (!s.error && s.p != s.end)
    s.error = 1;
  *error = s.error;
  return used;
}
