/* Offload regions and parameters for the replay (finalize/offload.c). */
#ifndef OMPTRACE_OFFLOAD_H
#define OMPTRACE_OFFLOAD_H

#include "buffer/record.h"

#include <otf2/otf2.h>
#include <stdint.h>

/* What a region stands for: a target construct (+ ompt_target_t), a data
 * operation (+ ompt_target_data_op_t), a kernel, a device event
 * (+ OT_DEVICE_*). */
enum ot_offload_what {
  OT_OFF_CONSTRUCT = 0,
  OT_OFF_DATA_OP = 16,
  OT_OFF_KERNEL = 80,
  OT_OFF_DEVICE = 96
};
enum ot_offload_param { OT_OFFP_DEVICE, OT_OFFP_BYTES, OT_OFFP_TEAMS };

/* Region of `what` at code pointer cp (0: no source position). */
uint32_t ot_offload_region(unsigned what, uint64_t cp);
/* The UINT64 parameter p ("device", "bytes", "requested teams"). */
uint32_t ot_offload_param(enum ot_offload_param p);
/* The device a TARGET_DATA_OP record works on (not the host's side). */
uint32_t ot_offload_op_device(const ot_rec *r);
/* Accelerator locations: one per device with a target construct (bit d
 * of mask: device d), numbered from nthreads on in device order. */
void ot_offload_devices(uint32_t nthreads, uint64_t mask);
uint32_t ot_offload_ndevices(void);
/* Location of device dev, UINT32_MAX when it has none. */
uint32_t ot_offload_device_loc(uint32_t dev);
/* Their names, before the strings are written; then their location groups
 * (ACCELERATOR, under the process) and locations (ACCELERATOR_STREAM), with
 * events[loc] events each, after the threads'. */
void ot_offload_intern(void);
OTF2_ErrorCode ot_offload_write_locations(OTF2_GlobalDefWriter *w, const uint64_t *events);
void ot_offload_free(void);

#endif
