/* Setting up and taking down the fault handling (faults.h). */
#include "faults/faults.h"
#include "core/log.h"
#include "faults/faults_int.h"

#include <stdlib.h>

static void (*end_run_fn)(void);

/* quick_exit() skips atexit handlers and libomp's finalize: the archive is
 * written here instead. */
static void at_quick(void) {
  if (end_run_fn)
    end_run_fn();
}

void ot_faults_init(void (*end_run)(void)) {
  end_run_fn = end_run;
  unsigned long mask = ot_faults_signal_mask();
  int explicit_set;
  int snap = ot_faults_snapshot_signal(&explicit_set);
  if (mask || snap)
    ot_recover_prepare();
  ot_faults_signals_install(mask);
  ot_snapshot_start(snap, explicit_set);
  at_quick_exit(at_quick);
  ot_fork_hooks_install();
}

int ot_faults_finalize_begin(void) {
  int ours = ot_faults_claim_finalize();
  ot_snapshot_stop();
  ot_faults_signals_remove(ours);
  return ours;
}

void ot_faults_stop(void) {
  ot_snapshot_stop();
  ot_faults_signals_remove(0);
  ot_fork_cleanup();
}
