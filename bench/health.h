/* BOTS-style health simulation for ot_scale (bench/health.c). */
#ifndef OMPTRACE_BENCH_HEALTH_H
#define OMPTRACE_BENCH_HEALTH_H

/* Simulates a village tree `levels` deep for `steps` steps and prints the
 * totals and the time of the simulation. */
void health_run(int levels, int steps);

#endif
