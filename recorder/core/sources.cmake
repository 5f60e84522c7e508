# Core: configuration, clock, log, thread registry, sites. It depends on
# no other folder (the tool's life cycle is ../tool.c, above them all).
target_sources(omptrace_pipeline PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/config.c
  ${CMAKE_CURRENT_LIST_DIR}/config_table.c
  ${CMAKE_CURRENT_LIST_DIR}/config_env.c
  ${CMAKE_CURRENT_LIST_DIR}/config_signal.c
  ${CMAKE_CURRENT_LIST_DIR}/config_throttle.c
  ${CMAKE_CURRENT_LIST_DIR}/output_dir.c
  ${CMAKE_CURRENT_LIST_DIR}/safe_dir.c
  ${CMAKE_CURRENT_LIST_DIR}/clock.c
  ${CMAKE_CURRENT_LIST_DIR}/log.c
  ${CMAKE_CURRENT_LIST_DIR}/features.c
  ${CMAKE_CURRENT_LIST_DIR}/threads.c
  ${CMAKE_CURRENT_LIST_DIR}/sites.c
  ${CMAKE_CURRENT_LIST_DIR}/srcloc.c
  ${CMAKE_CURRENT_LIST_DIR}/constructs.c
  ${CMAKE_CURRENT_LIST_DIR}/filter_rules.c
  ${CMAKE_CURRENT_LIST_DIR}/filter.c
  ${CMAKE_CURRENT_LIST_DIR}/throttle.c)
