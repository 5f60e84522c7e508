# Per-thread chunked buffers, the spill thread and the finalize streams.
target_sources(omptrace PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/thread_buffer.c
  ${CMAKE_CURRENT_LIST_DIR}/spill.c
  ${CMAKE_CURRENT_LIST_DIR}/stream.c)
