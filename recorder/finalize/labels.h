/* Names that programs give to points and regions through omp_control_tool
 * (events/control.c, share/include/omptrace.h): the LABEL records that
 * carry a name, and the USER-paradigm regions named after it. */
#ifndef OMPTRACE_LABELS_H
#define OMPTRACE_LABELS_H

#include "buffer/record.h"

#include <stdint.h>

typedef struct ot_label {
  char s[OT_LABEL_MAX + 1];
  uint32_t n;
} ot_label;

/* Appends the bytes of one LABEL record. */
void ot_label_add(ot_label *l, const ot_rec *r);
/* Region named by the label at the call site cp (its file and line):
 * a point (zero length, role ARTIFICIAL) or a region (role CODE). */
uint32_t ot_label_region(const ot_label *l, uint64_t cp, int point);

#endif
