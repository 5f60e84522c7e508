/* Code addresses to source: elfutils libdw over the recorded process's
 * modules (the live /proc/self/maps when the run was loaded live, the maps
 * text saved in the log otherwise, so ASLR and dlopen'ed objects are
 * covered either way), cached per address. Used at finalize and by
 * omptrace-recover. Strings stay valid until ot_symbols_close. */
#ifndef OMPTRACE_SYMBOLS_H
#define OMPTRACE_SYMBOLS_H

#include <stdint.h>

typedef struct ot_symbol {
  const char *function; /* demangled-free name as in DWARF/ELF, or NULL */
  const char *file;     /* source file, or NULL without debug info */
  uint32_t line;        /* 0 when unknown */
  const char *module;   /* object file basename */
  uint64_t offset;      /* pc - function start (for "func+0x1f" names) */
} ot_symbol;

typedef struct ot_run ot_run;
/* After ot_run_load. 0, or -1 when the modules cannot be read (lookups
 * then name addresses only). */
int ot_symbols_open(const ot_run *run);
/* Resolves pc (a return address: callers pass pc-1 for call sites). Fills
 * frames[0..n-1] innermost first: inlined frames, then the containing
 * function. Returns n >= 1 (function "??" when nothing is known). */
int ot_symbols_lookup(uint64_t pc, ot_symbol *frames, int max);
/* 1 when pc lies in the OpenMP runtime library (libomp's text). */
int ot_symbols_in_runtime(uint64_t pc);
/* 1 when a recorded code pointer names a place in the program: not NULL
 * and not inside the runtime (libomp reports either now and then). */
static inline int ot_symbols_user_cp(uint64_t cp) {
  return cp && !ot_symbols_in_runtime(cp);
}
void ot_symbols_close(void);

#endif
