# Counter service (PAPI): set-up, per-thread event sets, record mask.
# Without PAPI (OMPTRACE_COUNTERS off or not found) a stand-in reports
# OMPTRACE_METRICS as unavailable and records no values.
if(OMPTRACE_COUNTERS_BUILT)
  target_sources(omptrace PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/counters.c
    ${CMAKE_CURRENT_LIST_DIR}/counters_mask.c
    ${CMAKE_CURRENT_LIST_DIR}/counters_thread.c)
  target_link_libraries(omptrace PRIVATE PkgConfig::PAPI)
else()
  target_sources(omptrace PRIVATE ${CMAKE_CURRENT_LIST_DIR}/counters_none.c)
endif()
