# gcc-built programs (progs/gcc_*.c) traced as a user would: through the
# launcher, which runs them on libomp's GOMP entry points (libgomp has no
# tools interface), once per libomp N of the support matrix
# (tests/llvm/llvm_runtimes.cmake) as recorder.gcc.llvmN.<case>, labelled
# gcc and llvmN; and recorder.gcc.libgomp: what libgomp alone gives.
# Sanitizer builds skip them: an uninstrumented gcc binary cannot load the
# instrumented tool.
find_program(OMPTRACE_GCC gcc)
if(NOT OMPTRACE_GCC OR OMPTRACE_SANITIZE)
  if(NOT OMPTRACE_GCC)
    message(STATUS "omptrace: recorder.gcc tests skipped: no gcc")
  endif()
  return()
endif()
set(REC_GCC_CASES gcc_parallel gcc_single gcc_loops gcc_sections gcc_tasks gcc_sync
  gcc_reduction)
set(REC_LAUNCHER ${CMAKE_BINARY_DIR}/share/omptrace)
# Without the matrix (OMPTRACE_LLVM_MATRIX=OFF) only on libomp 14.
set(gcc_runtimes ${OMPTRACE_LLVM_FOUND})
if(NOT OMPTRACE_LLVM_MATRIX)
  set(gcc_runtimes "")
  if(OMPTRACE_LIBOMP_DIR_14)
    set(gcc_runtimes 14)
  endif()
endif()
# One binary per program: it links libgomp, whichever libomp it then runs on.
foreach(c ${REC_GCC_CASES})
  set(gcc_exe ${CMAKE_CURRENT_BINARY_DIR}/gcc/${c})
  add_custom_command(OUTPUT ${gcc_exe}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/gcc
    COMMAND ${OMPTRACE_GCC} -fopenmp -g -O0 -Wall -Wextra -o ${gcc_exe} ${REC_SRC}/${c}.c
    DEPENDS ${REC_SRC}/${c}.c
    COMMENT "Building ${c} with gcc"
    VERBATIM)
  add_custom_target(rec_${c} ALL DEPENDS ${gcc_exe})
  foreach(n ${gcc_runtimes})
    add_test(NAME recorder.gcc.llvm${n}.${c}
      COMMAND ${OMPTRACE_PYTHON3} ${REC_PY}/gcc_run.py --launcher ${REC_LAUNCHER} --prog ${gcc_exe}
        --src ${REC_SRC}/${c}.c --out ${REC_WORK}/gcc/llvm${n}/${c} --case ${c}
        --libomp-dir ${OMPTRACE_LIBOMP_DIR_${n}} --runtime ${n} --recover ${REC_RECOVER})
    set_tests_properties(recorder.gcc.llvm${n}.${c} PROPERTIES LABELS "recorder;gcc;llvm${n}" TIMEOUT 300)
  endforeach()
endforeach()
add_test(NAME recorder.gcc.libgomp
  COMMAND ${OMPTRACE_PYTHON3} ${REC_PY}/gcc_run.py --launcher ${REC_LAUNCHER} --libgomp
    --prog ${CMAKE_CURRENT_BINARY_DIR}/gcc/gcc_parallel --lib ${REC_LIB}
    --out ${REC_WORK}/gcc/libgomp)
set_tests_properties(recorder.gcc.libgomp PROPERTIES LABELS "recorder;gcc" TIMEOUT 300)
