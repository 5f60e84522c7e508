/* unit_config: the OMPTRACE_* value parsers (recorder/core/config.c,
 * config_signal.c) through ot_option_parse() with the real table entries,
 * and ot_config_load()'s fallback: a bad value gets one stderr line and
 * the variable's default. Each case gives the exact reason string (NULL
 * when valid) and, when valid, the exact value stored. */
#define _GNU_SOURCE /* environ */
#include "check.h"
#include "core/config.h"
#include "core/config_table.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#define SIZE_SUFFIX "unknown suffix (use K, M or G)"
#define SIZE_NAN "not a number"
#define SIZE_BIG "too large"
#define SIZE_SMALL "below the minimum of 64K"
#define RATE_NAN "not a positive number"
#define RATE_UNIT "missing unit (Hz, kHz, s, ms, us, ns)"
#define RATE_FAST "rate too high (at most 100kHz, one sample per 10us)"
#define RATE_SLOW "slower than one sample per hour"
#define EV_EMPTY "empty list"
#define SENTINEL 0x5a5a5a5au /* in the field before each parse: a valid value must replace it */

static const ot_option *option(const char *name) {
  for (size_t i = 0; i < ot_option_count; i++)
    if (strcmp(ot_options[i].name, name) == 0)
      return &ot_options[i];
  printf("FAIL no option %s in the table\n", name);
  exit(1);
}

typedef struct {
  const char *value;
  const char *why; /* NULL: valid */
  uint64_t want;
} u64_case;

/* OMPTRACE_BUFFER_SIZE: bytes, binary K/M/G (optionally iB or B), from 64K
 * to 64G. */
static const u64_case size_cases[] = {
    {"64K", NULL, 65536},
    {"64k", NULL, 65536},
    {"64KiB", NULL, 65536},
    {"64kib", NULL, 65536},
    {"64KB", NULL, 65536},
    {"64kb", NULL, 65536},
    {"65536", NULL, 65536},
    {"16M", NULL, 16777216},
    {"16m", NULL, 16777216},
    {"16MiB", NULL, 16777216},
    {"1G", NULL, 1073741824},
    {"1gb", NULL, 1073741824},
    {"64G", NULL, 68719476736ull},
    {"68719476736", NULL, 68719476736ull},
    {"16777216K", NULL, 17179869184ull},
    {"0000000000000000000000000000064K", NULL, 65536},
    {"", SIZE_NAN, 0},
    {" 64K", SIZE_NAN, 0},
    {"-64K", SIZE_NAN, 0},
    {"+64K", SIZE_NAN, 0},
    {"K", SIZE_NAN, 0},
    {"64 K", SIZE_SUFFIX, 0},
    {"64K ", SIZE_SUFFIX, 0},
    {"64B", SIZE_SUFFIX, 0},
    {"64T", SIZE_SUFFIX, 0},
    {"64KK", SIZE_SUFFIX, 0},
    {"64Ki", SIZE_SUFFIX, 0},
    {"64KiBB", SIZE_SUFFIX, 0},
    {"0x10000", SIZE_SUFFIX, 0},
    {"1.5M", SIZE_SUFFIX, 0},
    {"0", SIZE_SMALL, 0},
    {"0G", SIZE_SMALL, 0},
    {"65535", SIZE_SMALL, 0},
    {"63K", SIZE_SMALL, 0},
    {"65G", SIZE_BIG, 0},
    {"68719476737", SIZE_BIG, 0},
    {"67108865K", SIZE_BIG, 0},
    /* Shifting these would wrap to 0 (2^54 K, 2^34 G = 2^64 bytes). */
    {"18014398509481984K", SIZE_BIG, 0},
    {"17179869184G", SIZE_BIG, 0},
    {"18446744073709551615", SIZE_BIG, 0},
    {"18446744073709551616", "number too large", 0},
};

/* OMPTRACE_SAMPLING: a frequency or a period, stored as the period in ns
 * rounded to nearest; 10us at the shortest, an hour at the longest. */
