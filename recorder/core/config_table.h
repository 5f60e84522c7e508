/* The OMPTRACE_* variable table (core/config_table.c) and the value kinds
 * core/config.c knows how to parse. */
#ifndef OMPTRACE_CONFIG_TABLE_H
#define OMPTRACE_CONFIG_TABLE_H

#include <stddef.h>
#include <stdint.h>

enum ot_opt_kind {
  OT_OPT_STRING,   /* copied into a char array field */
  OT_OPT_SIZE,     /* bytes with optional K/M/G (binary) suffix -> uint64_t */
  OT_OPT_EVENTS,   /* comma list of event groups or "all" -> uint32_t mask */
  OT_OPT_BOOL,     /* 0/1, yes/no, true/false, on/off -> int */
  OT_OPT_INT,      /* decimal integer in [min, max] -> int */
  OT_OPT_CHOICE,   /* one of `choices`, stored as its index -> int */
  OT_OPT_RATE,     /* "1kHz" / "200Hz" or "5ms" / "100us", "0" = off -> uint64_t ns */
  OT_OPT_SIGNAL,   /* SIGPROF, SIGRTMIN+N, ... or a number (core/config_signal.c) -> int */
  OT_OPT_DURATION, /* "500ms", "2s", "0" = off -> uint64_t ns (no frequencies) */
  OT_OPT_THROTTLE, /* "N,T" (count, duration) or "off" -> two uint64_t (count 0 = off) */
  OT_OPT_GROUPS,   /* event groups, -group, all, none, default -> checked, copied as a string */
};

typedef struct ot_option {
  const char *name;
  const char *def;    /* default, in the same syntax as the variable */
  const char *values; /* accepted syntax, for the documentation */
  const char *doc;
  enum ot_opt_kind kind;
  size_t offset;    /* field in ot_config */
  size_t size;      /* field size (string capacity) */
  int64_t min, max; /* OT_OPT_INT, OT_OPT_SIZE (bytes), OT_OPT_RATE (period ns; max 0 = none) */
  const char *const *choices; /* OT_OPT_CHOICE, NULL-terminated */
} ot_option;

/* What OMPTRACE_SAMPLING=on means: the rate the sampling overhead targets
 * were measured at (docs/performance.md: +5% on real parallel work). */
#define OT_SAMPLING_ON_RATE "1kHz"

extern const ot_option ot_options[];
extern const size_t ot_option_count;

/* Event group names in enum ot_event_group bit order. */
extern const char *const ot_event_group_names[];

/* OMPTRACE_* names that are not the recorder's but legitimately set
 * around it (launcher, scripts); NULL-terminated. */
extern const char *const ot_config_foreign[];
/* core/config_env.c: one line per unknown OMPTRACE_* variable in the
 * environment, naming the closest known one when it is close. */
void ot_config_warn_unknown(void);

/* core/config_signal.c: a signal a profiler may own (SIGPROF, SIGALRM,
 * SIGVTALRM, SIGUSR1/2, a real-time signal), by name or number. */
const char *ot_signal_parse(const char *s, int *sig);     /* NULL or why it is bad */
const char *ot_signal_name(int sig, char *buf, size_t n); /* "SIGRTMIN+4" */

/* core/config_throttle.c: OMPTRACE_THROTTLE's "N,T" into ot_cfg. */
const char *ot_throttle_parse(const char *s);

/* Parses one value into ot_cfg; returns NULL or the reason it is bad. */
const char *ot_option_parse(const ot_option *o, const char *value);

#endif
