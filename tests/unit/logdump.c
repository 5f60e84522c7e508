/* ot_logdump [-r] DIR: prints the frames of every file of a record log
 * directory (<out>/.log, recorder/log/format.h): per frame its offset,
 * type, seq and length (RECORDS: record count and encoded bytes; META: the
 * text); with -r the decoded records too, through the dump derived from
 * record.h. Closes each file with a line of totals and bytes per record.
 * A debugging aid for the tests, not installed. Exit 1 when a file is
 * damaged (the reason is printed) or cannot be read, 2 on bad usage. */
#include "buffer/record_dump.h"
#include "log/codec.h"
#include "log/frame.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *type_name(unsigned t) {
  switch (t) {
  case OT_FRAME_META:
    return "META";
  case OT_FRAME_CLOCK:
    return "CLOCK";
  case OT_FRAME_MAPS:
    return "MAPS";
  case OT_FRAME_LOCATION:
    return "LOCATION";
  case OT_FRAME_THREAD:
    return "THREAD";
  case OT_FRAME_RECORDS:
    return "RECORDS";
  case OT_FRAME_CAPTURES:
    return "CAPTURES";
  case OT_FRAME_LOST:
    return "LOST";
  case OT_FRAME_STATS:
    return "STATS";
  default:
    return "?";
  }
}

/* Prints a RECORDS frame's summary and, with -r, its records; returns -1
 * when its records do not decode. */
static int records(const uint8_t *pl, uint32_t len, int dump_recs, uint64_t *nrec,
                   uint64_t *bytes) {
  ot_log_records rh;
  if (len < sizeof rh) {
    printf("  short RECORDS header\n");
    return -1;
  }
  memcpy(&rh, pl, sizeof rh);
  printf(" nrec=%u bytes=%u", rh.nrec, rh.bytes);
  if (rh.bytes != len - sizeof rh) {
    printf("\n");
    return -1;
  }
  printf(" (%.2f B/record)\n", rh.nrec ? (double)rh.bytes / rh.nrec : 0.0);
  *nrec += rh.nrec;
  *bytes += rh.bytes;
  static ot_codec_dec d;
  ot_codec_dec_init(&d, pl + sizeof rh, rh.bytes, rh.nrec);
  const ot_rec *r;
  char line[4096];
  while ((r = ot_codec_dec_next(&d)))
    if (dump_recs) {
      ot_rec_format(r, line, sizeof line);
      printf("    %s\n", line);
    }
  return d.error ? -1 : 0;
}

static void text(const uint8_t *pl, uint32_t len) {
  printf("\n");
  const char *p = (const char *)pl, *end = p + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *eol = nl ? nl : end;
    printf("    %.*s\n", (int)(eol - p), p);
    p = nl ? nl + 1 : end;
  }
}

static int dump(const char *dir, const char *name, int dump_recs) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  ot_frame_reader fr;
  if (ot_frame_open(&fr, path) < 0) {
    fprintf(stderr, "ot_logdump: cannot open %s: %s\n", path, strerror(errno));
    return 1;
  }
  printf("%s:\n", name);
  const ot_frame_hdr *h;
  const uint8_t *pl;
  uint64_t frames = 0, nrec = 0, bytes = 0, at = 0;
  int rc = 0;
  while ((h = ot_frame_next(&fr, 0, &pl))) {
    frames++;
    printf("  @%llu %s seq=%u length=%u", (unsigned long long)at, type_name(h->type), h->seq,
           h->length);
    if (!strcmp(name, OT_LOG_SHARED_FILE))
      printf(" loc=%u", h->loc);
    at = fr.offset;
    if (h->type == OT_FRAME_RECORDS) {
      if (records(pl, h->length, dump_recs, &nrec, &bytes) < 0) {
        fprintf(stderr, "ot_logdump: %s: frame %u: records do not decode\n", path, h->seq);
        rc = 1;
        break;
      }
    } else if (h->type == OT_FRAME_META) {
      text(pl, h->length);
    } else if (h->type == OT_FRAME_LOST && h->length == sizeof(ot_log_lost)) {
      ot_log_lost l;
      memcpy(&l, pl, sizeof l);
      printf(" count=%llu first_ts=%llu last_ts=%llu\n", (unsigned long long)l.count,
             (unsigned long long)l.first_ts, (unsigned long long)l.last_ts);
    } else if (h->type == OT_FRAME_THREAD && h->length >= OT_LOG_THREAD_MIN &&
               h->length <= sizeof(ot_log_thread)) {
      ot_log_thread t = {0};
      memcpy(&t, pl, h->length);
      printf(" loc=%u type=%d tid=%d nval=%u", t.loc, t.type, t.tid, t.nval);
      if (h->length >= offsetof(ot_log_thread, run))
        printf(" shared_bytes=%llu", (unsigned long long)t.shared_bytes);
      if (h->length == sizeof t)
        printf(" run=%llu", (unsigned long long)t.run);
      printf("\n");
    } else if (h->type == OT_FRAME_LOCATION && h->length == sizeof(ot_log_location)) {
      ot_log_location l;
      memcpy(&l, pl, sizeof l);
      printf(" loc=%u %s\n", l.loc, l.what == OT_LOC_OWN_FILE ? "own_file" : "started");
    } else {
      printf("\n");
    }
  }
  printf("  %llu frames, %llu records in %llu encoded bytes (%.2f B/record)\n",
         (unsigned long long)frames, (unsigned long long)nrec, (unsigned long long)bytes,
         nrec ? (double)bytes / (double)nrec : 0.0);
  if (fr.damaged) {
    fprintf(stderr, "ot_logdump: %s: damaged at byte %llu: %s\n", path,
            (unsigned long long)fr.damaged_at, fr.why);
    rc = 1;
  }
  ot_frame_close(&fr);
  return rc;
}

static int rank(const char *name) {
  return !strcmp(name, OT_LOG_PROCESS_FILE) ? 0 : !strcmp(name, OT_LOG_SHARED_FILE) ? 1 : 2;
}

/* "process" first, "shared", then the locations in numeric order. */
static int by_name(const void *a, const void *b) {
  const char *x = *(char *const *)a, *y = *(char *const *)b;
  unsigned long lx = strtoul(x, NULL, 10), ly = strtoul(y, NULL, 10);
  if (rank(x) != rank(y))
    return rank(x) - rank(y);
  return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

int main(int argc, char **argv) {
  int dump_recs = argc == 3 && !strcmp(argv[1], "-r");
  if (argc != 2 + dump_recs || argv[argc - 1][0] == '-') {
    fprintf(stderr, "usage: ot_logdump [-r] DIR/.log\n");
    return 2;
  }
  const char *dir = argv[argc - 1];
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "ot_logdump: cannot open %s: %s\n", dir, strerror(errno));
    return 1;
  }
  char *names[4096];
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < sizeof names / sizeof names[0]) {
    size_t l = strlen(e->d_name);
    if (!strcmp(e->d_name, OT_LOG_PROCESS_FILE) || !strcmp(e->d_name, OT_LOG_SHARED_FILE) ||
        (l > 4 && !strcmp(e->d_name + l - 4, OT_LOG_THREAD_SUFFIX)))
      names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof names[0], by_name);
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    rc |= dump(dir, names[i], dump_recs);
    free(names[i]);
  }
  if (!n)
    fprintf(stderr, "ot_logdump: %s: no log files\n", dir);
  return rc || !n;
}
