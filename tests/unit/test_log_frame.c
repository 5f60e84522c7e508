/* unit_log_frame: framing of the record log (recorder/log/frame.c). Frames
 * sealed with ot_frame_seal read back exactly; the reader stops at the
 * first frame that does not validate (torn header or payload, flipped
 * byte, sequence gap, huge length, bad magic/version/type) with the frame's
 * offset and reason, after returning every frame before it; it reads a
 * file that is still growing; trusted frames skip the CRC and skimmed ones
 * read only their head. Files live in a mkdtemp directory. */
#include "check.h"
#include "log/frame.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64], path[128];

/* Sealed frame with payload bytes i * 7 + seq in a static buffer. */
static const uint8_t *make(unsigned type, uint32_t len, uint32_t seq, size_t *size) {
  static uint64_t buf[(24 + 70000) / 8 + 1];
  ot_frame_hdr *h = (ot_frame_hdr *)buf;
  uint8_t *pl = (uint8_t *)(h + 1);
  for (uint32_t i = 0; i < len; i++)
    pl[i] = (uint8_t)(i * 7 + seq);
  *size = ot_frame_seal(h, type, len, seq, 0);
  return (const uint8_t *)buf;
}

static void append(const void *p, size_t n) {
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (fd < 0 || write(fd, p, n) != (ssize_t)n)
    perror("unit_log_frame: write");
  close(fd);
}

/* Appends frame seq (length 100 * seq + 3, type cycling over the thread
 * frame types); returns its size. */
static size_t add(uint32_t seq) {
  size_t size;
  const uint8_t *f = make(OT_FRAME_THREAD + seq % 5, 100 * seq + 3, seq, &size);
  append(f, size);
  return size;
}

/* Reads the file; returns the frames that validated, checking each one's
 * type, seq, length and payload. */
static unsigned read_all(ot_frame_reader *r, uint32_t want) {
  unsigned n = 0;
  const uint8_t *pl;
  const ot_frame_hdr *h;
  while ((h = ot_frame_next(r, want, &pl))) {
    int ok = h->length == 100 * h->seq + 3 && h->type == OT_FRAME_THREAD + h->seq % 5;
    for (uint32_t i = 0; ok && i < h->length; i++)
      ok = pl[i] == (uint8_t)(i * 7 + h->seq);
    CHECK_TRUE("frame read back exactly", ok);
    n++;
  }
  return n;
}

/* Reads the file; returns the frames returned (checks nothing). */
static unsigned read_all_head(ot_frame_reader *r) {
  unsigned n = 0;
  const uint8_t *pl;
  while (ot_frame_next(r, 0, &pl))
    n++;
  return n;
}

static void fresh(void) {
  unlink(path);
}

static void round_trip(void) {
  fresh();
  for (uint32_t s = 0; s < 5; s++)
    add(s);
  ot_frame_reader r;
  CHECK_I64("open", ot_frame_open(&r, path), 0);
  CHECK_U64("all frames", read_all(&r, 0), 5);
  CHECK_U64("not damaged", r.damaged, 0);
  CHECK_U64("end again", read_all(&r, 0), 0);
  ot_frame_close(&r);
  /* `want` selects types; every frame is still validated in order. */
  ot_frame_open(&r, path);
  CHECK_U64("RECORDS frames only (seq 1)", read_all(&r, 1u << OT_FRAME_RECORDS), 1);
  CHECK_U64("then nothing", r.damaged, 0);
  ot_frame_close(&r);
  /* Empty payload. */
  fresh();
  size_t size;
  const uint8_t *f = make(OT_FRAME_META, 0, 0, &size);
  CHECK_U64("empty frame size", size, 24);
  append(f, size);
  ot_frame_open(&r, path);
  const uint8_t *pl;
  const ot_frame_hdr *h = ot_frame_next(&r, 0, &pl);
  CHECK_TRUE("empty frame read", h && h->length == 0 && h->type == OT_FRAME_META);
  ot_frame_close(&r);
}

/* The file holds frames 0..good-1 then something bad at `at`: exactly
 * those frames, then damaged with a reason starting with `why`. */
