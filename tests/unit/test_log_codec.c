/* unit_log_codec: the record log's compact encoding (recorder/log/codec.c).
 * Every field must round-trip exactly: the synthetic realistic mix with
 * and without counter values, every record type, random 64-bit fields
 * (fixed seed), records split over independent frames. The encoder stops
 * at a truncated record or one with too many values; the decoder must end
 * with its error flag, never read out of bounds or loop, on truncated,
 * flipped and random bytes (the ASan build runs this too). Prints the
 * bytes per event of the mix, which must stay <= 12. The decoder
 * (decode.c: a fast path while 64 bytes are left in the frame, a careful
 * one near its end, one record or a batch per call) must give exactly the
 * records and the point of error of the plain byte-by-byte reference
 * decoder (codec_ref.c) on all of these inputs. A fixed test vector, bytes
 * written by the encoder of the first log version, keeps the format: it
 * must decode to its records and they must encode to it. */
#include "check.h"
#include "codec_ref.h"
#include "log/codec.h"
#include "log_mix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RAW_CAP (4u << 20)
#define OUT_CAP (RAW_CAP + (1u << 20)) /* decoded garbage can exceed its raw source */

static uint64_t raw[RAW_CAP / 8];
static uint8_t enc[2 * RAW_CAP + 16];
static uint64_t out_ref[OUT_CAP / 8], out_dec[OUT_CAP / 8];

/* Decodes with ot_codec_dec_many (batches of `cap` bytes) or, for cap 0,
 * ot_codec_dec_next; returns the bytes of records decoded. */
static size_t decode_into(const uint8_t *e, size_t len, uint32_t nrec, size_t cap, uint8_t *out,
                          int *error) {
  static ot_codec_dec d;
  ot_codec_dec_init(&d, e, len, nrec);
  size_t used = 0;
  if (cap) {
    for (size_t got; used + cap <= OUT_CAP && (got = ot_codec_dec_many(&d, out + used, cap));)
      used += got;
  } else {
    for (const ot_rec *r; used + OT_CODEC_REC_MAX <= OUT_CAP && (r = ot_codec_dec_next(&d));) {
      memcpy(out + used, r, ot_rec_size(r));
      used += ot_rec_size(r);
    }
  }
  *error = d.error;
  return used;
}

/* The decoder, one record per call and in batches of one record and of
 * 64 KiB, against the reference: 1 when all agree. */
static int same_as_reference(const char *what, const uint8_t *e, size_t len, uint32_t nrec) {
  int ref_err, err;
  size_t ref_len = ut_codec_ref(e, len, nrec, (uint8_t *)out_ref, OUT_CAP, &ref_err);
  const size_t caps[] = {0, OT_CODEC_REC_MAX, 64u << 10};
  int same = 1;
  for (unsigned i = 0; i < sizeof caps / sizeof caps[0]; i++) {
    size_t got = decode_into(e, len, nrec, caps[i], (uint8_t *)out_dec, &err);
    if (got != ref_len || err != ref_err || memcmp(out_dec, out_ref, got) != 0) {
      char m[160];
      snprintf(m, sizeof m, "%s: as the reference (batch %zu): %zu bytes error %d, want %zu %d",
               what, caps[i], got, err, ref_len, ref_err);
      CHECK_TRUE(m, 0);
      same = 0;
    }
  }
  return same;
}

/* Decodes len bytes holding nrec records and compares them with the raw
 * records in [p, p + raw_len); returns the records that matched. */
static uint32_t compare(const char *what, const uint8_t *p, size_t raw_len, const uint8_t *e,
                        size_t len, uint32_t nrec) {
  static ot_codec_dec d;
  ot_codec_dec_init(&d, e, len, nrec);
  const uint8_t *end = p + raw_len;
  uint32_t ok = 0;
  const ot_rec *r;
  while ((r = ot_codec_dec_next(&d))) {
    const ot_rec *want = (const ot_rec *)p;
    if (p >= end || ot_rec_size(r) != ot_rec_size(want) || memcmp(r, want, ot_rec_size(r))) {
      char m[128];
      snprintf(m, sizeof m, "%s: record %u equal", what, ok);
      CHECK_TRUE(m, 0);
      return ok;
    }
    p += ot_rec_size(want);
    ok++;
  }
  CHECK_U64(what, d.error, 0);
  CHECK_U64(what, ok, nrec);
  CHECK_TRUE(what, p == end);
  return ok;
}

