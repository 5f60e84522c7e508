/* Score-P filter files: a line-oriented parser (comments from '#', blanks
 * separate patterns, a backslash keeps the next character, '\ ' or '\#',
 * in a pattern) and the last-rule-wins matcher. */
#include "core/filter_rules.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OUTSIDE, REGIONS, FILES };

typedef struct parser {
  ot_filter_rules *rules;
  const char *name;
  unsigned line, begin_line;
  int block, mode; /* mode: -1 none yet, 0 INCLUDE, 1 EXCLUDE */
  char *err;
  size_t errlen;
} parser;

static int fail(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(parser *p, const char *fmt, ...) {
  int n = snprintf(p->err, p->errlen, "%s:%u: ", p->name, p->line);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < p->errlen)
    vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

static int add(parser *p, const char *tok, size_t len) {
  ot_filter_rules *r = p->rules;
  if (r->n == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 16;
    ot_filter_rule *nr = realloc(r->rule, cap * sizeof *nr);
    if (!nr)
      return fail(p, "out of memory");
    r->rule = nr;
    r->cap = cap;
  }
  char *pat = strndup(tok, len);
  if (!pat)
    return fail(p, "out of memory");
  r->rule[r->n++] = (ot_filter_rule){(unsigned char)p->mode, p->block == FILES, pat};
  return 0;
}

static int is(const char *tok, size_t len, const char *word) {
  return strlen(word) == len && memcmp(tok, word, len) == 0;
}

static int block_word(parser *p, const char *tok, size_t len) {
  static const char *const words[] = {"SCOREP_REGION_NAMES_BEGIN", "SCOREP_REGION_NAMES_END",
                                      "SCOREP_FILE_NAMES_BEGIN", "SCOREP_FILE_NAMES_END"};
  for (int i = 0; i < 4; i++) {
    if (!is(tok, len, words[i]))
      continue;
    int which = i < 2 ? REGIONS : FILES, begin = i % 2 == 0;
    if (begin && p->block != OUTSIDE)
      return fail(p, "%s inside a block that is not closed", words[i]);
    if (!begin && p->block != which)
      return fail(p, "%s without its _BEGIN", words[i]);
    p->block = begin ? which : OUTSIDE;
    p->mode = -1;
    p->begin_line = p->line;
    return 1;
  }
  return 0;
}

static int token(parser *p, const char *tok, size_t len) {
  int b = block_word(p, tok, len);
  if (b)
    return b < 0 ? -1 : 0;
  if (p->block == OUTSIDE)
    return fail(p, "'%.*s' outside a SCOREP_REGION_NAMES or SCOREP_FILE_NAMES block", (int)len,
                tok);
  if (is(tok, len, "EXCLUDE") || is(tok, len, "INCLUDE")) {
    p->mode = tok[0] == 'E';
    return 0;
  }
  if (is(tok, len, "MANGLED") && p->block == REGIONS)
    return 0; /* names here have one spelling: MANGLED matches the same names */
  if (p->mode < 0)
    return fail(p, "pattern '%.*s' before EXCLUDE or INCLUDE", (int)len, tok);
  return add(p, tok, len);
}

/* One line (without its newline): tokens up to a '#'. */
static int parse_line(parser *p, const char *s, const char *end) {
  while (s < end) {
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
      s++;
    if (s == end || *s == '#')
      return 0;
    const char *t = s;
    while (s < end && *s != ' ' && *s != '\t' && *s != '\r' && *s != '#')
      s += (*s == '\\' && s + 1 < end) ? 2 : 1;
    if (token(p, t, (size_t)(s - t)) != 0)
      return -1;
  }
  return 0;
}

int ot_filter_rules_parse(ot_filter_rules *rules, const char *text, const char *name, char *err,
                          size_t errlen) {
  parser p = {rules, name, 0, 0, OUTSIDE, -1, err, errlen};
  for (const char *s = text; *s;) {
    const char *nl = strchr(s, '\n');
    const char *end = nl ? nl : s + strlen(s);
    p.line++;
    if (parse_line(&p, s, end) != 0) {
      ot_filter_rules_free(rules);
      return -1;
    }
    s = nl ? nl + 1 : end;
  }
  if (p.block != OUTSIDE) {
    p.line = p.begin_line;
    fail(&p, "block not closed (%s missing)",
         p.block == REGIONS ? "SCOREP_REGION_NAMES_END" : "SCOREP_FILE_NAMES_END");
    ot_filter_rules_free(rules);
    return -1;
  }
  return 0;
}

static char *read_all(const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  char *text = NULL;
  size_t len = 0;
  if (f) {
    FILE *m = open_memstream(&text, &len);
    char buf[4096];
    size_t n;
    while (m && (n = fread(buf, 1, sizeof buf, f)) > 0)
      fwrite(buf, 1, n, m);
    int bad = ferror(f);
    if (m)
      fclose(m);
    fclose(f);
    if (!bad && m && text)
      return text;
    free(text);
    errno = bad ? EIO : ENOMEM;
  }
  snprintf(err, errlen, "%s: %s", path, strerror(errno));
  return NULL;
}

int ot_filter_rules_load(ot_filter_rules *rules, const char *path, char *err, size_t errlen) {
  char *text = read_all(path, err, errlen);
  if (!text)
    return -1;
  int rc = ot_filter_rules_parse(rules, text, path, err, errlen);
  free(text);
  return rc;
}

static int any_match(const char *pat, const char *const *names, int nnames) {
  for (int i = 0; i < nnames; i++)
    if (names[i] && fnmatch(pat, names[i], 0) == 0)
      return 1;
  return 0;
}

int ot_filter_rules_excluded(const ot_filter_rules *rules, const char *const *names, int nnames,
                             const char *file) {
  const char *base = file ? strrchr(file, '/') : NULL;
  const char *files[2] = {file, base ? base + 1 : NULL};
  int by_name = 0, by_file = 0;
  for (size_t i = 0; i < rules->n; i++) {
    const ot_filter_rule *r = &rules->rule[i];
    if (r->file ? any_match(r->pattern, files, 2) : any_match(r->pattern, names, nnames))
      *(r->file ? &by_file : &by_name) = r->exclude;
  }
  return by_name || by_file;
}

void ot_filter_rules_free(ot_filter_rules *rules) {
  for (size_t i = 0; i < rules->n; i++)
    free(rules->rule[i].pattern);
  free(rules->rule);
  rules->rule = NULL;
  rules->n = rules->cap = 0;
}
