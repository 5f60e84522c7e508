/* Test shim (LD_PRELOAD): perf_event_open refused, as a container's
 * seccomp profile or perf_event_paranoid refuses it, so the sampler's
 * fallback (POSIX CPU-time timers) is what the test sees. Every other
 * system call passes through to the C library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>

long syscall(long number, ...) {
  static long (*real)(long, ...);
  va_list ap;
  va_start(ap, number);
  long a[6];
  for (int i = 0; i < 6; i++)
    a[i] = va_arg(ap, long);
  va_end(ap);
  if (number == SYS_perf_event_open) {
    errno = EACCES;
    return -1;
  }
  if (!real)
    real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
