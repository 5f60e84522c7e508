/* Named points and regions of omp_control_tool calls: the name comes in
 * LABEL records (20 bytes each) before its CONTROL_TOOL record. */
#include "finalize/labels.h"
#include "finalize/defs.h"
#include "finalize/symbols.h"

#include <string.h>

void ot_label_add(ot_label *l, const ot_rec *r) {
  uint8_t piece[20];
  memcpy(piece, &r->a, 4);
  memcpy(piece + 4, &r->b, 8);
  memcpy(piece + 12, &r->c, 8);
  uint32_t n = r->kind < 20 ? r->kind : 20;
  if (l->n + n > OT_LABEL_MAX)
    n = OT_LABEL_MAX - l->n;
  memcpy(l->s + l->n, piece, n);
  l->n += n;
  l->s[l->n] = 0;
}

uint32_t ot_label_region(const ot_label *l, uint64_t cp, int point) {
  ot_symbol s[8];
  int n = cp ? ot_symbols_lookup(cp - 1, s, 8) : 0;
  int known = n >= 1 && s[0].file && s[0].line;
  uint32_t line = known ? s[0].line : 0;
  return ot_defs_region(l->n ? l->s : "unnamed",
                        point ? OTF2_REGION_ROLE_ARTIFICIAL : OTF2_REGION_ROLE_CODE,
                        OTF2_PARADIGM_USER, known ? s[0].file : NULL, line, line);
}
