/* Table-driven parsing of the OMPTRACE_* variables (see config_table.c).
 * A bad value never stops the program: one line names the variable, the
 * reason and the value used instead. */
#include "core/config.h"
#include "core/config_table.h"
#include "core/features.h"
#include "core/log.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

ot_config ot_cfg;

static void *field(const ot_option *o) {
  return (char *)&ot_cfg + o->offset;
}

static const char *parse_u64(const char *s, uint64_t *out, const char **rest) {
  if (!isdigit((unsigned char)*s))
    return "not a number";
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno)
    return "number too large";
  *out = v;
  *rest = end;
  return NULL;
}

static const char *parse_size(const ot_option *o, const char *s) {
  uint64_t v;
  const char *rest, *err = parse_u64(s, &v, &rest);
  if (err)
    return err;
  unsigned shift = 0;
  switch (toupper((unsigned char)*rest)) {
  case 'K':
    shift = 10;
    rest++;
    break;
  case 'M':
    shift = 20;
    rest++;
    break;
  case 'G':
    shift = 30;
    rest++;
    break;
  default:
    break;
  }
  if (shift && (strcasecmp(rest, "iB") == 0 || strcasecmp(rest, "B") == 0))
    rest += strlen(rest);
  if (*rest)
    return "unknown suffix (use K, M or G)";
  if (v > (uint64_t)o->max >> shift)
    return "too large";
  v <<= shift;
  if (v < (uint64_t)o->min)
    return "below the minimum of 64K";
  *(uint64_t *)field(o) = v;
  return NULL;
}

/* Items may be padded with blanks; a list naming no group (",,") is as
 * empty as "": recording only the parallel group by accident would be a
 * silent surprise. */
static const char *parse_events(const ot_option *o, const char *s) {
  static char why[96]; /* configuration is read once, on one thread */
  uint32_t mask = 0;
  int items = 0;
  const char *p = s;
  while (*p) {
    p += strspn(p, " \t");
    size_t n = strcspn(p, ",");
    const char *next = p[n] == ',' ? p + n + 1 : p + n;
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
      n--;
    int found = n == 0;
    if (n == 3 && strncasecmp(p, "all", 3) == 0) {
      mask |= OT_EV_ALL;
      found = 1;
    }
    for (int i = 0; !found && ot_event_group_names[i]; i++) {
      if (strlen(ot_event_group_names[i]) == n && strncasecmp(p, ot_event_group_names[i], n) == 0) {
        mask |= 1u << i;
        found = 1;
      }
    }
    if (!found) {
      snprintf(why, sizeof why, "unknown event group '%.*s%s'", n > 40 ? 40 : (int)n, p,
               n > 40 ? "..." : "");
      return why;
    }
    items += n > 0;
    p = next;
  }
  if (!items)
    return "empty list";
  *(uint32_t *)field(o) = mask | OT_EV_PARALLEL;
  return NULL;
}

/* OMPTRACE_METRICS_ON: the syntax services/counters_mask.c applies
 * (items split at commas and blanks), checked here so a bad list is
 * reported whether or not counters are recorded or built. */
static const char *parse_groups(const ot_option *o, const char *s) {
  static char why[96];
  for (const char *p = s; *p;) {
    p += strspn(p, ", ");
    size_t n = strcspn(p, ", ");
    if (!n)
      break;
    const char *w = p + (*p == '-');
    size_t wn = n - (size_t)(*p == '-');
    int found = 0;
    static const char *const words[] = {"all", "none", "default"};
    for (int i = 0; *p != '-' && i < 3; i++)
      found |= strlen(words[i]) == wn && strncasecmp(w, words[i], wn) == 0;
    for (int i = 0; !found && ot_event_group_names[i]; i++)
      found =
          strlen(ot_event_group_names[i]) == wn && strncasecmp(w, ot_event_group_names[i], wn) == 0;
    if (!found) {
      snprintf(why, sizeof why, "unknown group '%.*s%s'", n > 40 ? 40 : (int)n, p,
               n > 40 ? "..." : "");
      return why;
    }
    p += n;
  }
  if (strlen(s) >= o->size)
    return "too long";
  memcpy(field(o), s, strlen(s) + 1);
  return NULL;
}

static const char *parse_bool(const ot_option *o, const char *s) {
  static const char *const yes[] = {"1", "yes", "true", "on"};
  static const char *const no[] = {"0", "no", "false", "off"};
  for (int i = 0; i < 4; i++) {
    if (strcasecmp(s, yes[i]) == 0) {
      *(int *)field(o) = 1;
      return NULL;
    }
    if (strcasecmp(s, no[i]) == 0) {
      *(int *)field(o) = 0;
      return NULL;
    }
  }
  return "expected 0 or 1";
}

