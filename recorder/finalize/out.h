/* The archive writer's entry point (finalize/out.c) and the archive times
 * every finalize component that writes events shares. */
#ifndef OMPTRACE_OUT_H
#define OMPTRACE_OUT_H

#include "finalize/timeline.h"

#include <stdatomic.h>
#include <stdint.h>

typedef struct ot_run ot_run;

/* Runs the whole finalize pipeline (scan, symbols, samples, replay into
 * OTF2, definitions) on a run loaded from its log (finalize/run.h) into the
 * archive run->dir/traces and prints the exit line. Returns 0 on success. */
int ot_finalize_write(const ot_run *run);

/* 1 from the moment the archive written by ot_finalize_write is complete
 * (its anchor closed), 0 before; signal handlers read it (lock-free). */
extern atomic_int ot_finalize_archive_done;

#endif
