/* One-line messages on stderr. Each line is formatted first and written
 * with a single write(2) so lines from several threads never interleave. */
#include "core/log.h"
#include "core/config.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static void emit_line(const char *fmt, va_list ap) {
  char line[1024];
  int n = snprintf(line, sizeof line, "omptrace: ");
  /* Callers va_start `ap`; the analyzer does not follow them. */
  // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
  int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
  if (m < 0)
    m = 0;
  size_t len = (size_t)n + (size_t)m;
  if (len > sizeof line - 2)
    len = sizeof line - 2;
  line[len++] = '\n';
  ssize_t w = write(STDERR_FILENO, line, len);
  (void)w; /* nothing sensible to do if stderr is gone */
}

void ot_info(const char *fmt, ...) {
  if (ot_cfg.quiet)
    return;
  va_list ap;
  va_start(ap, fmt);
  emit_line(fmt, ap);
  va_end(ap);
}

void ot_verbose(const char *fmt, ...) {
  if (ot_cfg.verbose < 1)
    return;
  va_list ap;
  va_start(ap, fmt);
  emit_line(fmt, ap);
  va_end(ap);
}

void ot_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit_line(fmt, ap);
  va_end(ap);
}
