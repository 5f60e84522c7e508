/* Region definitions of the MPI calls libomptrace-mpi.so records: the
 * function's name and OTF2 role (Score-P's convention, which Vampir's MPI
 * views need) and the call site's source position. */
#include "finalize/mpi_regions.h"
#include "buffer/mpi_calls.h"
#include "finalize/defs.h"
#include "finalize/symbols.h"

static const struct {
  const char *name;
  OTF2_RegionRole role;
} calls[OT_MPI_CALL_COUNT] = {
#define OT_MPI_CALL_ROW(n, r) {"MPI_" #n, OTF2_REGION_ROLE_##r},
    OT_MPI_CALLS(OT_MPI_CALL_ROW)
#undef OT_MPI_CALL_ROW
};

static int seen;
static uint64_t rank_plus1;

void ot_mpi_note_init(uint64_t r) {
  if (r && r <= (uint64_t)UINT32_MAX + 1)
    rank_plus1 = r;
}

int ot_mpi_seen(uint32_t *rank) {
  if (!seen)
    return 0;
  if (!rank_plus1)
    return 1;
  *rank = (uint32_t)(rank_plus1 - 1);
  return 2;
}

void ot_mpi_regions_free(void) {
  seen = 0;
  rank_plus1 = 0;
}

uint32_t ot_mpi_region(uint32_t call, uint64_t cp) {
  if (call >= OT_MPI_CALL_COUNT)
    return OTF2_UNDEFINED_REGION;
  seen = 1;
  ot_symbol s[8];
  int n = cp ? ot_symbols_lookup(cp - 1, s, 8) : 0;
  int known = n >= 1 && s[0].file && s[0].line;
  uint32_t line = known ? s[0].line : 0;
  return ot_defs_region(calls[call].name, calls[call].role, OTF2_PARADIGM_MPI,
                        known ? s[0].file : NULL, line, line);
}
