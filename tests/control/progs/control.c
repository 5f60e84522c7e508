/* omp_control_tool scenarios with exact expectations (tests/control/
 * control_tests.py). Each mode prints the return value of every call, and
 * runs parallel regions of 2 threads around the commands:
 *   pause     3 regions, pause, 4 regions, start, 2 regions
 *   inside    one region: 2 loops, pause, 3 loops, start, 1 loop
 *   end       3 regions, end, 2 regions, start, pause
 *   paused    (OMPTRACE_START=paused) 4 regions, start, 2 regions
 *   flush     3 regions, flush, SIGKILL (the log must hold the 3)
 *   killpause 3 regions, pause, 2 regions, flush, SIGKILL
 *   noflush   3 regions, SIGKILL (the control of `flush`)
 *   marks     3 marks, 2 named regions around a parallel region
 *   fork      2 regions, pause, fork (child: 1 region, start, 2 regions)
 *   snapshot  2 regions, pause, 1 region, "waiting" until file argv[2]
 *             exists (a snapshot is taken meanwhile), start, 1 region
 *   own_usr2  its own SIGUSR2 handler first thing in main (before the
 *             runtime starts the tool), then regions until file argv[2]
 *             exists; prints the signals it received
 *   late_usr2 the same with the handler installed after the first region
 *             (replacing the tool's) */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "omptrace.h" /* share/include */

static double sink;

static void regions(int n) {
  for (int i = 0; i < n; i++) {
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      sink += 1.0;
    }
  }
}

static void call(const char *what, int command, int modifier, const char *arg) {
  printf("%s %d\n", what, omp_control_tool(command, modifier, (void *)arg));
}

static void loops(int n) {
  for (int i = 0; i < n; i++) {
#pragma omp for
    for (int k = 0; k < 4; k++) {
#pragma omp atomic
      sink += 1.0;
    }
  }
}

static void inside(void) {
#pragma omp parallel num_threads(2)
  {
    loops(2);
#pragma omp barrier
#pragma omp masked
    call("pause", omp_control_tool_pause, 0, NULL);
#pragma omp barrier
    loops(3);
#pragma omp barrier
#pragma omp masked
    call("start", omp_control_tool_start, 0, NULL);
#pragma omp barrier
    loops(1);
  }
}

static void marks(void) {
  for (int i = 0; i < 3; i++)
    call("mark", OMPTRACE_CONTROL_MARK, 0, "checkpoint");
  for (int i = 0; i < 2; i++) {
    call("begin", OMPTRACE_CONTROL_BEGIN, 0, "solver phase");
    regions(1);
    call("end", OMPTRACE_CONTROL_END, 0, "solver phase");
  }
  call("pause", omp_control_tool_pause, 0, "io");
  call("start", omp_control_tool_start, 7, NULL);
}

static void forked(void) {
  regions(2);
  call("pause", omp_control_tool_pause, 0, NULL);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    regions(1);
    call("child start", omp_control_tool_start, 0, NULL);
    regions(2);
    return;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  printf("child exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void snapshot(const char *go) {
  regions(2);
  call("pause", omp_control_tool_pause, 0, NULL);
  regions(1);
  printf("waiting\n");
  fflush(stdout);
  for (int i = 0; i < 20000 && access(go, F_OK) != 0; i++) /* at most 200 s */
    usleep(10000);
  call("start", omp_control_tool_start, 0, NULL);
  regions(1);
}

static volatile sig_atomic_t usr2_received;

static void on_usr2(int sig) {
  (void)sig;
  usr2_received++;
}

static void handle_usr2(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr2;
  sigaction(SIGUSR2, &sa, NULL);
}

/* `omptrace snapshot` must not deliver SIGUSR2 to the program that owns it. */
static void own_usr2(const char *go) {
  printf("waiting\n");
  fflush(stdout);
  for (int i = 0; i < 20000 && access(go, F_OK) != 0 && !usr2_received; i++) { /* 200 s */
    regions(1);
    usleep(10000);
  }
  printf("signals %d\n", (int)usr2_received);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "pause";
  if (!strcmp(mode, "own_usr2"))
    handle_usr2();
  regions(0 * omp_get_max_threads()); /* the runtime is up: the tool answers */
  if (!strcmp(mode, "own_usr2") || !strcmp(mode, "late_usr2")) {
    regions(1);
    if (!strcmp(mode, "late_usr2"))
      handle_usr2();
    own_usr2(argv[2]);
  } else if (!strcmp(mode, "pause")) {
    regions(3);
    call("pause", omp_control_tool_pause, 0, NULL);
    call("pause again", omp_control_tool_pause, 0, NULL);
    regions(4);
    call("start", omp_control_tool_start, 0, NULL);
    call("start again", omp_control_tool_start, 0, NULL);
    call("unknown", 5, 0, NULL);
    regions(2);
  } else if (!strcmp(mode, "inside")) {
    inside();
  } else if (!strcmp(mode, "end")) {
    regions(3);
    call("end", omp_control_tool_end, 0, NULL);
    regions(2);
    call("start", omp_control_tool_start, 0, NULL);
    call("pause", omp_control_tool_pause, 0, NULL);
  } else if (!strcmp(mode, "paused")) {
    regions(4);
    call("start", omp_control_tool_start, 0, NULL);
    regions(2);
  } else if (!strcmp(mode, "flush") || !strcmp(mode, "noflush") || !strcmp(mode, "killpause")) {
    regions(3);
    if (!strcmp(mode, "killpause")) {
      call("pause", omp_control_tool_pause, 0, NULL);
      regions(2);
    }
    if (strcmp(mode, "noflush"))
      call("flush", omp_control_tool_flush, 0, NULL);
    fflush(stdout);
    raise(SIGKILL);
  } else if (!strcmp(mode, "marks")) {
    marks();
  } else if (!strcmp(mode, "fork")) {
    forked();
  } else if (!strcmp(mode, "snapshot") && argc > 2) {
    snapshot(argv[2]);
  }
  printf("sink %.0f\n", sink);
  return 0;
}