static const u64_case rate_cases[] = {
    {"0", NULL, 0},
    {"off", NULL, 0},
    {"OFF", NULL, 0},
    {"on", NULL, 1000000},
    {"ON", NULL, 1000000},
    {"1", NULL, 1000000},
    {"1kHz", NULL, 1000000},
    {"1khz", NULL, 1000000},
    {"1KHZ", NULL, 1000000},
    {"1 kHz", NULL, 1000000},
    {"1   Hz", NULL, 1000000000},
    {"100Hz", NULL, 10000000},
    {"200Hz", NULL, 5000000},
    {"100kHz", NULL, 10000},
    {"1e3Hz", NULL, 1000000},
    {"1.5kHz", NULL, 666667},
    {"3kHz", NULL, 333333},
    {"10us", NULL, 10000},
    {"5ms", NULL, 5000000},
    {"0.5ms", NULL, 500000},
    {"10000ns", NULL, 10000},
    {"10000.4ns", NULL, 10000},
    {"10000.5ns", NULL, 10001},
    {"1s", NULL, 1000000000},
    {"3600s", NULL, 3600000000000ull},
    {"0.00028Hz", NULL, 3571428571429ull},
    {"0001kHz", NULL, 1000000},
    {"", RATE_NAN, 0},
    {"kHz", RATE_NAN, 0},
    {"-1kHz", RATE_NAN, 0},
    {"0Hz", RATE_NAN, 0},
    {"0.0ms", RATE_NAN, 0},
    {"nanHz", RATE_NAN, 0},
    {"1e400Hz", RATE_NAN, 0},
    {"on ", RATE_NAN, 0},
    {"1000", RATE_UNIT, 0},
    {"2", RATE_UNIT, 0},
    {"1h", RATE_UNIT, 0},
    {"1kHz ", RATE_UNIT, 0},
    {"1 k Hz", RATE_UNIT, 0},
    {"5msec", RATE_UNIT, 0},
    {"101kHz", RATE_FAST, 0},
    {"9us", RATE_FAST, 0},
    {"9999ns", RATE_FAST, 0},
    {"9999.6ns", RATE_FAST, 0},
    {"1mHz", RATE_FAST, 0}, /* units ignore case: this is 1 MHz */
    {"1GHz", RATE_FAST, 0},
    {"infHz", RATE_FAST, 0},
    {"3601s", RATE_SLOW, 0},
    {"0.000277Hz", RATE_SLOW, 0},
};

/* OMPTRACE_EVENTS: group names (any case, blanks around them ignored),
 * the parallel group always added. */
static const u64_case event_cases[] = {
    {"all", NULL, 0x3ff},
    {"ALL", NULL, 0x3ff},
    {" all ", NULL, 0x3ff},
    {"parallel", NULL, 0x1},
    {"tasks", NULL, 0x3},
    {"TASKS", NULL, 0x3},
    {"sync,mutex", NULL, 0xd},
    {" tasks , sync ", NULL, 0x7},
    {"\ttasks\t", NULL, 0x3},
    {"tasks,,sync", NULL, 0x7},
    {",tasks", NULL, 0x3},
    {"tasks,", NULL, 0x3},
    {"control", NULL, 0x201},
    {"all,tasks", NULL, 0x3ff},
    {"parallel,tasks,sync,mutex,work,masked,reduction,flush,cancel,control", NULL, 0x3ff},
    {"", EV_EMPTY, 0},
    {",", EV_EMPTY, 0},
    {",, ,\t", EV_EMPTY, 0},
    {" ", EV_EMPTY, 0},
    {"bogus", "unknown event group 'bogus'", 0},
    {"tasks,bogus", "unknown event group 'bogus'", 0},
    {"task", "unknown event group 'task'", 0},
    {"tasksx", "unknown event group 'tasksx'", 0},
    {"tasks;sync", "unknown event group 'tasks;sync'", 0},
    {"tasks sync", "unknown event group 'tasks sync'", 0},
    {"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
     "unknown event group 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'", 0},
    {"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxy",
     "unknown event group 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'", 0},
};

