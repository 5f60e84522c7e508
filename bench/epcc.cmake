# EPCC-style microbenchmark (ot_epcc), the no-op OMPT tool it is compared
# against, and a counting build of that tool for exact events per instance.
# bench/run.sh drives them.
set(OT_EPCC_DIR ${CMAKE_CURRENT_LIST_DIR})

add_executable(ot_epcc ${OT_EPCC_DIR}/epcc_main.c ${OT_EPCC_DIR}/epcc_constructs.c)
target_link_libraries(ot_epcc PRIVATE OpenMP::OpenMP_C)

foreach(tool ot_noop_tool ot_count_tool)
  add_library(${tool} SHARED ${OT_EPCC_DIR}/noop_tool.c)
  target_include_directories(${tool} PRIVATE ${OMPTRACE_OMPT_INCLUDE})
endforeach()
target_compile_definitions(ot_count_tool PRIVATE OT_NOOP_COUNT)

# Calls a tool's callbacks directly on one thread: recording cost per event
# without libomp and without a second thread.
add_executable(ot_hotpath ${OT_EPCC_DIR}/hotpath.c)
target_include_directories(ot_hotpath PRIVATE ${OMPTRACE_OMPT_INCLUDE})
target_link_libraries(ot_hotpath PRIVATE ${CMAKE_DL_LIBS})
