/* ot_rawdump FILE...: prints the raw records of spill files
 * (<dir>/.spill/<thread>.raw, kept when the archive could not be written)
 * one per line, through the dump derived from record.h. A debugging aid
 * for the tests, not installed. Exit 1 when a file cannot be read or ends
 * inside a record. */
#include "buffer/record_dump.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Largest record: header + 65535 counter values. */
static uint64_t rec[4 + 65535];

static int dump(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "ot_rawdump: cannot open %s: %s\n", path, strerror(errno));
    return 1;
  }
  char line[4096];
  unsigned long long at = 0;
  int rc = 0;
  size_t got;
  while ((got = fread(rec, 1, sizeof(ot_rec), f)) == sizeof(ot_rec)) {
    const ot_rec *r = (const ot_rec *)rec;
    size_t more = 8u * r->nval;
    if (more && fread(rec + 4, 1, more, f) != more) {
      got = 1; /* truncated values */
      break;
    }
    ot_rec_format(r, line, sizeof line);
    printf("%llu %s\n", at, line);
    at += sizeof(ot_rec) + more;
  }
  if (got != 0 || ferror(f)) {
    fprintf(stderr, "ot_rawdump: %s: truncated or unreadable record at byte %llu\n", path, at);
    rc = 1;
  }
  fclose(f);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: ot_rawdump FILE.raw...\n");
    return 2;
  }
  int rc = 0;
  for (int i = 1; i < argc; i++)
    rc |= dump(argv[i]);
  return rc;
}