static uint64_t get_field(const ot_option *o) {
  const char *p = (const char *)&ot_cfg + o->offset;
  if (o->size == sizeof(uint64_t))
    return *(const uint64_t *)p;
  return *(const uint32_t *)p;
}

/* OMPTRACE_FLUSH_INTERVAL: a duration (no frequencies, "1" is not "on"),
 * 10ms at the shortest, an hour at the longest; 0 or off disables. */
static const u64_case flush_cases[] = {
    {"0", NULL, 0},
    {"off", NULL, 0},
    {"1s", NULL, 1000000000},
    {"500ms", NULL, 500000000},
    {"10ms", NULL, 10000000},
    {"2 s", NULL, 2000000000},
    {"3600s", NULL, 3600000000000ull},
    {"9ms", "too short (at least 10ms)", 0},
    {"1", "missing unit (s, ms, us)", 0},
    {"on", "not a positive number", 0},
    {"2Hz", "missing unit (s, ms, us)", 0},
    {"3601s", "longer than an hour", 0},
    {"-1s", "not a positive number", 0},
};

static void set_field(const ot_option *o, uint64_t v) {
  char *p = (char *)&ot_cfg + o->offset;
  if (o->size == sizeof(uint64_t))
    *(uint64_t *)p = v;
  else
    *(uint32_t *)p = (uint32_t)v;
}

static void run_u64_cases(const char *name, const u64_case *cases, size_t n) {
  const ot_option *o = option(name);
  for (size_t k = 0; k < n; k++) {
    const u64_case *c = &cases[k];
    char what[160];
    snprintf(what, sizeof what, "%s='%s'", name, c->value);
    set_field(o, SENTINEL);
    CHECK_STR(what, ot_option_parse(o, c->value), c->why);
    if (!c->why)
      CHECK_U64(what, get_field(o), c->want);
  }
}

/* Each group alone: its bit and the parallel bit. */
static void test_each_group(void) {
  const ot_option *o = option("OMPTRACE_EVENTS");
  int i = 0;
  for (; ot_event_group_names[i]; i++) {
    set_field(o, SENTINEL);
    CHECK_STR(ot_event_group_names[i], ot_option_parse(o, ot_event_group_names[i]), NULL);
    CHECK_U64(ot_event_group_names[i], ot_cfg.events, OT_EV_PARALLEL | (1u << i));
  }
  CHECK_I64("group count", i, 10);
}

/* Very long values: a number with 5000 digits, padded with zeros. */
static void test_long_values(void) {
  enum { LEN = 5000 };
  static char v[LEN + 16];
  const ot_option *size = option("OMPTRACE_BUFFER_SIZE"), *rate = option("OMPTRACE_SAMPLING");
  memset(v, '9', LEN);
  v[LEN] = 0;
  CHECK_STR("size: 5000 nines", ot_option_parse(size, v), "number too large");
  memset(v, '0', LEN);
  strcpy(v + LEN, "64K");
  set_field(size, SENTINEL);
  CHECK_STR("size: 5000 zeros then 64K", ot_option_parse(size, v), NULL);
  CHECK_U64("size: 5000 zeros then 64K", ot_cfg.buffer_size, 65536);
  strcpy(v + LEN, "1kHz");
  set_field(rate, SENTINEL);
  CHECK_STR("rate: 5000 zeros then 1kHz", ot_option_parse(rate, v), NULL);
  CHECK_U64("rate: 5000 zeros then 1kHz", ot_cfg.sampling_ns, 1000000);
  v[0] = '1';
  CHECK_STR("rate: 1e4999 kHz", ot_option_parse(rate, v), RATE_NAN);
  memset(v, 'x', LEN);
  v[LEN] = 0;
  CHECK_STR("events: 5000 x", ot_option_parse(option("OMPTRACE_EVENTS"), v),
            "unknown event group 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'");
}

