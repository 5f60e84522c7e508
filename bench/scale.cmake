# Many threads and many tasks (bench/scale.c): peak memory, wall time and
# start-up perturbation of the per-thread buffers (docs/performance.md,
# "Many threads"). Run under /usr/bin/time -v with and without the tool.
add_executable(ot_scale ${CMAKE_CURRENT_LIST_DIR}/scale.c ${CMAKE_CURRENT_LIST_DIR}/health.c)
target_link_libraries(ot_scale PRIVATE OpenMP::OpenMP_C)
target_compile_options(ot_scale PRIVATE -O2 -g)
