# Finalize pipeline: the run loaded from the record log -> OTF2 archive.
target_sources(omptrace_pipeline PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/blocks.c
  ${CMAKE_CURRENT_LIST_DIR}/chunk_pool.c
  ${CMAKE_CURRENT_LIST_DIR}/defs.c
  ${CMAKE_CURRENT_LIST_DIR}/evt_out.c
  ${CMAKE_CURRENT_LIST_DIR}/evt_queue.c
  ${CMAKE_CURRENT_LIST_DIR}/evt_stage.c
  ${CMAKE_CURRENT_LIST_DIR}/filtered.c
  ${CMAKE_CURRENT_LIST_DIR}/intern.c
  ${CMAKE_CURRENT_LIST_DIR}/labels.c
  ${CMAKE_CURRENT_LIST_DIR}/local_defs.c
  ${CMAKE_CURRENT_LIST_DIR}/mpi_comms.c
  ${CMAKE_CURRENT_LIST_DIR}/mpi_events.c
  ${CMAKE_CURRENT_LIST_DIR}/mpi_regions.c
  ${CMAKE_CURRENT_LIST_DIR}/otf2_io.c
  ${CMAKE_CURRENT_LIST_DIR}/out.c
  ${CMAKE_CURRENT_LIST_DIR}/pauses.c
  ${CMAKE_CURRENT_LIST_DIR}/regions.c
  ${CMAKE_CURRENT_LIST_DIR}/replay.c
  ${CMAKE_CURRENT_LIST_DIR}/run.c
  ${CMAKE_CURRENT_LIST_DIR}/run_frames.c
  ${CMAKE_CURRENT_LIST_DIR}/scan.c
  ${CMAKE_CURRENT_LIST_DIR}/suspended.c
  ${CMAKE_CURRENT_LIST_DIR}/symbols.c
  ${CMAKE_CURRENT_LIST_DIR}/teams.c
  ${CMAKE_CURRENT_LIST_DIR}/throttled.c
  ${CMAKE_CURRENT_LIST_DIR}/timeline.c)
