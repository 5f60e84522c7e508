# Per-thread chunked buffers, the spill thread and the finalize streams.
list(APPEND OT_RECORDER_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/thread_buffer.c
  ${CMAKE_CURRENT_LIST_DIR}/spill.c
  ${CMAKE_CURRENT_LIST_DIR}/stream.c)
