/* unit_log_reader: a location's record stream over the log
 * (recorder/log/reader.c). A <loc>.log written here with ot_frame_seal and
 * ot_codec_encode (THREAD, RECORDS, LOST, CAPTURES, STATS frames) reads
 * back as exactly the records written, each LOST frame as one OT_LOST
 * record in its place, other frames skipped; a torn last frame, a RECORDS
 * frame whose sizes disagree and one whose bytes do not decode end the
 * stream as damaged after every record before them. Frames below the
 * trusted offset (ot_reader_trust: validated by an earlier reading) skip
 * their CRC check only: a bad CRC past it still ends the stream. */
#include "check.h"
#include "frame_file.h"
#include "log/codec.h"
#include "log/frame.h"
#include "log/reader.h"
#include "log_mix.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], path[128];
static uint64_t raw[(256u << 10) / 8];
static uint32_t seq;

static void put(unsigned type, const void *a, size_t alen, const void *b, size_t blen) {
  ut_frame_append(path, &seq, type, a, alen, b, blen);
}

/* One RECORDS frame of raw records [p, p + len). */
static void put_records(const uint8_t *p, size_t len) {
  static uint8_t enc[2 * sizeof raw + 16];
  ot_log_records rh;
  rh.bytes = (uint32_t)ot_codec_encode(p, p + len, enc, &rh.nrec);
  put(OT_FRAME_RECORDS, &rh, sizeof rh, enc, rh.bytes);
}

static void start(void) {
  unlink(path);
  seq = 0;
  ot_log_thread t = {.loc = 3, .type = 1, .tid = 1234, .nval = 2};
  put(OT_FRAME_THREAD, &t, sizeof t, NULL, 0);
}

/* Reads the stream: the first `n1` raw records, then a LOST record, then
 * the rest; returns records matched in order. */
static uint64_t read_back(ot_reader *r, const uint8_t *p, size_t n1, size_t n2,
                          const ot_log_lost *lost) {
  uint64_t ok = 0;
  const ot_rec *rec;
  for (size_t i = 0; i < n1 + 1 + n2 && (rec = ot_reader_next(r)); i++) {
    if (i == n1) {
      int same = rec->type == OT_LOST && rec->ts == lost->last_ts && rec->nval == 0 &&
                 rec->a == (lost->count > UINT32_MAX ? UINT32_MAX : lost->count) &&
                 rec->b == lost->first_ts && rec->c == lost->last_ts;
      CHECK_TRUE("LOST frame as an OT_LOST record", same);
      ok += same;
      continue;
    }
    const ot_rec *want = (const ot_rec *)p;
    if (memcmp(rec, want, ot_rec_size(want)))
      break;
    p += ot_rec_size(want);
    ok++;
  }
  return ok;
}

static void stream(void) {
  uint32_t nrec;
  size_t len = ot_mix_generate((uint8_t *)raw, sizeof raw, 2, 5, &nrec);
  size_t rs = sizeof(ot_rec) + 16, n1 = 1000, n2 = nrec - n1;
  ot_log_lost lost = {.count = 5000000000ull, .first_ts = 77, .last_ts = 99};
  for (int torn = 0; torn < 2; torn++) {
    start();
    put_records((uint8_t *)raw, 600 * rs);
    put_records((uint8_t *)raw + 600 * rs, 400 * rs);
    put(OT_FRAME_LOST, &lost, sizeof lost, NULL, 0);
    ot_log_captures c = {.which = OT_LOG_SAMPLES};
    put(OT_FRAME_CAPTURES, &c, sizeof c, "abcdefgh", 8);
    put_records((uint8_t *)raw + n1 * rs, len - n1 * rs);
    ot_log_stats st = {.records = nrec};
    put(OT_FRAME_STATS, &st, sizeof st, NULL, 0);
    if (torn) {
      int fd = open(path, O_WRONLY | O_APPEND);
      if (fd < 0 || write(fd, ut_frame_last(), 20) != 20)
        perror("unit_log_reader: write");
      close(fd);
    }
    ot_reader *r = ot_reader_open(dir, 3);
    CHECK_TRUE("open", r != NULL);
    if (!r)
      return;
    uint64_t ok = read_back(r, (uint8_t *)raw, n1, n2, &lost);
    CHECK_U64(torn ? "torn: records in order" : "records in order", ok, nrec + 1);
    CHECK_TRUE("then the end", ot_reader_next(r) == NULL);
    CHECK_U64("records counted", ot_reader_records(r), nrec + 1);
    CHECK_I64(torn ? "torn: damaged" : "clean: not damaged", ot_reader_damaged(r), torn);
    CHECK_TRUE("why", torn ? !strncmp(ot_reader_why(r), "torn", 4) : !*ot_reader_why(r));
    ot_reader_close(r);
  }
}

