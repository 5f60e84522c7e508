/* ot_log_codec: speed and size of the record log's encoding
 * (recorder/log/codec.c). Encodes records in frames of --frame raw bytes
 * (default 1 MiB, the buffer chunk size the flusher writes), decodes them
 * back, and prints ns per record and MB/s of raw records for both
 * directions and the encoded bytes per record: on the synthetic mix of
 * tests/unit/log_mix.c (without and with 3 counter values), and on raw
 * record files given as arguments (32-byte records as buffer/record.h, e.g.
 * a spill file of an earlier version, or ot_mix's output) for real streams.
 * Decoding is timed one record at a time (ot_codec_dec_next) and in batches
 * as the log reader does (ot_codec_dec_many). With --log, decodes the
 * RECORDS frames of a record log's <loc>.log files as written.
 *
 *   ot_log_codec [--reps N] [--frame BYTES] [FILE.raw...]
 *   ot_log_codec [--reps N] --log LOC.log...
 *
 * Best of N repetitions (default 5): the least disturbed run on a shared
 * machine. One key=value line per stream. */
#include "log/codec.h"
#include "log/frame.h"
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

/* Decodes every frame of a log file held in memory (n frames at enc +
 * foff[f], fenc[f] bytes, fnrec[f] records), one record at a time or in
 * batches; returns the CPU ns, or 0 when a frame does not decode. */
static uint64_t decode_frames(const uint8_t *enc, const size_t *foff, const size_t *fenc,
                              const uint32_t *fnrec, size_t n, int batched, ot_codec_dec *d,
                              uint64_t *sum) {
  static uint64_t batch[1024];
  uint64_t t0 = now_ns();
  for (size_t f = 0; f < n; f++) {
    ot_codec_dec_init(d, enc + foff[f], fenc[f], fnrec[f]);
    if (batched) {
      for (size_t len; (len = ot_codec_dec_many(d, (uint8_t *)batch, sizeof batch)) != 0;)
        for (size_t at = 0; at < len;) {
          const ot_rec *r = (const ot_rec *)((const uint8_t *)batch + at);
          *sum += r->ts ^ r->c;
          at += ot_rec_size(r);
        }
    } else {
      for (const ot_rec *r; (r = ot_codec_dec_next(d)) != NULL;)
        *sum += r->ts ^ r->c;
    }
    if (d->error)
      return 0;
  }
  return now_ns() - t0;
}

/* Encodes [raw, raw + len) in frames, decodes them back, reps times; prints
 * the best times. */
static int measure(const char *name, const uint8_t *raw, size_t len, size_t frame, int reps,
                   uint8_t *enc, size_t *foff, size_t *fenc, uint32_t *fnrec, ot_codec_dec *d) {
  uint64_t best_enc = UINT64_MAX, best_dec = UINT64_MAX, best_batch = UINT64_MAX, nrec = 0,
           bytes = 0, sum = 0;
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
    uint64_t tn = decode_frames(enc, foff, fenc, fnrec, nf, 0, d, &sum);
    uint64_t tb = decode_frames(enc, foff, fenc, fnrec, nf, 1, d, &sum);
    if (!tn || !tb) {
      fprintf(stderr, "ot_log_codec: %s: a frame does not decode\n", name);
      return 1;
    }
    best_enc = t1 - t0 < best_enc ? t1 - t0 : best_enc;
    best_dec = tn < best_dec ? tn : best_dec;
    best_batch = tb < best_batch ? tb : best_batch;
    bytes = out;
  }
  printf("stream=%s records=%llu raw_bytes_per_record=%.1f bytes_per_record=%.2f "
         "encode_ns_per_record=%.1f encode_MBps=%.0f decode_ns_per_record=%.1f "
         "decode_MBps=%.0f decode_batched_ns_per_record=%.1f check=%llu\n",
         name, (unsigned long long)nrec, nrec ? (double)len / (double)nrec : 0.0,
         nrec ? (double)bytes / (double)nrec : 0.0, (double)best_enc / (double)nrec,
         (double)len * 1e3 / (double)best_enc, (double)best_dec / (double)nrec,
         (double)len * 1e3 / (double)best_dec, (double)best_batch / (double)nrec,
         (unsigned long long)(sum & 0xff));
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

/* --log: the RECORDS frames of one <loc>.log, decoded reps times. */
static int run_log(const char *path, int reps) {
  ot_frame_reader fr;
  if (ot_frame_open(&fr, path) != 0) {
    fprintf(stderr, "ot_log_codec: cannot open %s: %s\n", path, strerror(errno));
    return 1;
  }
  size_t n = 0, cap = 0, used = 0, ucap = 0;
  size_t *foff = NULL, *fenc = NULL;
  uint32_t *fnrec = NULL;
  uint8_t *enc = NULL;
  uint64_t nrec = 0;
  int rc = 0;
  const uint8_t *pl;
  for (const ot_frame_hdr *h; !rc && (h = ot_frame_next(&fr, 1u << OT_FRAME_RECORDS, &pl));) {
    ot_log_records rh;
    if (h->length < sizeof rh)
      continue;
    memcpy(&rh, pl, sizeof rh);
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      size_t *o = realloc(foff, cap * sizeof *foff);
      foff = o ? o : foff;
      size_t *e = realloc(fenc, cap * sizeof *fenc);
      fenc = e ? e : fenc;
      uint32_t *c = realloc(fnrec, cap * sizeof *fnrec);
      fnrec = c ? c : fnrec;
      rc = !o || !e || !c;
    }
    while (!rc && used + rh.bytes > ucap) {
      ucap = ucap ? 2 * ucap : 1u << 20;
      uint8_t *b = realloc(enc, ucap);
      enc = b ? b : enc;
      rc = !b;
    }
    if (rc) {
      fprintf(stderr, "ot_log_codec: out of memory\n");
      break;
    }
    if (rh.bytes)
      memcpy(enc + used, pl + sizeof rh, rh.bytes);
    foff[n] = used;
    fenc[n] = rh.bytes;
    fnrec[n++] = rh.nrec;
    used += rh.bytes;
    nrec += rh.nrec;
  }
  ot_frame_close(&fr);
  ot_codec_dec *d = malloc(sizeof *d);
  uint64_t best[2] = {UINT64_MAX, UINT64_MAX}, sum = 0;
  for (int rep = 0; !rc && d && rep < reps; rep++)
    for (int batched = 0; batched < 2; batched++) {
      uint64_t t = decode_frames(enc, foff, fenc, fnrec, n, batched, d, &sum);
      if (!t) {
        fprintf(stderr, "ot_log_codec: %s: a frame does not decode\n", path);
        rc = 1;
        break;
      }
      best[batched] = t < best[batched] ? t : best[batched];
    }
  if (!rc && d && nrec)
    printf("log=%s frames=%zu records=%llu bytes_per_record=%.2f decode_ns_per_record=%.1f "
           "decode_batched_ns_per_record=%.1f check=%llu\n",
           path, n, (unsigned long long)nrec, (double)used / (double)nrec,
           (double)best[0] / (double)nrec, (double)best[1] / (double)nrec,
           (unsigned long long)(sum & 0xff));
  free(d);
  free(enc);
  free(foff);
  free(fenc);
  free(fnrec);
  return rc || !d;
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
    } else if (!strcmp(argv[i], "--log") && i + 1 < argc) {
      for (i++; i < argc; i++)
        rc |= run_log(argv[i], reps);
      return rc;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: ot_log_codec [--reps N] [--frame BYTES] [FILE.raw...]\n"
                      "       ot_log_codec [--reps N] --log LOC.log...\n");
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
