/* unit_log_meta: META text of the log (recorder/log/meta.c). ot_meta_put
 * appends "key=value\n" only when it fits, blanks the value's newlines and
 * refuses keys holding '=' or a newline; ot_meta_add keeps the last value
 * of each key over several frames, values keep '=' and blanks, malformed
 * lines are skipped. */
#include "check.h"
#include "log/meta.h"

#include <stdio.h>
#include <string.h>

static void put(void) {
  char buf[64];
  size_t len = 0;
  CHECK_I64("put", ot_meta_put(buf, sizeof buf, &len, "pid", "123"), 0);
  CHECK_I64("put with '=', blanks, newline",
            ot_meta_put(buf, sizeof buf, &len, "program", "a b=c\nd"), 0);
  CHECK_U64("length", len, 8 + 16);
  buf[len] = '\0';
  CHECK_STR("text", buf, "pid=123\nprogram=a b=c d\n");
  size_t before = len;
  CHECK_I64("does not fit",
            ot_meta_put(buf, sizeof buf, &len, "host", "01234567890123456789012345678901234"), -1);
  CHECK_U64("nothing appended", len, before);
  CHECK_I64("exactly fits",
            ot_meta_put(buf, sizeof buf, &len, "h", "0123456789012345678901234567890123456"), 0);
  CHECK_U64("full", len, sizeof buf);
  len = 0;
  CHECK_I64("key with '='", ot_meta_put(buf, sizeof buf, &len, "a=b", "1"), -1);
  CHECK_I64("key with newline", ot_meta_put(buf, sizeof buf, &len, "a\nb", "1"), -1);
  CHECK_I64("empty key", ot_meta_put(buf, sizeof buf, &len, "", "1"), -1);
  CHECK_U64("nothing appended", len, 0);
  CHECK_I64("empty value", ot_meta_put(buf, sizeof buf, &len, "k", ""), 0);
  CHECK_U64("k=\\n", len, 3);
}

static void parse(void) {
  ot_meta *m = ot_meta_new();
  const char f1[] = "version=1\nprogram=/bin/a b\nargs=x=1 y=2\nno equals sign\n=novalue\n"
                    "finished=0\nempty=\nlast=unterminated";
  CHECK_I64("add frame 1", ot_meta_add(m, f1, strlen(f1)), 0);
  CHECK_STR("version", ot_meta_get(m, "version"), "1");
  CHECK_STR("value with blank", ot_meta_get(m, "program"), "/bin/a b");
  CHECK_STR("value with '='", ot_meta_get(m, "args"), "x=1 y=2");
  CHECK_STR("empty value", ot_meta_get(m, "empty"), "");
  CHECK_STR("unterminated last line", ot_meta_get(m, "last"), "unterminated");
  CHECK_STR("line without '='", ot_meta_get(m, "no equals sign"), NULL);
  CHECK_STR("empty key", ot_meta_get(m, ""), NULL);
  CHECK_STR("missing key", ot_meta_get(m, "pid"), NULL);
  CHECK_STR("finished before", ot_meta_get(m, "finished"), "0");
  const char f2[] = "finished=1\n";
  ot_meta_add(m, f2, strlen(f2));
  CHECK_STR("later frame overrides", ot_meta_get(m, "finished"), "1");
  CHECK_STR("others kept", ot_meta_get(m, "version"), "1");
  /* Only len bytes count; an embedded NUL makes the line malformed. */
  const char f3[] = "cut=abcdef";
  ot_meta_add(m, f3, 7);
  CHECK_STR("length bounds the text", ot_meta_get(m, "cut"), "abc");
  const char f4[] = "nul=a\0b\nafter=ok\n";
  ot_meta_add(m, f4, sizeof f4 - 1);
  CHECK_STR("line with NUL skipped", ot_meta_get(m, "nul"), NULL);
  CHECK_STR("next line read", ot_meta_get(m, "after"), "ok");
  ot_meta_add(m, "", 0);
  /* Many keys: all kept (growth). */
  char line[32];
  for (int i = 0; i < 1000; i++) {
    int n = snprintf(line, sizeof line, "k%d=%d\n", i, i * 3);
    ot_meta_add(m, line, (size_t)n);
  }
  CHECK_STR("key 999", ot_meta_get(m, "k999"), "2997");
  CHECK_STR("key 0", ot_meta_get(m, "k0"), "0");
  ot_meta_free(m);
  ot_meta_free(NULL);
}

int main(void) {
  put();
  parse();
  return ut_done("unit_log_meta");
}
