/* Offload regions and parameters (docs/otf2-mapping.md, "Offload"): the
 * names, roles and source positions of target constructs, their data
 * operations and kernels, and device events, as regions on the host
 * thread; the replay (finalize/replay.c) opens and closes them. And the
 * accelerator location of each device the run offloaded to. */
#include "finalize/offload.h"
#include "buffer/record.h"
#include "core/srcloc.h"
#include "finalize/defs.h"
#include "finalize/intern.h"
#include "finalize/symbols.h"

#include <omp-tools.h>
#include <stdio.h>

static ot_u64map cache;   /* (what << 56 | cp) -> region id */
static uint32_t dev_base; /* location of the first device */
static uint64_t dev_mask; /* bit d: device d has a location */
static uint32_t dev_name[64];

/* The region name and role of what (enum ot_offload_what). */
static const char *name_of(unsigned what, OTF2_RegionRole *role) {
  static const char *const constructs[] = {"target", "target enter data", "target exit data",
                                           "target update"};
  static const char *const ops[] = {
      "target alloc",  "target transfer to device", "target transfer from device",
      "target delete", "target associate",          "target disassociate"};
  static const char *const devices[] = {"device initialize", "device finalize", "device load",
                                        "device unload"};
  *role = OTF2_REGION_ROLE_ARTIFICIAL;
  if (what >= OT_OFF_CONSTRUCT && what < OT_OFF_CONSTRUCT + 16) {
    /* ompt_target_t: 1-4, and the nowait forms 9-12 */
    unsigned k = (what - OT_OFF_CONSTRUCT - 1) & 7u;
    *role = OTF2_REGION_ROLE_WRAPPER;
    return k < 4 ? constructs[k] : "target";
  }
  if (what >= OT_OFF_DATA_OP && what < OT_OFF_DATA_OP + 64) {
    /* ompt_target_data_op_t: 1-6, the async forms 0x11-0x16 */
    unsigned k = ((what - OT_OFF_DATA_OP) & 0xfu) - 1;
    if (k > 5)
      return "target data op";
    *role = k == 0   ? OTF2_REGION_ROLE_ALLOCATE
            : k == 3 ? OTF2_REGION_ROLE_DEALLOCATE
            : k < 3  ? OTF2_REGION_ROLE_DATA_TRANSFER
                     : OTF2_REGION_ROLE_WRAPPER;
    return ops[k];
  }
  if (what == OT_OFF_KERNEL) {
    *role = OTF2_REGION_ROLE_FUNCTION;
    return "target kernel";
  }
  unsigned k = what - OT_OFF_DEVICE - 1;
  return k < 4 ? devices[k] : "device";
}

static uint32_t define(unsigned what, uint64_t cp) {
  OTF2_RegionRole role;
  const char *construct = name_of(what, &role);
  char name[1024];
  ot_symbol s[8];
  int n = cp ? ot_symbols_lookup(cp - 1, s, 8) : 0;
  ot_srcloc_region_name(name, sizeof name, construct, cp, s, n);
  int known = n >= 1 && s[0].file && s[0].line;
  uint32_t line = known ? s[0].line : 0;
  return ot_defs_region(name, role, OTF2_PARADIGM_OPENMP, known ? s[0].file : NULL, line, line);
}

uint32_t ot_offload_region(unsigned what, uint64_t cp) {
  uint64_t key = ((uint64_t)what << 56) | (cp & 0x00ffffffffffffffull);
  int is_new = 0;
  uint64_t *slot = ot_u64map_put(&cache, key, &is_new);
  if (slot && !is_new)
    return (uint32_t)*slot;
  uint32_t id = define(what, cp);
  if (slot)
    *slot = id;
  return id;
}

uint32_t ot_offload_param(enum ot_offload_param p) {
  static const char *const names[] = {"device", "bytes", "requested teams"};
  return ot_defs_parameter(names[p], OTF2_PARAMETER_TYPE_UINT64);
}

uint32_t ot_offload_op_device(const ot_rec *r) {
  unsigned op = r->kind & 0xfu;
  /* to the device: the destination; from it, delete, disassociate: the source */
  return op == ompt_target_data_transfer_from_device || op == ompt_target_data_delete ||
                 op == ompt_target_data_disassociate
             ? r->a >> 16
             : r->a & 0xffffu;
}

void ot_offload_devices(uint32_t nthreads, uint64_t mask) {
  dev_base = nthreads;
  dev_mask = mask;
}

uint32_t ot_offload_ndevices(void) {
  return (uint32_t)__builtin_popcountll(dev_mask);
}

uint32_t ot_offload_device_loc(uint32_t dev) {
  if (dev >= 64 || !(dev_mask >> dev & 1))
    return UINT32_MAX;
  return dev_base + (uint32_t)__builtin_popcountll(dev_mask & ((1ull << dev) - 1));
}

void ot_offload_intern(void) {
  char name[32];
  for (uint32_t d = 0; d < 64; d++) {
    if (dev_mask >> d & 1) {
      snprintf(name, sizeof name, "OpenMP device %u", d);
      dev_name[d] = ot_defs_string(name);
    }
  }
}

OTF2_ErrorCode ot_offload_write_locations(OTF2_GlobalDefWriter *w, const uint64_t *events) {
  for (uint32_t d = 0; d < 64; d++) {
    if (!(dev_mask >> d & 1))
      continue;
    uint32_t loc = ot_offload_device_loc(d), group = loc - dev_base + 1; /* group 0: the process */
    OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteLocationGroup(
        w, group, dev_name[d], OTF2_LOCATION_GROUP_TYPE_ACCELERATOR, 1, 0);
    if (e == OTF2_SUCCESS)
      e = OTF2_GlobalDefWriter_WriteLocation(
          w, loc, dev_name[d], OTF2_LOCATION_TYPE_ACCELERATOR_STREAM, events[loc], group);
    if (e != OTF2_SUCCESS)
      return e;
  }
  return OTF2_SUCCESS;
}

void ot_offload_free(void) {
  ot_u64map_free(&cache);
  dev_mask = 0;
}