static void mix_round_trip(unsigned nval) {
  uint32_t nrec, n2;
  size_t len = ot_mix_generate((uint8_t *)raw, sizeof raw, nval, 42, &nrec);
  CHECK_TRUE("mix has records", nrec > 10000);
  size_t elen = ot_codec_encode((uint8_t *)raw, (uint8_t *)raw + len, enc, &n2);
  CHECK_U64("mix: all records encoded", n2, nrec);
  CHECK_TRUE("mix: within bound", elen <= ot_codec_bound(len));
  char what[64];
  snprintf(what, sizeof what, "mix nval=%u round trip", nval);
  compare(what, (uint8_t *)raw, len, enc, elen, nrec);
  same_as_reference(what, enc, elen, nrec);
  double per = (double)elen / nrec;
  printf("log codec: synthetic mix, %u counter values: %u records, %.2f bytes/record "
         "(raw %.0f)\n",
         nval, nrec, per, (double)len / nrec);
  if (nval == 0)
    CHECK_TRUE("mix: <= 12 bytes per event", per <= 12.0);
}

/* Frames encode independently: cut the mix into frames of 1..97 records. */
static void frames_independent(void) {
  uint32_t nrec;
  size_t len = ot_mix_generate((uint8_t *)raw, 1u << 16, 2, 7, &nrec);
  const uint8_t *p = (uint8_t *)raw, *end = p + len;
  uint32_t frames = 0, total = 0;
  while (p < end) {
    size_t rec = sizeof(ot_rec) + 16, take = rec * (1 + frames % 97);
    if (take > (size_t)(end - p))
      take = (size_t)(end - p);
    uint32_t n;
    size_t elen = ot_codec_encode(p, p + take, enc, &n);
    total += compare("frame round trip", p, take, enc, elen, n);
    p += take;
    frames++;
  }
  CHECK_U64("records over all frames", total, nrec);
}

/* The fixed test vector: records that take every path of the format
 * (escaped types, kind/a/nval changes, every b and c mode, c unchanged,
 * time going back, 1- to 10-byte varints, counter values), and the bytes
 * the encoder of the first log version wrote for them. */
#define M64 0xffffffffffffffffull
#define CPA 0x55d4c3a21a40ull
/* The second word of a record as buffer/record.h lays it out (little-endian). */
#define HDR(type, kind, nval, a)                                                                   \
  ((uint64_t)(type) | (uint64_t)(kind) << 8 | (uint64_t)(nval) << 16 | (uint64_t)(a) << 32)
static const uint64_t vec_raw[] = {
    /* ts, HDR(type, kind, nval, a), b, c, then nval values */
    1000,
    HDR(OT_PARALLEL_BEGIN, 1, 0, 4),
    CPA,
    1,
    1010,
    HDR(OT_IMPLICIT_BEGIN, 2, 0, 4),
    1,
    0,
    1020,
    HDR(OT_TASK_CREATE, 0, 0, 4),
    CPA + 0x40,
    0x0001000100000001ull,
    1030,
    HDR(OT_TASK_SCHEDULE, 1, 0, 0),
    0,
    0x0001000100000001ull,
    1031,
    HDR(OT_TASK_SCHEDULE, 2, 0, 0),
    0x0001000100000001ull,
    0,
    900,
    HDR(OT_TASK_CREATE, 0, 0, 4),
    CPA + 0x40,
    0x0001000100000002ull,
    (1ull << 40) + 7,
    HDR(70, 9, 0, 0xffffffffu),
    M64,
    0x8000000000000000ull,
    (1ull << 40) + 8,
    HDR(200, 9, 0, 5),
    M64 - 1,
    M64,
    (1ull << 40) + 9,
    HDR(OT_PARALLEL_END, 1, 0, 0),
    CPA,
    1,
    (1ull << 40) + 9,
    HDR(OT_PARALLEL_END, 1, 0, 0),
    CPA,
    1,
    M64,
    HDR(OT_FLUSH, 0, 3, 0),
    5,
    0,
    7,
    0,
    M64,
    M64,
    HDR(OT_FLUSH, 0, 3, 0),
    5,
    0,
    8,
    1ull << 62,
    3,
    5,
    HDR(OT_FLUSH, 0, 0, 0),
    5,
    0,
    6,
    HDR(OT_FLUSH, 0, 0, 0),
    5 + (1ull << 60),
    0,
};
static const uint8_t vec_bytes[] = {
    0x43, 0x0b, 0xd0, 0x0f, 0x01, 0x04, 0x80, 0xe9, 0x90, 0xba, 0x98, 0xf5, 0x2a, 0x02, 0xc5, 0x1b,
    0x14, 0x02, 0x04, 0x00, 0x47, 0x6a, 0x14, 0x04, 0x80, 0xea, 0x90, 0xba, 0x98, 0xf5, 0x2a, 0x80,
    0x80, 0x80, 0x80, 0xa0, 0x80, 0x80, 0x01, 0x48, 0x41, 0x14, 0x01, 0x00, 0x48, 0x31, 0x02, 0x02,
    0x00, 0x00, 0x07, 0x85, 0x02, 0x02, 0x7f, 0x46, 0x4b, 0x86, 0xf2, 0xff, 0xff, 0xff, 0x3f, 0x09,
    0xff, 0xff, 0xff, 0xff, 0x0f, 0x01, 0xfc, 0xff, 0xff, 0xff, 0xdf, 0xff, 0xff, 0xfe, 0xff, 0x01,
    0x7f, 0xc8, 0x2a, 0x02, 0x05, 0x01, 0x00, 0x44, 0x09, 0x02, 0x01, 0x80, 0xe9, 0x90, 0xba, 0x98,
    0xf5, 0x2a, 0x02, 0x84, 0x00, 0xdb, 0x1c, 0x93, 0x80, 0x80, 0x80, 0x80, 0x40, 0x03, 0x08, 0x0e,
    0x00, 0x01, 0x9b, 0x00, 0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x08,
    0xdb, 0x04, 0x0c, 0x00, 0xdb, 0x08, 0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20,
};

