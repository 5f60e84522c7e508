# Throttling on tiny tasks (bench/throttle_bench.py, docs/performance.md,
# "Throttling").
add_executable(ot_tinytasks ${CMAKE_CURRENT_LIST_DIR}/tinytasks.c)
target_link_libraries(ot_tinytasks PRIVATE OpenMP::OpenMP_C)
target_compile_options(ot_tinytasks PRIVATE -O2 -g)
