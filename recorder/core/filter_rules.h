/* Filter files in Score-P's syntax (SCOREP_REGION_NAMES_BEGIN/_END and
 * SCOREP_FILE_NAMES_BEGIN/_END blocks of EXCLUDE/INCLUDE rules with shell
 * wildcards): parsing and matching, no other state. docs/control.md. */
#ifndef OMPTRACE_FILTER_RULES_H
#define OMPTRACE_FILTER_RULES_H

#include <stddef.h>

typedef struct ot_filter_rule {
  unsigned char exclude; /* 1 EXCLUDE, 0 INCLUDE */
  unsigned char file;    /* 1 in a file-names block */
  char *pattern;         /* fnmatch(3) pattern */
} ot_filter_rule;

typedef struct ot_filter_rules {
  ot_filter_rule *rule; /* in file order: the last matching rule decides */
  size_t n, cap;
} ot_filter_rules;

/* Largest filter file read: Score-P filters are a few KiB; 16 MiB keeps
 * a mistaken path (a data file, a disk image) from holding the program. */
#define OT_FILTER_MAX_BYTES (16 << 20)

/* Parses the file (a regular file of at most OT_FILTER_MAX_BYTES). Returns 0; or -1 with a one-line
 * reason in err
 * ("FILE:LINE: ...", "FILE: <strerror>", "FILE: not a regular file" or
 * "FILE: larger than 16 MiB (N bytes)") and rules left empty. */
int ot_filter_rules_load(ot_filter_rules *rules, const char *path, char *err, size_t errlen);
/* The same from text (name is used in messages only). */
int ot_filter_rules_parse(ot_filter_rules *rules, const char *text, const char *name, char *err,
                          size_t errlen);
/* 1 when the construct is excluded: by the last region-names rule matching
 * one of names[0..nnames-1] (region name, construct, function), or by the
 * last file-names rule matching file (its path or its base name). */
int ot_filter_rules_excluded(const ot_filter_rules *rules, const char *const *names, int nnames,
                             const char *file);
void ot_filter_rules_free(ot_filter_rules *rules);

#endif
