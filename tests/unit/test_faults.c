/* unit_faults: recorder/faults/select.c (OMPTRACE_SIGNALS and
 * OMPTRACE_SNAPSHOT_SIGNAL: exact masks and signals, bad values fall back
 * to the default) and core/threads.c's registry reset for a fork child
 * (the forking thread becomes location 0, the others are gone). */
#include "check.h"
#include "core/config.h"
#include "core/threads.h"
#include "faults/faults_int.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIT(s) (1ul << (s))
#define ALL                                                                                        \
  (BIT(SIGTERM) | BIT(SIGINT) | BIT(SIGHUP) | BIT(SIGQUIT) | BIT(SIGSEGV) | BIT(SIGBUS) |          \
   BIT(SIGFPE) | BIT(SIGILL) | BIT(SIGABRT))

static unsigned long mask_of(const char *v) {
  snprintf(ot_cfg.signals, sizeof ot_cfg.signals, "%s", v);
  return ot_faults_signal_mask();
}

static int snapshot_of(const char *v, int *explicit_set) {
  if (v) {
    setenv("OMPTRACE_SNAPSHOT_SIGNAL", v, 1);
    snprintf(ot_cfg.snapshot_signal, sizeof ot_cfg.snapshot_signal, "%s", v);
  } else {
    unsetenv("OMPTRACE_SNAPSHOT_SIGNAL");
    snprintf(ot_cfg.snapshot_signal, sizeof ot_cfg.snapshot_signal, "SIGUSR2");
  }
  return ot_faults_snapshot_signal(explicit_set);
}

static void signals(void) {
  CHECK_U64("all", mask_of("all"), ALL);
  CHECK_U64("ALL", mask_of("ALL"), ALL);
  CHECK_U64("none", mask_of("none"), 0);
  CHECK_U64("term,int", mask_of("term,int"), BIT(SIGTERM) | BIT(SIGINT));
  CHECK_U64("blanks, SIG prefix", mask_of(" SIGSEGV , abrt "), BIT(SIGSEGV) | BIT(SIGABRT));
  CHECK_U64("every name", mask_of("term,int,hup,quit,segv,bus,fpe,ill,abrt"), ALL);
  CHECK_U64("all plus one", mask_of("all,term"), ALL);
  /* Bad values: one line on stderr, then all. */
  CHECK_U64("unknown name", mask_of("term,usr1"), ALL);
  CHECK_U64("empty list", mask_of(",,"), ALL);
  CHECK_U64("empty", mask_of(""), ALL);
}

static void snapshot(void) {
  int ex = -1;
  CHECK_I64("default", snapshot_of(NULL, &ex), SIGUSR2);
  CHECK_I64("default not explicit", ex, 0);
  CHECK_I64("SIGUSR1", snapshot_of("SIGUSR1", &ex), SIGUSR1);
  CHECK_I64("explicit", ex, 1);
  CHECK_I64("usr2", snapshot_of("usr2", &ex), SIGUSR2);
  CHECK_I64("RTMIN+2", snapshot_of("SIGRTMIN+2", &ex), SIGRTMIN + 2);
  CHECK_I64("none", snapshot_of("none", &ex), 0);
  CHECK_I64("off", snapshot_of("off", &ex), 0);
  CHECK_I64("bad: SIGUSR2", snapshot_of("SIGSEGV", &ex), SIGUSR2);
  CHECK_I64("bad: not explicit", ex, 0);
}

static void names(void) {
  CHECK_STR("SIGTERM", ot_faults_signal_name(SIGTERM), "SIGTERM");
  CHECK_STR("SIGABRT", ot_faults_signal_name(SIGABRT), "SIGABRT");
  CHECK_STR("other", ot_faults_signal_name(SIGUSR1), "signal");
}

static void registry(void) {
  static ot_thread t0, t1, t2, t3;
  ot_thread *t[] = {&t0, &t1, &t2, &t3};
  for (int i = 0; i < 3; i++)
    CHECK_I64("register", ot_thread_register(t[i]), 0);
  CHECK_U64("three", ot_thread_count(), 3);
  ot_thread_registry_reset(t[2]);
  CHECK_U64("child: one", ot_thread_count(), 1);
  CHECK_TRUE("child: forking thread is 0", ot_thread_get(0) == t[2]);
  CHECK_U64("child: its loc", t[2]->loc, 0);
  CHECK_TRUE("child: slot 1 empty", ot_thread_get(1) == NULL);
  CHECK_TRUE("child: slot 2 empty", ot_thread_get(2) == NULL);
  CHECK_I64("child: new worker", ot_thread_register(t[3]), 0);
  CHECK_U64("child: new worker is 1", t[3]->loc, 1);
  CHECK_U64("child: two", ot_thread_count(), 2);
  ot_thread_registry_reset(NULL);
  CHECK_U64("unannounced thread forked: none", ot_thread_count(), 0);
  CHECK_TRUE("none: slot 0 empty", ot_thread_get(0) == NULL);
}

int main(void) {
  signals();
  snapshot();
  names();
  registry();
  return ut_done("unit_faults");
}
