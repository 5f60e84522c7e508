/* Score-P filter files: a line-oriented parser (comments from '#', blanks
 * separate patterns, a backslash keeps the next character, '\ ' or '\#',
 * in a pattern) and the last-rule-wins matcher. */
#include "core/filter_rules.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The file is opened without blocking (a FIFO nobody writes to) and read
 * only when it is a regular file of at most OT_FILTER_MAX_BYTES, checked on
 * the open descriptor: /dev/zero or a FIFO would never end, a huge file
 * would hold the program before main. The read stops at the bound too, for
 * a file growing meanwhile. */
static char *read_all(const char *path, char *err, size_t errlen) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    if (fd >= 0)
      close(fd);
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s: not a regular file", path);
    close(fd);
    return NULL;
  }
  if (st.st_size > OT_FILTER_MAX_BYTES) {
    snprintf(err, errlen, "%s: larger than %d MiB (%lld bytes)", path, OT_FILTER_MAX_BYTES >> 20,
             (long long)st.st_size);
    close(fd);
    return NULL;
  }
  size_t cap = (size_t)st.st_size + 1, len = 0;
  char *text = malloc(cap);
  for (;;) {
    if (!text) {
      snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
      break;
    }
    if (len + 1 == cap) { /* grew since fstat */
      if (cap > OT_FILTER_MAX_BYTES) {
        snprintf(err, errlen, "%s: larger than %d MiB", path, OT_FILTER_MAX_BYTES >> 20);
        break;
      }
      char *t = realloc(text, cap * 2 < 4096 ? 4096 : cap * 2);
      if (!t) {
        snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
        break;
      }
      text = t;
      cap = cap * 2 < 4096 ? 4096 : cap * 2;
    }
    ssize_t r = read(fd, text + len, cap - 1 - len);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      snprintf(err, errlen, "%s: %s", path, strerror(errno));
      break;
    }
    if (r == 0) {
      text[len] = '\0';
      close(fd);
      return text;
    }
    len += (size_t)r;
  }
  free(text);
  close(fd);
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
