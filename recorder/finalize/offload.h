/* Offload regions and parameters for the replay (finalize/offload.c). */
#ifndef OMPTRACE_OFFLOAD_H
#define OMPTRACE_OFFLOAD_H

#include "buffer/record.h"

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
void ot_offload_free(void);

#endif
