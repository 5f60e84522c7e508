/* omptrace-convert: an OTF2 archive as Chrome trace-event JSON (Perfetto UI,
 * chrome://tracing) or speedscope JSON; options, output file and the final
 * line with events, bytes and bytes per event. */
#include "convert.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef OMPTRACE_VERSION
#define OMPTRACE_VERSION "0"
#endif

static void usage(FILE *f) {
  fputs("usage: omptrace-convert ARCHIVE --to chrome|speedscope [options]\n"
        "ARCHIVE is an OTF2 anchor file (traces.otf2) or the directory holding it.\n"
        "  --to chrome|speedscope  Chrome trace-event JSON (Perfetto UI, chrome://tracing)\n"
        "                          or speedscope JSON\n"
        "  -o, --output FILE       write to FILE (default: standard output)\n"
        "  --begin T, --end T      keep only this time window; T in seconds from the trace\n"
        "                          start, or with a unit: 1.5s, 200ms, 30us, 500ns\n"
        "  --threads LIST          keep only these threads: indices like 0,2-3\n"
        "  --max-events N          stop after N events; open regions are closed there\n"
        "  --help                  this text\n"
        "  --version               print the version\n",
        f);
}

typedef struct {
  const char *to, *output, *archive;
  cv_cut cut;
} opts;

static int bad(const char *what, const char *val) {
  fprintf(stderr, "omptrace-convert: %s '%s'\n", what, val);
  return 2;
}

/* Checks an option's value: 0 when good, else 2 after one line. */
static int value(int c, opts *o) {
  if (c == 't' && strcmp(optarg, "chrome") && strcmp(optarg, "speedscope"))
    return bad("unknown --to format (chrome or speedscope):", optarg);
  if (c == 'b' && !cv_parse_time(optarg, &o->cut.begin))
    return bad("--begin needs a time like 1.5s, 200ms, 30us or 500ns, not", optarg);
  if (c == 'e' && !cv_parse_time(optarg, &o->cut.end))
    return bad("--end needs a time like 1.5s, 200ms, 30us or 500ns, not", optarg);
  if (c == 'm' && !cv_parse_count(optarg, &o->cut.max_events))
    return bad("--max-events needs a number > 0, not", optarg);
  return 0;
}

/* 0 when parsed, else the exit status (2: usage error, -1: done, exit 0). */
static int parse(int argc, char **argv, opts *o) {
  static const struct option lo[] = {{"to", required_argument, 0, 't'},
                                     {"output", required_argument, 0, 'o'},
                                     {"begin", required_argument, 0, 'b'},
                                     {"end", required_argument, 0, 'e'},
                                     {"threads", required_argument, 0, 'T'},
                                     {"max-events", required_argument, 0, 'm'},
                                     {"help", no_argument, 0, 'h'},
                                     {"version", no_argument, 0, 'V'},
                                     {0, 0, 0, 0}};
  int c;
  while ((c = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
    int rc = value(c, o);
    if (rc)
      return rc;
    if (c == 'h' || c == 'V') {
      if (c == 'h')
        usage(stdout);
      else
        printf("omptrace-convert %s\n", OMPTRACE_VERSION);
      return -1;
    }
    if (c == '?') {
      usage(stderr);
      return 2;
    }
    o->to = c == 't' ? optarg : o->to;
    o->output = c == 'o' ? optarg : o->output;
    o->cut.threads = c == 'T' ? optarg : o->cut.threads;
    o->cut.begin_arg = c == 'b' ? optarg : o->cut.begin_arg;
    o->cut.end_arg = c == 'e' ? optarg : o->cut.end_arg;
  }
  if (argc - optind != 1 || !o->to) {
    fprintf(stderr, "omptrace-convert: %s\n",
            argc - optind != 1 ? "expected one ARCHIVE" : "--to chrome|speedscope is required");
    usage(stderr);
    return 2;
  }
  if (o->cut.end <= o->cut.begin) {
    fprintf(stderr, "omptrace-convert: --end must be after --begin\n");
    return 2;
  }
  o->archive = argv[optind];
  return 0;
}

static int finish(cv_out *out, const opts *o, bool ok, const char *err) {
  const char *name = o->output ? o->output : "standard output";
  int e = fflush(out->f) ? errno : ferror(out->f) ? EIO : 0;
  if (out->f != stdout && fclose(out->f) && !e)
    e = errno;
  if (!ok || e) {
    if (ok)
      fprintf(stderr, "omptrace-convert: cannot write %s: %s\n", name, strerror(e));
    else /* one line per damaged location when the reader names several */
      for (const char *line = err, *nl; line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        fprintf(stderr, "omptrace-convert: %.*s\n", nl ? (int)(nl - line) : (int)strlen(line),
                line);
      }
    if (out->regular && o->output)
      unlink(o->output); /* no truncated JSON left behind (never a device like /dev/full) */
    return 1;
  }
  fprintf(stderr, "omptrace-convert: wrote %llu events, %llu bytes (%.1f bytes/event) to %s\n",
          (unsigned long long)out->events, (unsigned long long)out->bytes,
          out->events ? (double)out->bytes / (double)out->events : 0.0, name);
  return 0;
}

static int convert(const opts *o) {
  char err[4096];
  otr_archive *a = otr_open(o->archive, err, sizeof err);
  if (!a) {
    fprintf(stderr, "omptrace-convert: %s\n", err);
    return 1;
  }
  cv_out out = {.f = o->output ? fopen(o->output, "w") : stdout};
  if (!out.f) {
    fprintf(stderr, "omptrace-convert: cannot write %s: %s\n", o->output, strerror(errno));
    otr_close(a);
    return 1;
  }
  struct stat st;
  out.regular = o->output && !fstat(fileno(out.f), &st) && S_ISREG(st.st_mode);
  cv_sink *s = strcmp(o->to, "chrome") ? cv_speedscope_new(&out) : cv_chrome_new(&out);
  bool ok = s != NULL;
  if (!s)
    snprintf(err, sizeof err, "cannot create a temporary file: %s", strerror(errno));
  char rerr[2048];
  const char *problem;
  if (s && !cv_drive(a, &o->cut, s, &out, rerr, sizeof rerr)) {
    /* the archive's name on each line (one per damaged location) */
    size_t used = 0;
    for (const char *line = rerr, *nl; line && used < sizeof err; line = nl ? nl + 1 : NULL) {
      nl = strchr(line, '\n');
      int k = snprintf(err + used, sizeof err - used, "%s%s: %.*s", used ? "\n" : "", otr_anchor(a),
                       nl ? (int)(nl - line) : (int)strlen(line), line);
      used += k > 0 ? (size_t)k : 0;
    }
    ok = false;
  } else if (s && otr_mpi_unmatched(a, &problem) && problem) {
    fprintf(stderr, "omptrace-convert: warning: %s: %s (no arrow for them)\n", otr_anchor(a),
            problem);
  }
  if (s) {
    s->release(s->w);
    free(s);
  }
  otr_close(a);
  return finish(&out, o, ok, err);
}

int main(int argc, char **argv) {
  opts o = {.cut = {.end = UINT64_MAX}};
  int rc = parse(argc, argv, &o);
  if (rc)
    return rc < 0 ? 0 : rc;
  return convert(&o);
}
