# ot_counters_bench: cost of PAPI counter reads per recorded event (SDE
# counters, so it runs on machines without hardware counters too).
add_executable(ot_counters_bench ${CMAKE_CURRENT_LIST_DIR}/counters_bench.c
  ${CMAKE_CURRENT_LIST_DIR}/counters_work.c ${CMAKE_CURRENT_LIST_DIR}/counters_papi_read.c)
target_include_directories(ot_counters_bench PRIVATE ${OMPTRACE_SDE_INCLUDE})
target_compile_definitions(ot_counters_bench PRIVATE OT_BENCH_TOOL="$<TARGET_FILE:omptrace>")
target_link_libraries(ot_counters_bench PRIVATE OpenMP::OpenMP_C PkgConfig::PAPI ${OMPTRACE_LIBSDE})
add_dependencies(ot_counters_bench omptrace)