static const char *parse_int(const ot_option *o, const char *s) {
  const char *p = s + (*s == '-');
  uint64_t v;
  const char *rest, *err = parse_u64(p, &v, &rest);
  if (err)
    return err;
  if (*rest)
    return "not a number";
  int64_t iv = *s == '-' ? -(int64_t)v : (int64_t)v;
  if (v > INT32_MAX || iv < o->min || iv > o->max)
    return "out of range";
  *(int *)field(o) = (int)iv;
  return NULL;
}

static const char *parse_choice(const ot_option *o, const char *s) {
  for (int i = 0; o->choices[i]; i++) {
    if (strcasecmp(s, o->choices[i]) == 0) {
      *(int *)field(o) = i;
      return NULL;
    }
  }
  return "not one of the accepted values";
}

/* Frequencies and periods both become a period in nanoseconds. */
static const char *parse_rate(const ot_option *o, const char *s) {
  static const struct {
    const char *unit;
    int is_freq;
    uint64_t mult; /* Hz multiplier or ns per unit */
  } units[] = {{"hz", 1, 1}, {"khz", 1, 1000}, {"mhz", 1, 1000000}, {"ghz", 1, 1000000000},
               {"ns", 0, 1}, {"us", 0, 1000},  {"ms", 0, 1000000},  {"s", 0, 1000000000}};
  if (strcmp(s, "0") == 0 || strcasecmp(s, "off") == 0) {
    *(uint64_t *)field(o) = 0;
    return NULL;
  }
  int duration = o->kind == OT_OPT_DURATION;
  if (!duration && (strcasecmp(s, "on") == 0 || strcmp(s, "1") == 0))
    s = OT_SAMPLING_ON_RATE;
  errno = 0;
  char *end;
  double v = strtod(s, &end);
  if (end == s || errno || !(v > 0))
    return "not a positive number";
  double ns = 0;
  int found = 0;
  while (*end == ' ')
    end++;
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    if (strcasecmp(end, units[i].unit) == 0 && !(duration && units[i].is_freq)) {
      ns = units[i].is_freq ? 1e9 / (v * (double)units[i].mult) : v * (double)units[i].mult;
      found = 1;
      break;
    }
  }
  if (!found)
    return duration ? "missing unit (s, ms, us)" : "missing unit (Hz, kHz, s, ms, us, ns)";
  if (duration && ns < (double)o->min)
    return "too short (at least 10ms)";
  if (ns < (double)o->min)
    return "rate too high (at most 100kHz, one sample per 10us)";
  if (ns > 3600e9)
    return duration ? "longer than an hour" : "slower than one sample per hour";
  *(uint64_t *)field(o) = (uint64_t)(ns + 0.5);
  return NULL;
}

const char *ot_option_parse(const ot_option *o, const char *value) {
  switch (o->kind) {
  case OT_OPT_STRING:
    if (strlen(value) >= o->size)
      return "too long";
    memcpy(field(o), value, strlen(value) + 1);
    return NULL;
  case OT_OPT_SIZE:
    return parse_size(o, value);
  case OT_OPT_EVENTS:
    return parse_events(o, value);
  case OT_OPT_BOOL:
    return parse_bool(o, value);
  case OT_OPT_INT:
    return parse_int(o, value);
  case OT_OPT_CHOICE:
    return parse_choice(o, value);
  case OT_OPT_RATE:
  case OT_OPT_DURATION:
    return parse_rate(o, value);
  case OT_OPT_SIGNAL:
    return ot_signal_parse(value, (int *)field(o));
  case OT_OPT_THROTTLE:
    return ot_throttle_parse(value);
  case OT_OPT_GROUPS:
    return parse_groups(o, value);
  }
  return "unknown option kind";
}

static void default_output(const char *program) {
  char stamp[32];
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  char prog[256];
  snprintf(prog, sizeof prog, "%s", program && *program ? program : "program");
  for (char *p = prog; *p; p++) /* keep the name a plain path component */
    if (*p == '/' || isspace((unsigned char)*p))
      *p = '_';
  snprintf(ot_cfg.output, sizeof ot_cfg.output, "omptrace-%s-%s-%d", prog, stamp, (int)getpid());
}

/* The variable's value from the environment, if set; a bad one is reported
 * and the default kept. */
static void load_env(const ot_option *o) {
  const char *v = getenv(o->name);
  if (!v)
    return;
  const char *why = ot_option_parse(o, v);
  if (why) {
    ot_option_parse(o, o->def);
    /* A long value is shortened so the line keeps what happens. */
    size_t len = strlen(v);
    if (len > 100)
      ot_warn("%s='%.60s...' (%zu characters): %s; using %s", o->name, v, len, why,
              *o->def ? o->def : "the default");
    else
      ot_warn("%s='%s': %s; using %s", o->name, v, why, *o->def ? o->def : "the default");
  }
}

