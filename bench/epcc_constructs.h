/* EPCC-style microbenchmark kernels: each runs `n` instances of one OpenMP
 * construct with a team of OT_BENCH_THREADS threads. An "instance" is what
 * the team does per iteration (one region, one barrier, one loop, one task,
 * one lock or critical entry per thread), so overheads divide cleanly. */
#ifndef OMPTRACE_BENCH_EPCC_CONSTRUCTS_H
#define OMPTRACE_BENCH_EPCC_CONSTRUCTS_H

#include <stddef.h>
#include <stdint.h>

#define OT_BENCH_THREADS 2

typedef struct ot_bench_construct {
  const char *name;
  const char *what;        /* one line for --list */
  uint64_t instances;      /* per timed block, sized for ~5-10 ms without a tool */
  void (*run)(uint64_t n); /* runs n instances */
} ot_bench_construct;

extern const ot_bench_construct ot_bench_constructs[];
extern const size_t ot_bench_construct_count;

const ot_bench_construct *ot_bench_find(const char *name);

#endif
