/* The fault tests' traced program: runs the steps named on its command
 * line, so each fault can be placed at a known point with exact counts
 * before it. Every phase runs PHASE regions of THREADS threads.
 *   par1, par2   PHASE parallel regions, each with one barrier
 *   big          BIG regions (many records: overflows a small buffer)
 *   wait         prints "reached K" and reads one line from stdin (EOF too)
 *   hold         the same inside a parallel region (on thread 0, after a
 *                barrier: every thread is in the region)
 *   own_term     installs the program's own SIGTERM handler
 *   sigwait      prints "reached K", waits for that handler, prints "handled 15"
 *   abort, segv, bus, fpe, ill  thread 1 of a parallel region crashes
 *                after its barrier: abort(), a store to address 8, a load
 *                from a mapping past its file's end, an integer division
 *                by zero, an invalid instruction (ud2 on x86-64)
 *   exit, quick_exit   thread 1 leaves the process with status 5 / 6 there
 *   _exit        _exit(7) on the initial thread, outside any region
 * At the end it prints "done <sum>" and returns 0 (3 after sigwait). */
#include <errno.h>
#include <omp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define THREADS 3
#define PHASE 8
#define BIG 2000

static long sum;
static int reached;

static void wait_line(void) {
  printf("reached %d\n", ++reached);
  fflush(stdout);
  char line[64];
  if (!fgets(line, sizeof line, stdin))
    clearerr(stdin);
}
/* The handler may run on any thread: it wakes the initial thread through a
 * pipe. */
static int term_pipe[2] = {-1, -1};

static void on_term(int sig) {
  char c = (char)sig;
  int saved = errno;
  if (write(term_pipe[1], &c, 1) < 0)
    errno = saved;
  errno = saved;
}

static void par1(void) {
  for (int r = 0; r < PHASE; r++) {
#pragma omp parallel num_threads(THREADS) /* @par1 */
    {
#pragma omp barrier /* @bar1 */
#pragma omp atomic
      sum += omp_get_thread_num();
    }
  }
}

static void par2(void) {
  for (int r = 0; r < PHASE; r++) {
#pragma omp parallel num_threads(THREADS) /* @par2 */
    {
#pragma omp barrier /* @bar2 */
#pragma omp atomic
      sum += 1;
    }
  }
}

static void big(void) {
  for (int r = 0; r < BIG; r++) {
#pragma omp parallel num_threads(THREADS) /* @big */
    {
#pragma omp barrier /* @bigbar */
    }
  }
}

static void hold(void) {
#pragma omp parallel num_threads(THREADS) /* @hold */
  {
#pragma omp barrier /* @holdbar */
    if (omp_get_thread_num() == 0)
      wait_line();
  }
}

/* SIGBUS from the hardware: a page of a file mapped, then the file cut to
 * nothing, then the page read. */
static void bus_error(void) {
  FILE *f = tmpfile();
  if (!f || ftruncate(fileno(f), 4096) != 0)
    abort();
  volatile char *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fileno(f), 0);
  if (p == MAP_FAILED || ftruncate(fileno(f), 0) != 0)
    abort();
  sum += p[0];
}

/* SIGFPE from the hardware: an integer division by zero, left to the CPU
 * in sanitizer builds too (UBSan would report it and exit instead). */
__attribute__((no_sanitize("integer-divide-by-zero"))) static int divide(int a, int b) {
  return a / b;
}

/* Thread 1 ends the process after the region's barrier; the others wait in
 * the end-of-region barrier. */
static void crash(const char *how) {
#pragma omp parallel num_threads(THREADS) /* @crash */
  {
#pragma omp barrier /* @crashbar */
    if (omp_get_thread_num() == 1) {
      if (!strcmp(how, "abort"))
        abort();
      if (!strcmp(how, "segv"))
        *(volatile int *)(uintptr_t)8 = 1;
      if (!strcmp(how, "bus"))
        bus_error();
      if (!strcmp(how, "fpe")) {
        volatile int zero = 0;
        sum += divide(1, zero);
      }
      if (!strcmp(how, "ill"))
        __builtin_trap();
      if (!strcmp(how, "exit"))
        exit(5);
      quick_exit(6);
    }
  }
}

int main(int argc, char **argv) {
  int status = 0;
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if (!strcmp(s, "par1")) {
      par1();
    } else if (!strcmp(s, "par2")) {
      par2();
    } else if (!strcmp(s, "big")) {
      big();
    } else if (!strcmp(s, "wait")) {
      wait_line();
    } else if (!strcmp(s, "hold")) {
      hold();
    } else if (!strcmp(s, "own_term")) {
      struct sigaction sa;
      memset(&sa, 0, sizeof sa);
      sa.sa_handler = on_term;
      sigemptyset(&sa.sa_mask);
      if (pipe(term_pipe) != 0 || sigaction(SIGTERM, &sa, NULL) != 0) {
        perror("victim: own_term");
        return 2;
      }
    } else if (!strcmp(s, "sigwait")) {
      printf("reached %d\n", ++reached);
      fflush(stdout);
      char c = 0;
      while (read(term_pipe[0], &c, 1) < 0 && errno == EINTR)
        ;
      printf("handled %d\n", c);
      status = 3;
    } else if (!strcmp(s, "abort") || !strcmp(s, "segv") || !strcmp(s, "bus") ||
               !strcmp(s, "fpe") || !strcmp(s, "ill") || !strcmp(s, "exit") ||
               !strcmp(s, "quick_exit")) {
      crash(s);
    } else if (!strcmp(s, "_exit")) {
      _exit(7);
    } else {
      fprintf(stderr, "victim: unknown step %s\n", s);
      return 2;
    }
  }
  printf("done %ld\n", sum);
  return status;
}
