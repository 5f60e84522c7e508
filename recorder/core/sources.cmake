# Core: tool life cycle, configuration, clock, log, thread registry, sites.
target_sources(omptrace PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/tool.c
  ${CMAKE_CURRENT_LIST_DIR}/config.c
  ${CMAKE_CURRENT_LIST_DIR}/config_table.c
  ${CMAKE_CURRENT_LIST_DIR}/config_env.c
  ${CMAKE_CURRENT_LIST_DIR}/config_signal.c
  ${CMAKE_CURRENT_LIST_DIR}/output_dir.c
  ${CMAKE_CURRENT_LIST_DIR}/clock.c
  ${CMAKE_CURRENT_LIST_DIR}/log.c
  ${CMAKE_CURRENT_LIST_DIR}/features.c
  ${CMAKE_CURRENT_LIST_DIR}/threads.c
  ${CMAKE_CURRENT_LIST_DIR}/sites.c)
