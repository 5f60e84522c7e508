/* Samples into the archive (finalize/samples_out.c, owned by the sampling
 * service): builds calling contexts after the scan pass and merges each
 * location's samples into its event stream in time order. */
#ifndef OMPTRACE_SAMPLES_OUT_H
#define OMPTRACE_SAMPLES_OUT_H

#include <otf2/otf2.h>
#include <stdint.h>

typedef struct ot_run ot_run;
/* After ot_scan_run and ot_symbols_open. No-op when sampling was off. */
void ot_samples_prepare(const ot_run *run);
/* Writes loc's samples with raw timestamp <= limit_raw (UINT64_MAX: all
 * that remain) through finalize/evt_out.h. Times go through ot_out_ts so
 * they never decrease. Returns the first error. */
OTF2_ErrorCode ot_samples_emit_until(uint32_t loc, uint64_t limit_raw);
/* 1 when loc has a sample with raw timestamp <= limit_raw left to write. */
int ot_samples_due(uint32_t loc, uint64_t limit_raw);
/* 1 when any location has samples left to write. */
int ot_samples_any(void);
uint64_t ot_samples_taken(void); /* totals for the exit line */
uint64_t ot_samples_failed(void);
/* "omptrace::samples", samples expected and taken per location
 * (finalize/samples_count.c): prepared by ot_samples_prepare, written on
 * the process node with the global definitions. */
void ot_samples_count_prepare(const ot_run *run);
OTF2_ErrorCode ot_samples_count_write(OTF2_GlobalDefWriter *w, OTF2_SystemTreeNodeRef node);

#endif
