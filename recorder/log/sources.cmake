# The durable record log. Format and reading (frames, codec, META text,
# record streams) belong to the pipeline that omptrace-recover shares; the
# flusher thread that writes the log belongs to the library only.
target_sources(omptrace PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/flusher.c
  ${CMAKE_CURRENT_LIST_DIR}/flush_pass.c)
target_sources(omptrace_pipeline PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/frame.c
  ${CMAKE_CURRENT_LIST_DIR}/codec.c
  ${CMAKE_CURRENT_LIST_DIR}/decode.c
  ${CMAKE_CURRENT_LIST_DIR}/meta.c
  ${CMAKE_CURRENT_LIST_DIR}/reader.c)
