/* What the parts of faults/ share: the omptrace-recover command prepared
 * at initialize (so handlers only spawn it) and signal selection. */
#ifndef OMPTRACE_FAULTS_INT_H
#define OMPTRACE_FAULTS_INT_H

#include <signal.h>
#include <spawn.h>
#include <sys/types.h>

/* Absolute path of omptrace-recover, "" when none was found. */
extern char ot_recover_path[4096];
/* The program's environment without OMP_TOOL_LIBRARIES and LD_PRELOAD, so
 * omptrace-recover is not traced itself. */
extern char **ot_recover_envp;
/* Resets every signal to its default and unblocks all in the child. */
extern posix_spawnattr_t ot_recover_attr;

/* Looks for omptrace-recover next to libomptrace.so, then in ../bin and
 * ../libexec/omptrace; builds the environment and spawn attributes.
 * Returns 0 when found. */
int ot_recover_prepare(void);

/* Starts omptrace-recover with argv (argv[0] is replaced by the path),
 * its stdout on /dev/null (the program's output stays the program's);
 * -1 when it could not start. signal-safe: glibc's posix_spawn
 * (clone(CLONE_VM|CLONE_VFORK), no allocation or lock, child signals
 * reset before exec). */
pid_t ot_recover_spawn(char **argv);

/* Which signals the handlers take (OMPTRACE_SIGNALS): a mask of bit
 * (1 << signo). Prints one line for a bad value and uses "all". */
unsigned long ot_faults_signal_mask(void);
/* OMPTRACE_SNAPSHOT_SIGNAL: the signal, 0 for none. *explicit_set is 1
 * when the variable was set. Prints one line for a bad value. */
int ot_faults_snapshot_signal(int *explicit_set);
/* "SIGTERM" for the signals handled here, "signal" otherwise. signal-safe. */
const char *ot_faults_signal_name(int sig);

/* signals.c, sigwatch.c, snapshot.c, fork.c */
void ot_faults_signals_install(unsigned long mask);
/* Every handler, or (crash_only) all but the terminating signals'. */
void ot_faults_signals_remove(int crash_only);
/* The watch (sigwatch.c): a thread of ours that looks every few ms
 * whether the program replaced one of our crash handlers and, if so,
 * calls ot_faults_signals_rearm; stopped by ot_faults_signals_remove. */
void ot_sigwatch_start(void);
void ot_sigwatch_stop(void);
/* Puts our handler back in front of every crash handler the program
 * replaced it with; *handlers gets (1 << sig) for each where that was a
 * handler of the program's (not SIG_DFL or SIG_IGN). -1 when the watch is
 * over (the end is claimed, or no crash handler is ours). */
int ot_faults_signals_rearm(unsigned long *handlers);
/* In a fork child: the watch's thread is not there (signals.c's flag). */
void ot_faults_signals_rearm_forked(void);
/* ot_faults_claim_end for the normal finalize: a terminating signal then
 * cuts it short with one line (signals.c). */
int ot_faults_claim_finalize(void);
int ot_snapshot_start(int sig, int explicit_set);
void ot_snapshot_stop(void);
void ot_snapshot_fork_child(void);
void ot_fork_hooks_install(void);
/* Removes <dir>.fork-<pid> directories of children that are gone and
 * never recorded anything (fork()+exec). */
void ot_fork_cleanup(void);

#endif
