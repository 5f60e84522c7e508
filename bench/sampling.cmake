# Sampling overhead benchmark: ot_sampling_app (workload) and
# ot_sampling_bench (driver). Run:
#   build/bench/ot_sampling_bench --lib build/recorder/libomptrace.so \
#     --app build/bench/ot_sampling_app [--reps 5]
add_executable(ot_sampling_app ${CMAKE_CURRENT_LIST_DIR}/sampling_app.c)
target_compile_options(ot_sampling_app PRIVATE -O2 -g)
target_link_libraries(ot_sampling_app PRIVATE OpenMP::OpenMP_C)
add_executable(ot_sampling_bench ${CMAKE_CURRENT_LIST_DIR}/sampling_driver.c)
# LULESH's shape (many short regions under a deep call chain): the proxy
# of the issue-27 measurements (docs/performance.md).
add_executable(ot_lulesh_proxy ${CMAKE_CURRENT_LIST_DIR}/lulesh_proxy.c)
target_compile_options(ot_lulesh_proxy PRIVATE -O2 -g -fno-omit-frame-pointer)
target_link_libraries(ot_lulesh_proxy PRIVATE OpenMP::OpenMP_C)
