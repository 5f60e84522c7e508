# Loop chunks (OMPTRACE_CHUNKS, docs/recording.md): progs/chunks.c built
# with clang-N for libomp N (tests/llvm/llvm_runtimes.cmake), recorded and
# read back with the python3-otf2 bindings and omptrace-summary's JSON:
# summary.chunks.llvmN.<construct>, labelled summary and llvmN. libomp 14
# gives no chunks: its test checks the one line and the summary's status.
if(OMPTRACE_PYTHON3 AND TARGET omptrace)
  foreach(n 14 15 16 19)
    if(NOT n IN_LIST OMPTRACE_LLVM_FOUND)
      message(STATUS "omptrace: loop chunk tests on libomp ${n} skipped: not in the LLVM matrix (missing, OMPTRACE_LLVM_MATRIX=OFF or a sanitizer build)")
      continue()
    endif()
    omptrace_llvm_program(summary_chunks_llvm${n} ${n} exe progs/chunks.c)
    if(n EQUAL 14)
      set(constructs none)
    else()
      set(constructs dynamic guided static10 taskloop distribute throttled off)
    endif()
    foreach(c ${constructs})
      add_test(NAME summary.chunks.llvm${n}.${c}
        COMMAND ${OMPTRACE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/chunks.py
          --lib $<TARGET_FILE:omptrace> --prog ${exe} --summary $<TARGET_FILE:omptrace-summary>
          --convert $<TARGET_FILE:omptrace-convert>
          --recover $<TARGET_FILE_DIR:omptrace>/omptrace-recover
          --work ${CMAKE_CURRENT_BINARY_DIR}/work-chunks/llvm${n}-${c} --construct ${c})
      set_tests_properties(summary.chunks.llvm${n}.${c} PROPERTIES LABELS "summary;llvm${n}")
    endforeach()
  endforeach()
endif()