static void fixed_vector(void) {
  uint32_t nrec;
  size_t elen = ot_codec_encode((const uint8_t *)vec_raw, (const uint8_t *)vec_raw + sizeof vec_raw,
                                enc, &nrec);
  CHECK_U64("vector: records", nrec, 14);
  CHECK_U64("vector: encodes to its bytes (length)", elen, sizeof vec_bytes);
  CHECK_TRUE("vector: encodes to its bytes",
             elen == sizeof vec_bytes && !memcmp(enc, vec_bytes, sizeof vec_bytes));
  compare("vector: decodes to its records", (const uint8_t *)vec_raw, sizeof vec_raw, vec_bytes,
          sizeof vec_bytes, 14);
  /* With 64 bytes of slack after it the fast path decodes most records. */
  static uint8_t padded[sizeof vec_bytes + 64];
  memcpy(padded, vec_bytes, sizeof vec_bytes);
  same_as_reference("vector", vec_bytes, sizeof vec_bytes, 14);
  same_as_reference("vector + slack", padded, sizeof padded, 14);
}

static void every_type(void) {
  ot_rec *r = (ot_rec *)raw;
  unsigned n = 0;
  for (unsigned t = 1; t < OT_REC_TYPE_COUNT; t++)
    for (unsigned k = 0; k < 3; k++)
      r[n++] = (ot_rec){.ts = 1000 * t + k,
                        .type = (uint8_t)t,
                        .kind = (uint8_t)(k * 7),
                        .a = t * k,
                        .b = 0x55d4c3a21000ull + t,
                        .c = (uint64_t)k << 48};
  uint32_t nrec;
  size_t elen = ot_codec_encode((uint8_t *)r, (uint8_t *)(r + n), enc, &nrec);
  CHECK_U64("every type: encoded", nrec, n);
  compare("every type round trip", (uint8_t *)r, n * sizeof *r, enc, elen, nrec);
}

/* Random records: every field random 64-bit (type 0..255 included, some
 * fields repeated so the "same as before" paths are taken), 0..64 values. */
