/* Counted JSON output: every byte goes through here so the final line can
 * report bytes per event; strings are escaped per RFC 8259. */
#include "convert.h"

#include <inttypes.h>
#include <string.h>

void cv_write(cv_out *o, const char *s, size_t n) {
  fwrite(s, 1, n, o->f);
  o->bytes += n;
}

void cv_printf(cv_out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vfprintf(o->f, fmt, ap);
  va_end(ap);
  if (n > 0)
    o->bytes += (uint64_t)n;
}

/* Control characters as \u00XX; quote and backslash escaped; other bytes
 * (UTF-8 from the archive) pass through. */
char *cv_escape(const char *s, char *buf, size_t n) {
  size_t o = 0;
  for (; *s && o + 7 < n; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      buf[o++] = '\\';
      buf[o++] = (char)c;
    } else if (c < 0x20) {
      o += (size_t)snprintf(buf + o, n - o, "\\u%04x", c);
    } else {
      buf[o++] = (char)c;
    }
  }
  buf[o] = 0;
  return buf;
}

void cv_str(cv_out *o, const char *s) {
  char buf[4096];
  cv_escape(s ? s : "", buf, sizeof buf);
  cv_printf(o, "\"%s\"", buf);
}

void cv_us(cv_out *o, uint64_t ns) {
  cv_printf(o, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}
