# Call-stack sampling service (signal handler side). Without libunwind
# (OMPTRACE_SAMPLING off or not found) a stand-in reports OMPTRACE_SAMPLING
# as unavailable and takes no samples.
if(OMPTRACE_SAMPLING_BUILT)
  target_sources(omptrace PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/sampler.c
    ${CMAKE_CURRENT_LIST_DIR}/sampler_capture.c
    ${CMAKE_CURRENT_LIST_DIR}/sampler_hooks.c
    ${CMAKE_CURRENT_LIST_DIR}/sampler_perf.c
    ${CMAKE_CURRENT_LIST_DIR}/sampler_signal.c)
  target_link_libraries(omptrace PRIVATE PkgConfig::UNWIND)
else()
  target_sources(omptrace PRIVATE ${CMAKE_CURRENT_LIST_DIR}/sampler_none.c)
endif()
