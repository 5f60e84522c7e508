# Calling contexts of samples and their OTF2 output (only with sampling;
# samples_none.c stands in for ot_samples_* otherwise).
if(OMPTRACE_SAMPLING_BUILT)
  target_sources(omptrace_pipeline PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/contexts.c
    ${CMAKE_CURRENT_LIST_DIR}/contexts_nodes.c
    ${CMAKE_CURRENT_LIST_DIR}/contexts_waits.c
    ${CMAKE_CURRENT_LIST_DIR}/samples_out.c
    ${CMAKE_CURRENT_LIST_DIR}/samples_count.c)
else()
  target_sources(omptrace_pipeline PRIVATE ${CMAKE_CURRENT_LIST_DIR}/samples_none.c)
endif()
