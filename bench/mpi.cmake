# ot_mpi_bench: cost per MPI message and barrier without the tool, with
# the OpenMP tool only and with libomptrace-mpi.so (bench/mpi_bench.py).
add_executable(ot_mpi_bench ${CMAKE_CURRENT_LIST_DIR}/mpi_bench.c)
target_compile_options(ot_mpi_bench PRIVATE -O2 -g)
target_link_libraries(ot_mpi_bench PRIVATE MPI::MPI_C OpenMP::OpenMP_C)
add_dependencies(ot_mpi_bench omptrace omptrace-mpi)

# ot_mpi_halo: a LULESH-like 8-rank job (halo exchange with the face
# neighbours, an allreduce and many short parallel loops per iteration)
# whose MPI_Init and finalize bench/mpi_phases.py times.
add_executable(ot_mpi_halo ${CMAKE_CURRENT_LIST_DIR}/mpi_halo.c)
target_compile_options(ot_mpi_halo PRIVATE -O2 -g)
target_link_libraries(ot_mpi_halo PRIVATE MPI::MPI_C OpenMP::OpenMP_C)
add_dependencies(ot_mpi_halo omptrace omptrace-mpi omptrace-merge omptrace-recover)
