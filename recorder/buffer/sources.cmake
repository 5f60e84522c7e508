# Per-thread chunked buffers (the hot path's memory).
target_sources(omptrace PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/thread_buffer.c)