static size_t fuzz_records(uint64_t *rng, size_t cap, uint32_t *count) {
  uint8_t *p = (uint8_t *)raw, *end = p + cap;
  uint32_t n = 0;
  ot_rec prev = {0};
  for (;;) {
    uint64_t x = ot_mix_rand(rng);
    unsigned nval = x % 4 == 0 ? (unsigned)(ot_mix_rand(rng) % (OT_CODEC_MAX_VALUES + 1)) : 0;
    size_t size = sizeof(ot_rec) + 8u * nval;
    if ((size_t)(end - p) < size)
      break;
    ot_rec *r = (ot_rec *)p;
    *r = (ot_rec){.ts = ot_mix_rand(rng),
                  .type = (uint8_t)ot_mix_rand(rng),
                  .kind = (uint8_t)ot_mix_rand(rng),
                  .nval = (uint16_t)nval,
                  .a = (uint32_t)ot_mix_rand(rng),
                  .b = ot_mix_rand(rng),
                  .c = ot_mix_rand(rng)};
    if (x & 0x100)
      r->type = prev.type;
    if (x & 0x200)
      r->kind = prev.kind, r->a = prev.a;
    if (x & 0x400)
      r->b = prev.b;
    if (x & 0x800)
      r->c = prev.c;
    if (x & 0x1000)
      r->ts = prev.ts + (x >> 40);
    if (x & 0x4000)
      r->b = prev.c + (x >> 60);
    if (x & 0x8000)
      r->c = prev.b - (x >> 61);
    for (unsigned i = 0; i < nval; i++)
      ot_rec_values_mut(r)[i] = (x & 0x2000) ? i : ot_mix_rand(rng);
    prev = *r;
    p += size;
    n++;
  }
  *count = n;
  return (size_t)(p - (uint8_t *)raw);
}

static void fuzz_round_trip(void) {
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  for (int round = 0; round < 200; round++) {
    uint32_t n, got;
    size_t len = fuzz_records(&rng, 1 + ot_mix_rand(&rng) % 20000, &n);
    size_t elen = ot_codec_encode((uint8_t *)raw, (uint8_t *)raw + len, enc, &got);
    CHECK_U64("fuzz: encoded", got, n);
    CHECK_TRUE("fuzz: within bound", elen <= ot_codec_bound(len));
    if (compare("fuzz round trip", (uint8_t *)raw, len, enc, elen, n) != n ||
        !same_as_reference("fuzz", enc, elen, n))
      break;
  }
}

static void encoder_stops(void) {
  ot_rec *r = (ot_rec *)raw;
  memset(raw, 0, 4096);
  r[0] = (ot_rec){.ts = 5, .type = OT_FLUSH, .b = 9};
  r[1] = (ot_rec){.ts = 6, .type = OT_FLUSH, .nval = OT_CODEC_MAX_VALUES + 1};
  uint32_t n;
  size_t elen = ot_codec_encode((uint8_t *)r, (uint8_t *)(r + 2), enc, &n);
  CHECK_U64("stops before a record with too many values", n, 1);
  compare("record before it", (uint8_t *)r, sizeof *r, enc, elen, n);
  r[1].nval = 2; /* needs 48 bytes, 40 given */
  ot_codec_encode((uint8_t *)r, (uint8_t *)r + 2 * sizeof *r + 8, enc, &n);
  CHECK_U64("stops before a truncated record", n, 1);
  ot_codec_encode((uint8_t *)r, (uint8_t *)r + 20, enc, &n);
  CHECK_U64("less than a header: nothing", n, 0);
}

/* The malformed records above again, each after a good record and with
 * 64 bytes after it, so that the fast path meets them: still errors, and
 * the good record before them still decodes. */