/* Signals: the five fixed ones and the real-time range, by name (SIG
 * optional, any case) or number; SIGRTMIN/SIGRTMAX are run-time values. */
typedef struct {
  const char *value;
  int ok;
  int want; /* for the real-time ones: an offset from SIGRTMIN (>= 0) or SIGRTMAX (< 0) */
  int rt;   /* 0: want is the signal, 1: SIGRTMIN + want, -1: SIGRTMAX + want */
} sig_case;

static const sig_case sig_cases[] = {
    {"SIGPROF", 1, SIGPROF, 0},
    {"PROF", 1, SIGPROF, 0},
    {"sigprof", 1, SIGPROF, 0},
    {"SIGALRM", 1, SIGALRM, 0},
    {"SIGVTALRM", 1, SIGVTALRM, 0},
    {"SIGUSR1", 1, SIGUSR1, 0},
    {"usr2", 1, SIGUSR2, 0},
    {"27", 1, SIGPROF, 0},
    {"SIGRTMIN", 1, 0, 1},
    {"SIGRTMIN+0", 1, 0, 1},
    {"SIGRTMIN+4", 1, 4, 1},
    {"rtmin+4", 1, 4, 1},
    {"SIGRTMAX", 1, 0, -1},
    {"SIGRTMAX-2", 1, -2, -1},
    {"SIGRTMAX-0", 1, 0, -1},
    {"", 0, 0, 0},
    {"SIG", 0, 0, 0},
    {"0", 0, 0, 0},
    {"9", 0, 0, 0}, /* SIGKILL */
    {"2", 0, 0, 0}, /* SIGINT */
    {"-1", 0, 0, 0},
    {"27x", 0, 0, 0},
    {"SIG27", 0, 0, 0},
    {"1000", 0, 0, 0},
    {"99999999999999999999", 0, 0, 0},
    {"SIGKILL", 0, 0, 0},
    {"SIGINT", 0, 0, 0},
    {" SIGPROF", 0, 0, 0},
    {"SIGPROF ", 0, 0, 0},
    {"SIGPROFX", 0, 0, 0},
    {"SIGRTMIN-1", 0, 0, 0},
    {"SIGRTMAX+1", 0, 0, 0},
    {"SIGRTMIN+", 0, 0, 0},
    {"SIGRTMIN+-1", 0, 0, 0},
    {"SIGRTMIN++1", 0, 0, 0},
    {"SIGRTMIN+4x", 0, 0, 0},
    {"SIGRTMIN 4", 0, 0, 0},
    {"SIGRTMIN+65", 0, 0, 0},
    {"SIGRTMIN+99999999999999999999", 0, 0, 0},
    {"SIGRTMAX-99", 0, 0, 0},
};

