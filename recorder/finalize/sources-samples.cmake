# Calling contexts of samples and their OTF2 output.
list(APPEND OT_RECORDER_SOURCES
  ${OT_RECORDER_DIR}/finalize/contexts.c
  ${OT_RECORDER_DIR}/finalize/contexts_nodes.c
  ${OT_RECORDER_DIR}/finalize/contexts_waits.c
  ${OT_RECORDER_DIR}/finalize/samples_out.c)
