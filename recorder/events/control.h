/* Run-time control of recording (omp_control_tool, OMPTRACE_START): the
 * state lives in ot_recording (core/thread.h); every change is recorded
 * as a CONTROL_TOOL record whose kind is the new state, so the archive
 * writer knows the paused intervals (docs/control.md). */
#ifndef OMPTRACE_EVENTS_CONTROL_H
#define OMPTRACE_EVENTS_CONTROL_H

#include "core/thread.h"

/* A thread that begins while recording is paused records that it starts
 * paused. */
void ot_control_thread_begin(ot_thread *t);
/* The same for the forking thread of a fork child (its log starts anew);
 * the child's control mutex starts unlocked. */
void ot_control_fork_child(ot_thread *t);

#endif