/* Valid frames (CRC holds) whose content is wrong. */
static void bad_content(void) {
  uint32_t nrec;
  ot_mix_generate((uint8_t *)raw, 4096, 0, 9, &nrec);
  for (int kind = 0; kind < 3; kind++) {
    start();
    put_records((uint8_t *)raw, 10 * sizeof(ot_rec));
    struct stat at;
    stat(path, &at);
    uint8_t junk[64];
    memset(junk, 0xff, sizeof junk);
    ot_log_records rh = {.nrec = 5, .bytes = kind == 0 ? 65 : 64};
    if (kind < 2)
      put(OT_FRAME_RECORDS, &rh, sizeof rh, junk, sizeof junk);
    else
      put(OT_FRAME_LOST, &rh, sizeof rh, NULL, 0);
    put_records((uint8_t *)raw, 10 * sizeof(ot_rec));
    ot_reader *r = ot_reader_open(dir, 3);
    uint64_t n = 0;
    while (ot_reader_next(r))
      n++;
    const char *what[] = {"byte count mismatch", "records that do not decode", "short LOST"};
    char m[128];
    snprintf(m, sizeof m, "%s: records before it (why '%s')", what[kind], ot_reader_why(r));
    CHECK_U64(m, n, 10);
    CHECK_I64(m, ot_reader_damaged(r), 1);
    CHECK_U64("damaged_at is the bad frame", ot_reader_damaged_at(r), (uint64_t)at.st_size);
    ot_reader_close(r);
  }
}

/* Counts the records of the stream, trusting frames up to `trust`. */
static uint64_t count(uint64_t trust, int *damaged) {
  *damaged = -1;
  ot_reader *r = ot_reader_open(dir, 3);
  if (!r)
    return 0;
  ot_reader_trust(r, trust);
  uint64_t n = 0;
  while (ot_reader_next(r))
    n++;
  *damaged = ot_reader_damaged(r);
  ot_reader_close(r);
  return n;
}

static void trusted(void) {
  uint32_t nrec;
  ot_mix_generate((uint8_t *)raw, 4096, 0, 9, &nrec);
  start();
  put_records((uint8_t *)raw, 10 * sizeof(ot_rec));
  struct stat at;
  stat(path, &at);
  put_records((uint8_t *)raw, 20 * sizeof(ot_rec));
  struct stat all;
  stat(path, &all);
  int fd = open(path, O_RDWR); /* a wrong CRC in the last frame's header */
  uint32_t crc;
  off_t crc_at = at.st_size + (off_t)offsetof(ot_frame_hdr, crc);
  if (fd < 0 || pread(fd, &crc, 4, crc_at) != 4 || (crc ^= 1, pwrite(fd, &crc, 4, crc_at)) != 4)
    perror("unit_log_reader: crc");
  close(fd);
  int damaged;
  CHECK_U64("bad crc, nothing trusted: records before it", count(0, &damaged), 10);
  CHECK_I64("bad crc, nothing trusted: damaged", damaged, 1);
  CHECK_U64("bad crc past the trusted part: records before it",
            count((uint64_t)at.st_size, &damaged), 10);
  CHECK_I64("bad crc past the trusted part: damaged", damaged, 1);
  CHECK_U64("bad crc 1 byte past the trusted part", count((uint64_t)all.st_size - 1, &damaged), 10);
  CHECK_U64("bad crc in the trusted part: not checked", count((uint64_t)all.st_size, &damaged), 30);
  CHECK_I64("bad crc in the trusted part: not damaged", damaged, 0);
}

int main(void) {
  if (ut_tmpdir(dir, sizeof dir, "unit_log_reader") != 0)
    return 1;
  snprintf(path, sizeof path, "%s/3.log", dir);
  stream();
  bad_content();
  trusted();
  errno = 0;
  CHECK_TRUE("missing location file", ot_reader_open(dir, 4) == NULL);
  CHECK_I64("missing location errno", errno, ENOENT);
  unlink(path);
  rmdir(dir);
  return ut_done("unit_log_reader");
}