static void test_signals(void) {
  char why[160];
  snprintf(why, sizeof why,
           "not SIGPROF, SIGALRM, SIGVTALRM, SIGUSR1, SIGUSR2 or a real-time signal "
           "(SIGRTMIN+N, SIGRTMAX-N, %d..%d)",
           SIGRTMIN, SIGRTMAX);
  for (size_t k = 0; k < sizeof sig_cases / sizeof sig_cases[0]; k++) {
    const sig_case *c = &sig_cases[k];
    int sig = -7;
    const char *err = ot_signal_parse(c->value, &sig);
    CHECK_STR(c->value, err, c->ok ? NULL : why);
    int want = c->rt > 0 ? SIGRTMIN + c->want : c->rt < 0 ? SIGRTMAX + c->want : c->want;
    CHECK_I64(c->value, sig, c->ok ? want : -7); /* untouched when refused */
  }
  /* Past the top of the range by offset from SIGRTMIN. */
  char v[32];
  snprintf(v, sizeof v, "SIGRTMIN+%d", SIGRTMAX - SIGRTMIN + 1);
  int sig = 0;
  CHECK_STR(v, ot_signal_parse(v, &sig), why);
  /* Through the table entry, as the environment would. */
  const ot_option *o = option("OMPTRACE_SAMPLING_SIGNAL");
  CHECK_STR("OMPTRACE_SAMPLING_SIGNAL=SIGRTMIN+4", ot_option_parse(o, "SIGRTMIN+4"), NULL);
  CHECK_I64("OMPTRACE_SAMPLING_SIGNAL=SIGRTMIN+4", ot_cfg.sampling_signal, SIGRTMIN + 4);
  /* Names read back: every usable signal number parses, and its name
   * parses to the same number. */
  int usable = 0, bad = 0;
  for (int s = 1; s <= SIGRTMAX; s++) {
    char num[16], name[32];
    snprintf(num, sizeof num, "%d", s);
    int got = 0;
    if (ot_signal_parse(num, &got) != NULL)
      continue;
    usable++;
    int back = 0;
    ot_signal_name(s, name, sizeof name);
    if (got != s || ot_signal_parse(name, &back) != NULL || back != s) {
      printf("signal %d: name '%s' reads back as %d\n", s, name, back);
      bad++;
    }
  }
  CHECK_I64("usable signals", usable, 5 + SIGRTMAX - SIGRTMIN + 1);
  CHECK_I64("names that read back", bad, 0);
  char name[32];
  CHECK_STR("name SIGPROF", ot_signal_name(SIGPROF, name, sizeof name), "SIGPROF");
  CHECK_STR("name SIGRTMIN", ot_signal_name(SIGRTMIN, name, sizeof name), "SIGRTMIN");
  snprintf(v, sizeof v, "SIGRTMIN+%d", SIGRTMAX - SIGRTMIN);
  CHECK_STR("name SIGRTMAX", ot_signal_name(SIGRTMAX, name, sizeof name), v);
  CHECK_STR("name of 9", ot_signal_name(9, name, sizeof name), "signal 9");
}

/* ot_config_load(): a bad value is reported on one stderr line and the
 * default is used. stderr goes to a temporary file meanwhile. */
typedef struct {
  const char *var, *value;
  const char *line; /* the whole stderr output; NULL: the signal case */
  uint64_t want;    /* the default, or the valid value */
} load_case;

static const load_case load_cases[] = {
    {"OMPTRACE_BUFFER_SIZE", "12Q",
     "omptrace: OMPTRACE_BUFFER_SIZE='12Q': " SIZE_SUFFIX "; using 16M\n", 16777216},
    {"OMPTRACE_BUFFER_SIZE", "1K",
     "omptrace: OMPTRACE_BUFFER_SIZE='1K': " SIZE_SMALL "; using 16M\n", 16777216},
    {"OMPTRACE_BUFFER_SIZE", "64K", "", 65536},
    {"OMPTRACE_SAMPLING", "1MHz", "omptrace: OMPTRACE_SAMPLING='1MHz': " RATE_FAST "; using 0\n",
     0},
    {"OMPTRACE_SAMPLING", "100", "omptrace: OMPTRACE_SAMPLING='100': " RATE_UNIT "; using 0\n", 0},
    {"OMPTRACE_SAMPLING", "200Hz", "", 5000000},
    {"OMPTRACE_EVENTS", ",", "omptrace: OMPTRACE_EVENTS=',': " EV_EMPTY "; using all\n", 0x3ff},
    {"OMPTRACE_EVENTS", "tasks, bogus",
     "omptrace: OMPTRACE_EVENTS='tasks, bogus': unknown event group 'bogus'; using all\n", 0x3ff},
    {"OMPTRACE_SAMPLING_SIGNAL", "SIGKILL", NULL, 0},
};

static void clear_omptrace_env(void) {
  for (int again = 1; again;) {
    again = 0;
    for (char **e = environ; *e; e++) {
      if (strncmp(*e, "OMPTRACE_", 9) == 0) {
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(*e, "="), *e);
        unsetenv(name);
        again = 1; /* environ changed under us */
        break;
      }
    }
  }
}

