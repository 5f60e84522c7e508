# Call-stack sampling service (signal handler side).
list(APPEND OT_RECORDER_SOURCES
  ${OT_RECORDER_DIR}/services/sampler.c
  ${OT_RECORDER_DIR}/services/sampler_capture.c
  ${OT_RECORDER_DIR}/services/sampler_hooks.c
  ${OT_RECORDER_DIR}/services/sampler_signal.c)