static void expect_damage(const char *what, unsigned good, uint64_t at, const char *why) {
  ot_frame_reader r;
  ot_frame_open(&r, path);
  char m[128];
  snprintf(m, sizeof m, "%s: frames before it", what);
  CHECK_U64(m, read_all(&r, 0), good);
  snprintf(m, sizeof m, "%s: damaged", what);
  CHECK_U64(m, r.damaged, 1);
  snprintf(m, sizeof m, "%s: damaged_at", what);
  CHECK_U64(m, r.damaged_at, at);
  snprintf(m, sizeof m, "%s: why '%s'", what, r.why);
  CHECK_TRUE(m, !strncmp(r.why, why, strlen(why)));
  snprintf(m, sizeof m, "%s: stays at the end", what);
  CHECK_TRUE(m, read_all(&r, 0) == 0 && r.damaged);
  ot_frame_close(&r);
}

static void damage(void) {
  size_t size, at;
  const uint8_t *f;
  /* Torn payload and torn header. */
  fresh();
  at = add(0) + add(1);
  f = make(OT_FRAME_RECORDS, 500, 2, &size);
  append(f, 30);
  expect_damage("torn payload", 2, at, "torn");
  fresh();
  at = add(0);
  f = make(OT_FRAME_RECORDS, 500, 1, &size);
  append(f, 10);
  expect_damage("torn header", 1, at, "torn");
  /* A flipped byte in the payload of frame 1 of 3, then in a header. */
  for (int in_header = 0; in_header < 2; in_header++) {
    fresh();
    at = add(0);
    f = make(OT_FRAME_THREAD + 1, 103, 1, &size);
    uint8_t copy[256];
    memcpy(copy, f, size);
    copy[in_header ? 20 : 24 + 50] ^= 0x10; /* loc word / payload */
    append(copy, size);
    add(2);
    expect_damage(in_header ? "flipped header byte" : "flipped payload byte", 1, at, "crc");
  }
  /* Sequence gap: 0, 1, 3. */
  fresh();
  at = add(0) + add(1);
  add(3);
  expect_damage("sequence gap", 2, at, "sequence");
  /* Huge length (sealed, so only the length check can refuse it). */
  fresh();
  at = add(0);
  f = make(OT_FRAME_RECORDS, 0, 1, &size);
  ot_frame_hdr h;
  memcpy(&h, f, sizeof h);
  h.length = OT_LOG_MAX_FRAME + 1;
  append(&h, sizeof h);
  expect_damage("huge length", 1, at, "bad length");
  /* Bad magic, version and types. */
  const struct {
    const char *what, *why;
    int field;
    uint32_t value;
  } bad[] = {{"bad magic", "bad magic", 0, 0x4f544c47},
             {"bad version", "unsupported version", 1, 2},
             {"type 0", "bad frame type", 2, 0},
             {"type 32", "bad frame type", 2, OT_FRAME_TYPE_MAX}};
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    fresh();
    at = add(0);
    uint8_t copy[64];
    f = make(OT_FRAME_RECORDS, 8, 1, &size);
    memcpy(copy, f, size);
    ot_frame_hdr *hp = (ot_frame_hdr *)copy;
    if (bad[i].field == 0)
      hp->magic = bad[i].value;
    else if (bad[i].field == 1)
      hp->version = (uint8_t)bad[i].value;
    else
      hp->type = (uint8_t)bad[i].value;
    ot_frame_seal(hp, hp->type, 8, 1, 0); /* valid CRC; restore the bad field */
    if (bad[i].field == 0)
      hp->magic = bad[i].value;
    else if (bad[i].field == 1)
      hp->version = (uint8_t)bad[i].value;
    append(copy, size);
    expect_damage(bad[i].what, 1, at, bad[i].why);
  }
}

/* A log being appended to: frames written after the reader reached the end
 * are read by the next call. */
static void growing(void) {
  fresh();
  add(0);
  ot_frame_reader r;
  ot_frame_open(&r, path);
  CHECK_U64("growing: first frame", read_all(&r, 0), 1);
  CHECK_U64("growing: clean end", r.damaged, 0);
  add(1);
  add(2);
  CHECK_U64("growing: frames appended later", read_all(&r, 0), 2);
  CHECK_U64("growing: still clean", r.damaged, 0);
  ot_frame_close(&r);
}

/* Trusted frames (written whole by this process) skip the CRC; of the
 * skimmed types only the first OT_FRAME_SKIM payload bytes are read, and
 * ot_frame_again reads one whole later, leaving the position alone.
 * Frames 0-5: types THREAD, RECORDS, CAPTURES, LOST, STATS, THREAD. */
