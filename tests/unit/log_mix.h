/* A synthetic but realistic record stream for the log codec's tests and
 * benchmark (bench/log_codec.c): the master thread of a program running
 * parallel regions with work-sharing loops, barriers, explicit tasks and a
 * critical section, TSC timestamps 100-5000 ticks apart, code pointers in
 * a PIE's text (0x55..), ids built by OT_TASK_ID / OT_PARALLEL_ID.
 * Deterministic for a given seed. */
#ifndef OMPTRACE_UNIT_LOG_MIX_H
#define OMPTRACE_UNIT_LOG_MIX_H

#include <stddef.h>
#include <stdint.h>

/* Fills buf (8-byte aligned, cap bytes) with whole records carrying nval
 * counter values each; returns the bytes used and sets *nrec. */
size_t ot_mix_generate(uint8_t *buf, size_t cap, unsigned nval, uint64_t seed, uint32_t *nrec);

/* xorshift64*: the tests' reproducible random numbers. */
uint64_t ot_mix_rand(uint64_t *state);

#endif
