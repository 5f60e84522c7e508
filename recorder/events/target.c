/* Offload: target constructs, their data operations and kernel submits,
 * and device initialization and code loading. Both the OpenMP 5.1 _emi
 * callbacks (a begin and an end for each operation) and the 5.0 ones (one
 * call for a data op or submit) land here; register.c registers the old
 * form only where the runtime refuses the _emi one, so no event comes
 * twice. Every handler only appends one record (record.h). */
#include "events/emit.h"
#include "events/handlers.h"

static inline unsigned endpoint_bits(ompt_scope_endpoint_t endpoint) {
  return endpoint == ompt_scope_begin ? OT_TGT_BEGIN : OT_TGT_END;
}

static inline void target_record(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                                 const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, endpoint == ompt_scope_begin ? OT_TARGET_BEGIN : OT_TARGET_END, (unsigned)kind,
            OT_DEV_NUM(device_num), (uint64_t)codeptr_ra, 0);
}

static inline void data_op_record(unsigned kind, int src_device_num, int dest_device_num,
                                  size_t bytes, const void *codeptr_ra) {
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, OT_TARGET_DATA_OP, kind,
            OT_DEV_NUM(src_device_num) << 16 | OT_DEV_NUM(dest_device_num), (uint64_t)bytes,
            (uint64_t)codeptr_ra);
}

static inline void submit_record(unsigned kind, unsigned int requested_num_teams) {
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, OT_TARGET_SUBMIT, kind, requested_num_teams, 0, 0);
}

static inline void device_record(unsigned kind, int device_num, uint64_t bytes) {
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, OT_DEVICE, kind, OT_DEV_NUM(device_num), bytes, 0);
}

void on_ompt_callback_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                                 ompt_data_t *task_data, ompt_data_t *target_task_data,
                                 ompt_data_t *target_data, const void *codeptr_ra) {
  (void)task_data;
  (void)target_task_data;
  (void)target_data;
  target_record(kind, endpoint, device_num, codeptr_ra);
}

void on_ompt_callback_target(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                             ompt_data_t *task_data, ompt_id_t target_id, const void *codeptr_ra) {
  (void)task_data;
  (void)target_id;
  target_record(kind, endpoint, device_num, codeptr_ra);
}

void on_ompt_callback_target_data_op_emi(ompt_scope_endpoint_t endpoint,
                                         ompt_data_t *target_task_data, ompt_data_t *target_data,
                                         ompt_id_t *host_op_id, ompt_target_data_op_t optype,
                                         void *src_addr, int src_device_num, void *dest_addr,
                                         int dest_device_num, size_t bytes,
                                         const void *codeptr_ra) {
  (void)target_task_data;
  (void)target_data;
  (void)host_op_id;
  (void)src_addr;
  (void)dest_addr;
  data_op_record(((unsigned)optype & OT_TGT_OPTYPE) | endpoint_bits(endpoint), src_device_num,
                 dest_device_num, bytes, codeptr_ra);
}

void on_ompt_callback_target_data_op(ompt_id_t target_id, ompt_id_t host_op_id,
                                     ompt_target_data_op_t optype, void *src_addr,
                                     int src_device_num, void *dest_addr, int dest_device_num,
                                     size_t bytes, const void *codeptr_ra) {
  (void)target_id;
  (void)host_op_id;
  (void)src_addr;
  (void)dest_addr;
  data_op_record((unsigned)optype & OT_TGT_OPTYPE, src_device_num, dest_device_num, bytes,
                 codeptr_ra);
}

void on_ompt_callback_target_submit_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                                        ompt_id_t *host_op_id, unsigned int requested_num_teams) {
  (void)target_data;
  (void)host_op_id;
  submit_record(endpoint_bits(endpoint), requested_num_teams);
}

void on_ompt_callback_target_submit(ompt_id_t target_id, ompt_id_t host_op_id,
                                    unsigned int requested_num_teams) {
  (void)target_id;
  (void)host_op_id;
  submit_record(0, requested_num_teams);
}

void on_ompt_callback_device_initialize(int device_num, const char *type, ompt_device_t *device,
                                        ompt_function_lookup_t lookup, const char *documentation) {
  (void)type;
  (void)device;
  (void)lookup;
  (void)documentation;
  device_record(OT_DEVICE_INIT, device_num, 0);
}

void on_ompt_callback_device_finalize(int device_num) {
  device_record(OT_DEVICE_FINI, device_num, 0);
}

void on_ompt_callback_device_load(int device_num, const char *filename, int64_t offset_in_file,
                                  void *vma_in_file, size_t bytes, void *host_addr,
                                  void *device_addr, uint64_t module_id) {
  (void)filename;
  (void)offset_in_file;
  (void)vma_in_file;
  (void)host_addr;
  (void)device_addr;
  (void)module_id;
  device_record(OT_DEVICE_LOAD, device_num, (uint64_t)bytes);
}

void on_ompt_callback_device_unload(int device_num, uint64_t module_id) {
  (void)module_id;
  device_record(OT_DEVICE_UNLOAD, device_num, 0);
}
