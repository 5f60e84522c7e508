/* One code address to source (elfutils libdw): function, file, line and
 * the inline chain; and the region name built from them. Shared by
 * finalize (finalize/symbols.c caches it per address) and by the filter
 * decisions taken while the program runs (core/filter.c), so both name a
 * construct the same way. */
#ifndef OMPTRACE_SRCLOC_H
#define OMPTRACE_SRCLOC_H

#include <elfutils/libdwfl.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ot_symbol {
  const char *function; /* demangled-free name as in DWARF/ELF, or NULL */
  const char *file;     /* source file, or NULL without debug info */
  uint32_t line;        /* 0 when unknown */
  const char *module;   /* object file basename */
  uint64_t offset;      /* pc - function start (for "func+0x1f" names) */
  /* For code in a parallel region's body (function ".omp_outlined.*"):
   * the source function around the pragma, or NULL. */
  const char *source_function;
} ot_symbol;

/* Keeps a string for as long as the caller needs it (returns the copy). */
typedef const char *(*ot_srcloc_keep)(void *ctx, const char *s);

/* Fills frames[0..n-1] for pc, innermost first (inlined frames, then the
 * containing function) and returns n >= 1 (function "??" when nothing is
 * known). dwfl may be NULL. */
int ot_srcloc_resolve(Dwfl *dwfl, uint64_t pc, ot_symbol *frames, int max, ot_srcloc_keep keep,
                      void *ctx);
/* "<construct> @ <file>:<line>" (or "@ function+0x..", "@ module+0x..",
 * "@ 0x..." without line information; the construct alone for cp 0)
 * from the frames of cp - 1. */
void ot_srcloc_region_name(char *buf, size_t len, const char *construct, uint64_t cp,
                           const ot_symbol *s, int n);

#endif
