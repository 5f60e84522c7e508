/* Fault handling (docs/recording.md, "When things go wrong"): the archive
 * is written after terminating and crash signals, quick_exit() and in fork
 * children; a signal writes snapshots of a running program. The life cycle
 * (../tool.c) calls these. */
#ifndef OMPTRACE_FAULTS_H
#define OMPTRACE_FAULTS_H

/* At the end of initialize, recording on: installs the signal handlers
 * (OMPTRACE_SIGNALS), the snapshot signal and thread, quick_exit and fork
 * hooks. end_run is the normal finalize (called at quick_exit). */
void ot_faults_init(void (*end_run)(void));

/* 1 for the first caller only: the normal finalize and the signal handler
 * both end the run, and only one of them may write the archive.
 * signal-safe (a lock-free atomic exchange). */
int ot_faults_claim_end(void);

/* At the start of the normal finalize: 1 when it is to write the archive
 * (no signal handler or fork child claimed the end first). Stops the
 * snapshot thread and takes the crash handlers out; the terminating
 * signals' handlers stay until ot_faults_stop: such a signal meanwhile ends
 * the process with one line saying how to recover the archive, and leaves
 * no anchor of an unfinished one (docs/recording.md). */
int ot_faults_finalize_begin(void);

/* At the end of finalize (always, also when ot_faults_finalize_begin gave
 * 0): stops the snapshot thread and takes our signal handlers out (the
 * runtime unmaps the tool after finalize). */
void ot_faults_stop(void);

#endif
