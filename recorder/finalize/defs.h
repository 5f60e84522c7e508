/* Global OTF2 definitions, collected while events are written and written
 * in dependency order when the archive is closed (finalize/defs.c).
 * Every function interns: the same arguments give the same id. Finalize is
 * single-threaded, so nothing here locks. */
#ifndef OMPTRACE_DEFS_H
#define OMPTRACE_DEFS_H

#include <otf2/otf2.h>
#include <stdint.h>

uint32_t ot_defs_string(const char *s);
/* name: "<construct> @ <file>:<line>" or a function name; file may be NULL. */
uint32_t ot_defs_region(const char *name, OTF2_RegionRole role, OTF2_Paradigm paradigm,
                        const char *file, uint32_t begin_line, uint32_t end_line);
/* The name of a region ot_defs_region returned. */
const char *ot_defs_region_name(uint32_t region);
uint32_t ot_defs_source_location(const char *file, uint32_t line);
/* parent = OTF2_UNDEFINED_CALLING_CONTEXT for roots; parents must be
 * interned before children. */
uint32_t ot_defs_calling_context(uint32_t region, uint32_t source_location, uint32_t parent);
uint32_t ot_defs_interrupt_generator(const char *name, OTF2_InterruptGeneratorMode mode,
                                     uint64_t period_ns);
uint32_t ot_defs_parameter(const char *name, OTF2_ParameterType type);
uint32_t ot_defs_attribute(const char *name, const char *description, OTF2_Type type);
/* The UINT64 attribute "omptrace::lost_records" of a MeasurementOnOff(OFF):
 * records dropped in that gap. Defined only when a gap is written. */
uint32_t ot_defs_lost_records(void);
/* The STRING attribute "omptrace::stopped" of the MeasurementOnOff(OFF)
 * that ends each location of a run that did not finish. */
uint32_t ot_defs_stopped(void);

#endif
