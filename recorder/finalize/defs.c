/* Interned global definitions; ids are dense and in creation order, so
 * writing them by id respects references among definitions of one kind
 * (calling-context parents come first). */
#include "finalize/defs.h"
#include "finalize/defs_write.h"
#include "finalize/intern.h"

#include <string.h>

static ot_intern strings, regions, scls, contexts, generators, params, attrs;

typedef struct region_key {
  uint32_t name, file, begin, end;
  uint32_t role, paradigm;
} region_key;
typedef struct scl_key {
  uint32_t file, line;
} scl_key;
typedef struct context_key {
  uint32_t region, scl, parent;
} context_key;
typedef struct generator_key {
  uint32_t name, mode;
  uint64_t period;
} generator_key;
typedef struct param_key {
  uint32_t name, type;
} param_key;
typedef struct attr_key {
  uint32_t name, description, type;
} attr_key;

uint32_t ot_defs_string(const char *s) {
  if (!s)
    return OTF2_UNDEFINED_STRING;
  return ot_intern_get(&strings, s, (uint32_t)strlen(s), NULL);
}

uint32_t ot_defs_region(const char *name, OTF2_RegionRole role, OTF2_Paradigm paradigm,
                        const char *file, uint32_t begin_line, uint32_t end_line) {
  region_key k = {ot_defs_string(name), ot_defs_string(file), begin_line, end_line, role, paradigm};
  return ot_intern_get(&regions, &k, sizeof k, NULL);
}

const char *ot_defs_region_name(uint32_t region) {
  const region_key *k = ot_intern_key(&regions, region);
  return ot_intern_key(&strings, k->name);
}

uint32_t ot_defs_source_location(const char *file, uint32_t line) {
  scl_key k = {ot_defs_string(file ? file : "??"), line};
  return ot_intern_get(&scls, &k, sizeof k, NULL);
}

uint32_t ot_defs_calling_context(uint32_t region, uint32_t source_location, uint32_t parent) {
  context_key k = {region, source_location, parent};
  return ot_intern_get(&contexts, &k, sizeof k, NULL);
}

uint32_t ot_defs_interrupt_generator(const char *name, OTF2_InterruptGeneratorMode mode,
                                     uint64_t period_ns) {
  generator_key k = {ot_defs_string(name), mode, period_ns};
  return ot_intern_get(&generators, &k, sizeof k, NULL);
}

uint32_t ot_defs_parameter(const char *name, OTF2_ParameterType type) {
  param_key k = {ot_defs_string(name), type};
  return ot_intern_get(&params, &k, sizeof k, NULL);
}

uint32_t ot_defs_attribute(const char *name, const char *description, OTF2_Type type) {
  attr_key k = {ot_defs_string(name), ot_defs_string(description ? description : ""), type};
  return ot_intern_get(&attrs, &k, sizeof k, NULL);
}

uint32_t ot_defs_lost_records(void) {
  return ot_defs_attribute("omptrace::lost_records",
                           "records dropped before this MeasurementOnOff(OFF) because the "
                           "recorder could not write its spill files (full disk); saturates at "
                           "4294967295",
                           OTF2_TYPE_UINT64);
}

uint32_t ot_defs_stopped(void) {
  return ot_defs_attribute("omptrace::stopped",
                           "recording of this location stopped here because the program ended "
                           "before the trace was finished (recovered from the record log)",
                           OTF2_TYPE_STRING);
}

#define CHECK(call)                                                                                \
  do {                                                                                             \
    OTF2_ErrorCode e_ = (call);                                                                    \
    if (e_ != OTF2_SUCCESS)                                                                        \
      return e_;                                                                                   \
  } while (0)

OTF2_ErrorCode ot_defs_write_strings(OTF2_GlobalDefWriter *w) {
  for (uint32_t i = 0; i < strings.n; i++)
    CHECK(OTF2_GlobalDefWriter_WriteString(w, i, ot_intern_key(&strings, i)));
  return OTF2_SUCCESS;
}

OTF2_ErrorCode ot_defs_write_regions(OTF2_GlobalDefWriter *w) {
  for (uint32_t i = 0; i < regions.n; i++) {
    const region_key *k = ot_intern_key(&regions, i);
    CHECK(OTF2_GlobalDefWriter_WriteRegion(w, i, k->name, k->name, k->name,
                                           (OTF2_RegionRole)k->role, (OTF2_Paradigm)k->paradigm,
                                           OTF2_REGION_FLAG_NONE, k->file, k->begin, k->end));
  }
  return OTF2_SUCCESS;
}

OTF2_ErrorCode ot_defs_write_parameters(OTF2_GlobalDefWriter *w) {
  for (uint32_t i = 0; i < params.n; i++) {
    const param_key *k = ot_intern_key(&params, i);
    CHECK(OTF2_GlobalDefWriter_WriteParameter(w, i, k->name, (OTF2_ParameterType)k->type));
  }
  for (uint32_t i = 0; i < attrs.n; i++) {
    const attr_key *k = ot_intern_key(&attrs, i);
    CHECK(OTF2_GlobalDefWriter_WriteAttribute(w, i, k->name, k->description, (OTF2_Type)k->type));
  }
  return OTF2_SUCCESS;
}

OTF2_ErrorCode ot_defs_write_sampling(OTF2_GlobalDefWriter *w) {
  for (uint32_t i = 0; i < generators.n; i++) {
    const generator_key *k = ot_intern_key(&generators, i);
    CHECK(OTF2_GlobalDefWriter_WriteInterruptGenerator(
        w, i, k->name, (OTF2_InterruptGeneratorMode)k->mode, OTF2_BASE_DECIMAL, -9, k->period));
  }
  for (uint32_t i = 0; i < scls.n; i++) {
    const scl_key *k = ot_intern_key(&scls, i);
    CHECK(OTF2_GlobalDefWriter_WriteSourceCodeLocation(w, i, k->file, k->line));
  }
  for (uint32_t i = 0; i < contexts.n; i++) {
    const context_key *k = ot_intern_key(&contexts, i);
    CHECK(OTF2_GlobalDefWriter_WriteCallingContext(w, i, k->region, k->scl, k->parent));
  }
  return OTF2_SUCCESS;
}

void ot_defs_reset(void) {
  ot_intern_free(&strings);
  ot_intern_free(&regions);
  ot_intern_free(&scls);
  ot_intern_free(&contexts);
  ot_intern_free(&generators);
  ot_intern_free(&params);
  ot_intern_free(&attrs);
}