/* Runs ot_config_load() with stderr in a file; returns what it printed. */
static void load_capturing(char *out, size_t n) {
  fflush(stderr);
  int saved = dup(STDERR_FILENO);
  FILE *f = tmpfile();
  if (saved < 0 || !f) {
    printf("FAIL cannot redirect stderr\n");
    exit(1);
  }
  dup2(fileno(f), STDERR_FILENO);
  ot_config_load("unit_config");
  dup2(saved, STDERR_FILENO);
  close(saved);
  rewind(f);
  size_t len = fread(out, 1, n - 1, f);
  out[len] = 0;
  fclose(f);
}

static void test_load(void) {
  clear_omptrace_env();
  char out[2048];
  for (size_t k = 0; k < sizeof load_cases / sizeof load_cases[0]; k++) {
    const load_case *c = &load_cases[k];
    char what[160];
    snprintf(what, sizeof what, "load %s='%s'", c->var, c->value);
    setenv(c->var, c->value, 1);
    load_capturing(out, sizeof out);
    unsetenv(c->var);
    const ot_option *o = option(c->var);
    if (c->line) {
      CHECK_STR(what, out, c->line);
      CHECK_U64(what, get_field(o), c->want);
      continue;
    }
    /* The signal line names the run-time range; the default is SIGRTMIN+4. */
    char line[320];
    snprintf(line, sizeof line,
             "omptrace: OMPTRACE_SAMPLING_SIGNAL='SIGKILL': not SIGPROF, SIGALRM, SIGVTALRM, "
             "SIGUSR1, SIGUSR2 or a real-time signal (SIGRTMIN+N, SIGRTMAX-N, %d..%d); using "
             "SIGRTMIN+4\n",
             SIGRTMIN, SIGRTMAX);
    CHECK_STR(what, out, line);
    CHECK_I64(what, ot_cfg.sampling_signal, SIGRTMIN + 4);
  }
  /* A value over 100 characters is shown by its first 60 and its length. */
  char v[151];
  memset(v, 'y', 150);
  v[150] = 0;
  setenv("OMPTRACE_EVENTS", v, 1);
  load_capturing(out, sizeof out);
  unsetenv("OMPTRACE_EVENTS");
  char line[512];
  snprintf(line, sizeof line,
           "omptrace: OMPTRACE_EVENTS='%.60s...' (150 characters): unknown event group "
           "'%.40s...'; using all\n",
           v, v);
  CHECK_STR("load OMPTRACE_EVENTS=150 characters", out, line);
  CHECK_U64("load OMPTRACE_EVENTS=150 characters", ot_cfg.events, 0x3ff);
  /* Nothing set: the defaults, silently. */
  load_capturing(out, sizeof out);
  CHECK_STR("load with no variables", out, "");
  CHECK_U64("default buffer size", ot_cfg.buffer_size, 16777216);
  CHECK_U64("default sampling", ot_cfg.sampling_ns, 0);
  CHECK_U64("default events", ot_cfg.events, 0x3ff);
  CHECK_I64("default signal", ot_cfg.sampling_signal, SIGRTMIN + 4);
}

int main(void) {
  run_u64_cases("OMPTRACE_BUFFER_SIZE", size_cases, sizeof size_cases / sizeof size_cases[0]);
  run_u64_cases("OMPTRACE_SAMPLING", rate_cases, sizeof rate_cases / sizeof rate_cases[0]);
  run_u64_cases("OMPTRACE_EVENTS", event_cases, sizeof event_cases / sizeof event_cases[0]);
  run_u64_cases("OMPTRACE_FLUSH_INTERVAL", flush_cases, sizeof flush_cases / sizeof flush_cases[0]);
  test_each_group();
  test_long_values();
  test_signals();
  test_load();
  return ut_done("unit_config");
}