static void trusted_skim(void) {
  fresh();
  size_t end[6], total = 0;
  for (uint32_t seq = 0; seq < 6; seq++)
    end[seq] = total += add(seq);
  /* Flip a payload byte of frame 1 (a RECORDS frame): only the CRC tells. */
  int fd = open(path, O_RDWR);
  uint8_t b = 0;
  if (fd < 0 || pread(fd, &b, 1, (off_t)end[0] + 24 + 50) != 1)
    perror("unit_log_frame: pread");
  b ^= 0xff;
  if (fd < 0 || pwrite(fd, &b, 1, (off_t)end[0] + 24 + 50) != 1)
    perror("unit_log_frame: pwrite");
  close(fd);
  ot_frame_reader r;
  ot_frame_open(&r, path);
  CHECK_U64("untrusted: stops at the flipped byte", read_all(&r, 0), 1);
  ot_frame_close(&r);

  ot_frame_open(&r, path);
  r.trusted = end[4]; /* frames 0-4 */
  r.skim = 1u << OT_FRAME_RECORDS;
  const uint8_t *pl;
  const ot_frame_hdr *h;
  unsigned n = 0, skimmed = 0, whole = 0;
  uint64_t at1 = 0;
  while ((h = ot_frame_next(&r, 0, &pl)) != NULL) {
    n++;
    if (h->seq == 0)
      at1 = r.offset;
    uint32_t len = h->type == OT_FRAME_RECORDS ? OT_FRAME_SKIM : h->length;
    int ok = h->length == 100 * h->seq + 3;
    for (uint32_t i = 0; ok && i < len; i++)
      ok = pl[i] == (uint8_t)(i * 7 + h->seq);
    CHECK_TRUE("trusted: what is read is the frame's", ok);
    skimmed += h->type == OT_FRAME_RECORDS;
    whole += h->type != OT_FRAME_RECORDS;
  }
  CHECK_U64("trusted: every frame, no CRC for the flipped one", n, 6);
  CHECK_U64("trusted: the RECORDS frame skimmed", skimmed, 1);
  CHECK_U64("trusted: the others read", whole, 5);
  CHECK_U64("trusted: clean end", r.damaged, 0);
  CHECK_U64("trusted: at the end", r.offset, total);
  h = ot_frame_again(&r, at1, 1, &pl);
  CHECK_TRUE("again: frame 1 whole", h && h->seq == 1 && h->length == 103);
  int flipped = 0;
  for (uint32_t i = 0; h && i < h->length; i++)
    flipped += pl[i] != (uint8_t)(i * 7 + 1);
  CHECK_U64("again: its bytes, the flipped one too (trusted)", flipped, 1);
  CHECK_U64("again: position kept", r.offset, total);
  CHECK_U64("again: sequence kept", r.next_seq, 6);
  r.trusted = 0;
  CHECK_TRUE("again, untrusted: the CRC fails", !ot_frame_again(&r, at1, 1, &pl));
  CHECK_U64("again, untrusted: the reader stays clean", r.damaged, 0);
  CHECK_TRUE("again: a wrong sequence number fails", !ot_frame_again(&r, 0, 3, &pl));
  ot_frame_close(&r);

  /* Frame 1 cut after 30 of its 103 payload bytes: skimmed, its head is
   * all that is read (a whole read would find it torn). */
  if (truncate(path, (off_t)end[0] + 24 + 30) != 0)
    perror("unit_log_frame: truncate");
  ot_frame_open(&r, path);
  r.trusted = end[1];
  r.skim = 1u << OT_FRAME_RECORDS;
  CHECK_U64("skim: frames 0 and 1", read_all_head(&r), 2);
  CHECK_U64("skim: no damage", r.damaged, 0);
  ot_frame_close(&r);
  ot_frame_open(&r, path);
  r.trusted = end[1];
  CHECK_U64("no skim: frame 1 is torn", read_all_head(&r), 1);
  CHECK_U64("no skim: damaged", r.damaged, 1);
  ot_frame_close(&r);
}

static void missing(void) {
  ot_frame_reader r;
  char p[160];
  snprintf(p, sizeof p, "%s/none.log", dir);
  errno = 0;
  CHECK_I64("missing file", ot_frame_open(&r, p), -1);
  CHECK_I64("missing file errno", errno, ENOENT);
}

int main(void) {
  if (ut_tmpdir(dir, sizeof dir, "unit_log_frame") != 0)
    return 1;
  snprintf(path, sizeof path, "%s/0.log", dir);
  round_trip();
  damage();
  growing();
  trusted_skim();
  missing();
  unlink(path);
  rmdir(dir);
  return ut_done("unit_log_frame");
}
