/* ot_log_codec: speed and size of the record log's encoding
 * (recorder/log/codec.c). Encodes records in frames of --frame raw bytes
 * (default 1 MiB, the buffer chunk size the flusher writes), decodes them
 * back, and prints ns per record and MB/s of raw records for both
 * directions and the encoded bytes per record: on the synthetic mix of
 * tests/unit/log_mix.c (without and with 3 counter values), and on raw
 * record files given as arguments (32-byte records as buffer/record.h, e.g.
 * a spill file of an earlier version, or ot_mix's output) for real streams.
 *
 *   ot_log_codec [--reps N] [--frame BYTES] [FILE.raw...]
 *
 * Best of N repetitions (default 5): the least disturbed run on a shared
 * machine. One key=value line per stream. */
#include "log/codec.h"
#include "log_mix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CPU time of this (single) thread: time the process spends descheduled
 * on a busy machine is left out. */
static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whole records of [p, p + len) that fit in `frame` bytes from p. */
static size_t frame_cut(const uint8_t *p, size_t len, size_t frame) {
  size_t at = 0;
  while (at + sizeof(ot_rec) <= len) {
    size_t size = ot_rec_size((const ot_rec *)(p + at));
    if (at + size > len || (at && at + size > frame))
      break;
    at += size;
  }
  return at;
}

/* Encodes [raw, raw + len) in frames, decodes them back, reps times; prints
 * the best times. */
static int measure(const char *name, const uint8_t *raw, size_t len, size_t frame, int reps,
                   uint8_t *enc, size_t *foff, size_t *fenc, uint32_t *fnrec, ot_codec_dec *d) {
  uint64_t best_enc = UINT64_MAX, best_dec = UINT64_MAX, nrec = 0, bytes = 0, sum = 0;
  for (int rep = 0; rep < reps; rep++) {
    size_t nf = 0, at = 0, out = 0;
    nrec = 0;
    uint64_t t0 = now_ns();
    while (at < len) {
      size_t cut = frame_cut(raw + at, len - at, frame);
      if (!cut)
        break;
      fenc[nf] = ot_codec_encode(raw + at, raw + at + cut, enc + out, &fnrec[nf]);
      foff[nf] = out;
      out += fenc[nf];
      nrec += fnrec[nf];
      at += cut;
      nf++;
    }
    uint64_t t1 = now_ns();
    for (size_t f = 0; f < nf; f++) {
      ot_codec_dec_init(d, enc + foff[f], fenc[f], fnrec[f]);
      const ot_rec *r;
      while ((r = ot_codec_dec_next(d)))
        sum += r->ts ^ r->c; /* use the records: the loop cannot be dropped */
      if (d->error) {
        fprintf(stderr, "ot_log_codec: %s: frame %zu does not decode\n", name, f);
        return 1;
      }
    }
    uint64_t t2 = now_ns();
    best_enc = t1 - t0 < best_enc ? t1 - t0 : best_enc;
    best_dec = t2 - t1 < best_dec ? t2 - t1 : best_dec;
    bytes = out;
  }
  printf("stream=%s records=%llu raw_bytes_per_record=%.1f bytes_per_record=%.2f "
         "encode_ns_per_record=%.1f encode_MBps=%.0f decode_ns_per_record=%.1f "
         "decode_MBps=%.0f check=%llu\n",
         name, (unsigned long long)nrec, nrec ? (double)len / (double)nrec : 0.0,
         nrec ? (double)bytes / (double)nrec : 0.0, (double)best_enc / (double)nrec,
         (double)len * 1e3 / (double)best_enc, (double)best_dec / (double)nrec,
         (double)len * 1e3 / (double)best_dec, (unsigned long long)(sum & 0xff));
  return 0;
}

static int run(const char *name, const uint8_t *raw, size_t len, size_t frame, int reps) {
  size_t nframes = 0;
  for (size_t at = 0, cut; at < len && (cut = frame_cut(raw + at, len - at, frame)); at += cut)
    nframes++;
  uint8_t *enc = malloc(ot_codec_bound(len) + 16 * nframes);
  size_t *foff = malloc((nframes + 1) * sizeof *foff);
  size_t *fenc = malloc((nframes + 1) * sizeof *fenc);
  uint32_t *fnrec = malloc((nframes + 1) * sizeof *fnrec);
  ot_codec_dec *d = malloc(sizeof *d);
  int rc = !enc || !foff || !fenc || !fnrec || !d;
  if (rc)
    fprintf(stderr, "ot_log_codec: out of memory\n");
  else
    rc = measure(name, raw, len, frame, reps, enc, foff, fenc, fnrec, d);
  free(enc);
  free(foff);
  free(fenc);
  free(fnrec);
  free(d);
  return rc;
}

static int run_file(const char *path, size_t frame, int reps) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "ot_log_codec: cannot open %s: %s\n", path, strerror(errno));
    return 1;
  }
  size_t cap = 1u << 20, len = 0, got;
  uint8_t *buf = malloc(cap);
  while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      uint8_t *nb = realloc(buf, cap *= 2);
      if (!nb)
        free(buf);
      buf = nb;
    }
  }
  fclose(f);
  if (!buf) {
    fprintf(stderr, "ot_log_codec: out of memory for %s\n", path);
    return 1;
  }
  int rc = run(path, buf, len, frame, reps);
  free(buf);
  return rc;
}

int main(int argc, char **argv) {
  int reps = 5, rc = 0, files = 0;
  size_t frame = 1u << 20;
  for (int i = 1; i < argc; i++) {
    char *end;
    if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = (int)strtol(argv[++i], &end, 10);
      if (*end || reps < 1) {
        fprintf(stderr, "ot_log_codec: --reps wants a positive number, not '%s'\n", argv[i]);
        return 2;
      }
    } else if (!strcmp(argv[i], "--frame") && i + 1 < argc) {
      unsigned long long v = strtoull(argv[++i], &end, 10);
      if (*end || v < 64 || v > (1ull << 30)) {
        fprintf(stderr, "ot_log_codec: --frame wants 64..2^30 bytes, not '%s'\n", argv[i]);
        return 2;
      }
      frame = (size_t)v;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: ot_log_codec [--reps N] [--frame BYTES] [FILE.raw...]\n");
      return 2;
    } else {
      rc |= run_file(argv[i], frame, reps);
      files++;
    }
  }
  if (files)
    return rc;
  size_t cap = 32u << 20;
  uint8_t *raw = malloc(cap);
  if (!raw) {
    fprintf(stderr, "ot_log_codec: out of memory\n");
    return 1;
  }
  for (unsigned nval = 0; nval <= 3; nval += 3) {
    uint32_t n;
    size_t len = ot_mix_generate(raw, cap, nval, 42, &n);
    rc |= run(nval ? "mix+3values" : "mix", raw, len, frame, reps);
  }
  free(raw);
  return rc;
}
