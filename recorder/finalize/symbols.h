/* Code addresses to source: elfutils libdw over the recorded process's
 * modules (the live /proc/self/maps when the run was loaded live, the maps
 * text saved in the log otherwise, so ASLR and dlopen'ed objects are
 * covered either way), cached per address. Used at finalize and by
 * omptrace-recover. Strings stay valid until ot_symbols_close. */
#ifndef OMPTRACE_SYMBOLS_H
#define OMPTRACE_SYMBOLS_H

#include "core/srcloc.h"

#include <stdint.h>

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
/* Lowest and end address of the runtime's text mappings together (both 0
 * when none is known): what lies outside is the program's, the answer for
 * almost every code pointer the replay asks about, without the search. */
extern uint64_t ot_symbols_rt_lo, ot_symbols_rt_hi;
/* 1 when a recorded code pointer names a place in the program: not NULL
 * and not inside the runtime (libomp reports either now and then). */
static inline int ot_symbols_user_cp(uint64_t cp) {
  if (cp < ot_symbols_rt_lo || cp >= ot_symbols_rt_hi)
    return cp != 0;
  return cp != 0 && !ot_symbols_in_runtime(cp);
}
void ot_symbols_close(void);

#endif
