# Counter service (PAPI): set-up, per-thread event sets, record mask.
list(APPEND OT_RECORDER_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/counters.c
  ${CMAKE_CURRENT_LIST_DIR}/counters_mask.c
  ${CMAKE_CURRENT_LIST_DIR}/counters_thread.c)