static void fast_path_errors(void) {
  static const struct {
    const char *what;
    uint8_t bytes[12];
    size_t len;
  } bad[] = {
      {"varint longer than 64 bits",
       {0x01, 0x81, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
       11},
      {"10th varint byte above 1",
       {0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02},
       11},
      {"65 values", {0x41, 0x04, 0x00, 0x41}, 4},
      {"unknown flag bits", {0x41, 0x80, 0x00}, 3},
      {"flags byte of 0", {0x41, 0x00, 0x00}, 3},
      {"a above 2^32 - 1", {0x41, 0x02, 0x00, 0x80, 0x80, 0x80, 0x80, 0x10}, 8},
      {"over-long b", {0x41, 0x08, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 12},
  };
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint8_t b[96];
    memset(b, 0xff, sizeof b); /* continuation bytes: a varint read past the record never ends */
    b[0] = 0x81;               /* a good record: type 1, c unchanged, ts delta 0 */
    b[1] = 0x00;
    memcpy(b + 2, bad[i].bytes, bad[i].len);
    static ot_codec_dec d;
    ot_codec_dec_init(&d, b, sizeof b, 3);
    uint32_t n = 0;
    while (ot_codec_dec_next(&d))
      n++;
    char m[96];
    snprintf(m, sizeof m, "fast path: %s: error", bad[i].what);
    CHECK_U64(m, d.error, 1);
    snprintf(m, sizeof m, "fast path: %s: the record before it", bad[i].what);
    CHECK_U64(m, n, 1);
    same_as_reference(bad[i].what, b, sizeof b, 3);
  }
}

/* Decodes garbage; must stop (the count is bounded by nrec) with either
 * every record decoded or the error flag. Returns records decoded. */
static uint32_t decode_all(const uint8_t *e, size_t len, uint32_t nrec, int *error) {
  static ot_codec_dec d;
  ot_codec_dec_init(&d, e, len, nrec);
  uint32_t n = 0;
  while (ot_codec_dec_next(&d)) {
    n++;
    if (n > nrec)
      break;
  }
  *error = d.error;
  return n;
}

static void garbage(void) {
  uint32_t nrec;
  size_t len = ot_mix_generate((uint8_t *)raw, 1u << 14, 3, 11, &nrec);
  size_t elen = ot_codec_encode((uint8_t *)raw, (uint8_t *)raw + len, enc, &nrec);
  int err;
  /* Every truncation: error, fewer records. Copy to an exact-size heap
   * block so ASan sees any read past the end. */
  unsigned bad = 0, differ = 0;
  for (size_t cut = 0; cut < elen; cut += 1 + cut / 64) {
    uint8_t *b = malloc(cut ? cut : 1);
    memcpy(b, enc, cut);
    uint32_t n = decode_all(b, cut, nrec, &err);
    bad += !err || n >= nrec;
    differ += !same_as_reference("truncated", b, cut, nrec);
    free(b);
  }
  CHECK_U64("truncated encodings all end in error", bad, 0);
  /* Trailing bytes and a count larger than the records: errors. */
  decode_all(enc, elen, nrec - 1, &err);
  CHECK_U64("undeclared trailing bytes: error", err, 1);
  decode_all(enc, elen, nrec + 1, &err);
  CHECK_U64("more records declared than encoded: error", err, 1);
  /* Random bytes and flipped bytes: any outcome but a crash or a loop. */
  uint64_t rng = 1234567;
  unsigned bounded = 0, runs = 0;
  for (int round = 0; round < 3000; round++) {
    size_t n = 1 + ot_mix_rand(&rng) % 512;
    uint8_t *b = malloc(n);
    for (size_t i = 0; i < n; i++)
      b[i] = (uint8_t)ot_mix_rand(&rng);
    uint32_t want = (uint32_t)(ot_mix_rand(&rng) % 1000);
    bounded += decode_all(b, n, want, &err) <= want;
    differ += !same_as_reference("random bytes", b, n, want);
    free(b);
    runs++;
  }
  for (int round = 0; round < 3000; round++) {
    uint8_t *b = malloc(elen);
    memcpy(b, enc, elen);
    for (int k = 0; k < 1 + round % 4; k++)
      b[ot_mix_rand(&rng) % elen] ^= (uint8_t)(1u << (ot_mix_rand(&rng) % 8));
    bounded += decode_all(b, elen, nrec, &err) <= nrec;
    differ += !same_as_reference("flipped bytes", b, elen, nrec);
    free(b);
    runs++;
  }
  CHECK_U64("garbage decodes stay within the declared count", bounded, runs);
  CHECK_U64("garbage decodes as the reference does", differ, 0);
  /* Over-long varint and a value count above the maximum. */
  const uint8_t longv[] = {0x81, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
  decode_all(longv, sizeof longv, 1, &err);
  CHECK_U64("varint longer than 64 bits: error", err, 1);
  const uint8_t bign[] = {0x41, 0x04, 0x00, 0x41};
  decode_all(bign, sizeof bign, 1, &err);
  CHECK_U64("65 values: error", err, 1);
  const uint8_t badflags[] = {0x41, 0x10, 0x00};
  decode_all(badflags, sizeof badflags, 1, &err);
  CHECK_U64("unknown flag bits: error", err, 1);
  fast_path_errors();
}

int main(void) {
  mix_round_trip(0);
  mix_round_trip(3);
  frames_independent();
  fixed_vector();
  every_type();
  fuzz_round_trip();
  encoder_stops();
  garbage();
  return ut_done("unit_log_codec");
}
