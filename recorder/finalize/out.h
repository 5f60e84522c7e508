/* The archive writer's entry point (finalize/out.c) and the archive times
 * every finalize component that writes events shares. */
#ifndef OMPTRACE_OUT_H
#define OMPTRACE_OUT_H

#include "finalize/timeline.h"

#include <stdint.h>

typedef struct ot_run ot_run;

/* Runs the whole finalize pipeline (scan, symbols, samples, replay into
 * OTF2, definitions) on a run loaded from its log (finalize/run.h) into the
 * archive run->dir/traces and prints the exit line. Returns 0 on success. */
int ot_finalize_write(const ot_run *run);

#endif
