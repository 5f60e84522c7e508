/* omptrace-summary: an OpenMP performance report from an OTF2 archive. */
#include "summary.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef OMPTRACE_VERSION
#define OMPTRACE_VERSION "0"
#endif

static void usage(FILE *f) {
  fputs("usage: omptrace-summary [options] ARCHIVE\n"
        "       omptrace-summary --compare [options] ARCHIVE ARCHIVE...\n"
        "ARCHIVE is an OTF2 anchor file (traces.otf2) or the directory holding it.\n"
        "  --format FORMAT         text, json, csv or html (default text)\n"
        "  -o, --output FILE       write the report to FILE (default stdout)\n"
        "  --top N                 rows per ranked table (default 10, 0 = all)\n"
        "  --threads               add per-thread detail tables\n"
        "  --region PATTERN        only regions whose label matches (glob, or substring)\n"
        "  --compare               compare runs of one program at different thread counts\n"
        "  --tolerance PCT         --compare: slowdown below PCT percent is noise (default 0)\n"
        "  --help                  this text\n"
        "  --version               print the version\n",
        f);
}

static int summary(const char *path, const sm_opts *o, const char *format, FILE *out) {
  char err[2200];
  sm s = {.o = *o};
  s.a = otr_open(path, err, sizeof err);
  if (!s.a) {
    fprintf(stderr, "omptrace-summary: %s\n", err);
    return 1;
  }
  if (!sm_collect(&s, err, sizeof err)) {
    /* one line per damaged location when the reader names several */
    for (char *line = err, *nl; line; line = nl ? nl + 1 : NULL) {
      nl = strchr(line, '\n');
      fprintf(stderr, "omptrace-summary: %s: %.*s\n", otr_anchor(s.a),
              nl ? (int)(nl - line) : (int)strlen(line), line);
    }
    sm_free(&s);
    otr_close(s.a);
    return 1;
  }
  report *r = rp_new(otr_anchor(s.a));
  r->version = OMPTRACE_VERSION;
  sm_finish(&s);
  sm_report(&s, r);
  out_report(out, format, r);
  rp_free(r);
  sm_free(&s);
  otr_close(s.a);
  return 0;
}

/* A report that could not be written (full disk, closed pipe) is a failure
 * with a message, like unusable input. */
static int written(int rc, FILE *out) {
  int e = fflush(out) != 0 ? errno : ferror(out) ? EIO : 0;
  if (out != stdout && fclose(out) != 0 && !e)
    e = errno;
  if (rc == 0 && e) {
    fprintf(stderr, "omptrace-summary: cannot write the report: %s\n", strerror(e));
    return 1;
  }
  return rc;
}

int main(int argc, char **argv) {
  static const struct option opts[] = {
      {"format", required_argument, 0, 'f'}, {"top", required_argument, 0, 'n'},
      {"threads", no_argument, 0, 't'},      {"region", required_argument, 0, 'r'},
      {"compare", no_argument, 0, 'c'},      {"tolerance", required_argument, 0, 'T'},
      {"output", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'},
      {"version", no_argument, 0, 'V'},      {0, 0, 0, 0}};
  sm_opts o = {.top = 10};
  const char *format = "text", *output = NULL;
  bool compare = false;
  int c;
  while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
    char *end;
    switch (c) {
    case 'f':
      format = optarg;
      if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "csv") &&
          strcmp(format, "html")) {
        fprintf(stderr, "omptrace-summary: unknown format '%s' (text, json, csv or html)\n",
                format);
        return 2;
      }
      break;
    case 'n': {
      long top = strtol(optarg, &end, 10);
      if (end == optarg || *end || top < 0 || top > INT_MAX) {
        fprintf(stderr, "omptrace-summary: --top needs a number >= 0\n");
        return 2;
      }
      o.top = (int)top;
      break;
    }
    case 't':
      o.threads = true;
      break;
    case 'r':
      o.region = optarg;
      break;
    case 'c':
      compare = true;
      break;
    case 'o':
      output = optarg;
      break;
    case 'T':
      o.tolerance = strtod(optarg, &end) / 100.0;
      if (end == optarg || *end || !(o.tolerance >= 0)) { /* also rejects nan */
        fprintf(stderr, "omptrace-summary: --tolerance needs a percentage >= 0\n");
        return 2;
      }
      break;
    case 'h':
      usage(stdout);
      return 0;
    case 'V':
      printf("omptrace-summary %s\n", OMPTRACE_VERSION);
      return 0;
    default:
      usage(stderr);
      return 2;
    }
  }
  int n = argc - optind;
  if (compare && n < 2) {
    fprintf(stderr, "omptrace-summary: --compare needs at least two archives\n");
    return 2;
  }
  if (!compare && n != 1) {
    usage(stderr);
    return 2;
  }
  /* The HTML plots draw from the per-thread tables and the timeline. */
  bool html = !strcmp(format, "html");
  o.threads |= html;
  o.timeline = html && !compare;
  /* Opened before the archive is read: an unwritable path fails at once. */
  FILE *out = output ? fopen(output, "w") : stdout;
  if (!out) {
    fprintf(stderr, "omptrace-summary: cannot write %s: %s\n", output, strerror(errno));
    return 1;
  }
  int rc = compare ? sm_compare_main(argv + optind, n, &o, format, out)
                   : summary(argv[optind], &o, format, out);
  return written(rc, out);
}
