/* Calling contexts of samples, formed at finalize (finalize/contexts*.c).
 * A node is one level of a path: a region (function, OpenMP construct or
 * pseudo frame such as <OMP-implicit_barrier>) and the source location
 * within it. Paths are built leaf first and interned root first through
 * defs.h. */
#ifndef OMPTRACE_CONTEXTS_H
#define OMPTRACE_CONTEXTS_H

#include "services/sampler_buf.h"
#include <stdint.h>

#define OT_CTX_MAX_DEPTH 256

typedef struct ot_ctx_node {
  uint32_t region;
  uint32_t scl; /* OTF2_UNDEFINED_SOURCE_CODE_LOCATION when none */
} ot_ctx_node;

/* contexts.c: stitching. Call open after ot_scan_run and ot_symbols_open. */
typedef struct ot_run ot_run;
int ot_contexts_open(const ot_run *run);
/* Calling-context ids of capture c (a sample of location loc), root first,
 * into ids[0..n-1]; returns n (0: nothing to show). */
int ot_contexts_of_sample(uint32_t loc, const ot_capture *c, uint32_t *ids, int max);
void ot_contexts_close(void);

/* contexts_nodes.c: code addresses and constructs to nodes, cached. */
enum {
  OT_FRAME_OUTLINED = 1, /* an outlined OpenMP body: the last node stands for it */
  OT_FRAME_MAIN = 2,     /* outermost function is main: user paths stop here */
  OT_FRAME_RUNTIME = 4   /* in libomp or in this tool */
};
/* Nodes of one frame, innermost (inlined) first; returns the count and
 * sets *flags. exact: pc was interrupted (not a return address). Runtime
 * frames without a symbol are named "[OpenMP runtime]". */
int ot_ctx_frame_nodes(uint64_t pc, int exact, const ot_ctx_node **nodes, unsigned *flags);
/* The writer's Region for "parallel", "task" or "untied task" at codeptr
 * (0 allowed): "<construct> @ file:line". */
uint32_t ot_ctx_construct_region(const char *construct, uint64_t codeptr);
uint32_t ot_ctx_codeptr_scl(uint64_t codeptr); /* source location of codeptr - 1 */
uint32_t ot_ctx_pseudo_region(const char *name);
void ot_ctx_nodes_reset(void);

/* contexts_waits.c: the construct a thread waited in, from its records.
 * Load one location, then ask for its samples' times in increasing order. */
int ot_ctx_waits_load(const ot_run *run, uint32_t loc);
const char *ot_ctx_wait_at(uint64_t raw_ts); /* pseudo-frame name or NULL */
void ot_ctx_waits_free(void);

#endif