int ot_config_load(const char *program_name) {
  memset(&ot_cfg, 0, sizeof ot_cfg);
  for (size_t i = 0; i < ot_option_count; i++)
    ot_option_parse(&ot_options[i], ot_options[i].def);
  /* Quiet and verbose decide which messages the other variables may print. */
  for (size_t i = 0; i < ot_option_count; i++)
    load_env(&ot_options[i]);
  ot_config_warn_unknown();
  if (!ot_cfg.output[0])
    default_output(program_name);
  return 0;
}

/* Plain text: a block per variable, wrapped for an 80-column terminal. */
static void print_wrapped(FILE *out, const char *text, const char *indent) {
  const size_t width = 76 - strlen(indent);
  while (*text) {
    size_t len = strlen(text), cut = len;
    if (len > width) {
      cut = width;
      while (cut > 0 && text[cut] != ' ')
        cut--;
      if (cut == 0)
        cut = width;
    }
    fprintf(out, "%s%.*s\n", indent, (int)cut, text);
    text += cut;
    while (*text == ' ')
      text++;
  }
}

/* Markdown table cell: angle brackets would read as HTML, a bar ends the cell. */
static void print_md(FILE *out, const char *text) {
  for (const char *p = text; *p; p++) {
    if (*p == '<')
      fputs("&lt;", out);
    else if (*p == '>')
      fputs("&gt;", out);
    else if (*p == '|')
      fputs("\\|", out);
    else
      fputc(*p, out);
  }
}

void ot_config_print_doc(FILE *out, int markdown) {
  if (markdown) {
    fprintf(out, "# Configuration\n\n"
                 "<!-- Generated by `omptrace-config --markdown` from "
                 "recorder/core/config_table.c; do not edit. -->\n\n"
                 "omptrace reads these environment variables when the OpenMP runtime starts "
                 "the tool. A bad value never stops the program: one line "
                 "`omptrace: OMPTRACE_X='bad': <why>; using <value>` names it and the value "
                 "used instead (a value longer than 100 characters is shown by its first 60 "
                 "and its length). Any other `OMPTRACE_*` variable in the environment is "
                 "reported as `omptrace: OMPTRACE_SAMPLNG: unknown variable (did you mean "
                 "OMPTRACE_SAMPLING?); ignored`, naming the closest variable below when one "
                 "is within an edit or two (case ignored); `OMPTRACE_LIBRARY`, `OMPTRACE_MERGE` "
                 "and `OMPTRACE_MERGE_WAIT` (the launcher's, docs/mpi.md) and "
                 "`OMPTRACE_BUILD_DIR` (bench/run.sh) are not reported. `omptrace --help` "
                 "prints the same table.\n\n"
                 "Counters and sampling are optional parts of the build (CMake options "
                 "`OMPTRACE_COUNTERS`, needing PAPI, and `OMPTRACE_SAMPLING`, needing "
                 "libunwind). In a build without one, `omptrace --help` marks its variables "
                 "\"Not available in this build\", and setting `OMPTRACE_METRICS` or a "
                 "sampling rate gives one line and is ignored (docs/counters.md, "
                 "docs/sampling.md).\n\n");
    fprintf(out, "| Variable | Default | Values | Description |\n|---|---|---|---|\n");
    for (size_t i = 0; i < ot_option_count; i++) {
      const ot_option *o = &ot_options[i];
      fprintf(out, "| `%s` | %s%s%s | ", o->name, *o->def ? "`" : "",
              *o->def ? o->def : "(see description)", *o->def ? "`" : "");
      print_md(out, o->values);
      fputs(" | ", out);
      print_md(out, o->doc);
      fputs(" |\n", out);
    }
    return;
  }
  for (size_t i = 0; i < ot_option_count; i++) {
    const ot_option *o = &ot_options[i];
    char values[512];
    snprintf(values, sizeof values, "Values: %s.", o->values);
    fprintf(out, "%s%s (default: %s)\n", i ? "\n" : "", o->name, *o->def ? o->def : "see below");
    print_wrapped(out, values, "    ");
    print_wrapped(out, o->doc, "    ");
    const char *missing = ot_feature_missing(o->name);
    if (missing) {
      char note[160];
      snprintf(note, sizeof note, "Not available in this build: %s.", missing);
      print_wrapped(out, note, "    ");
    }
  }
}

void ot_config_load_one(const char *name) {
  for (size_t i = 0; i < ot_option_count; i++) {
    if (strcmp(ot_options[i].name, name) == 0) {
      ot_option_parse(&ot_options[i], ot_options[i].def);
      load_env(&ot_options[i]);
    }
  }
}
