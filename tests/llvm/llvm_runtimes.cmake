# The LLVM OpenMP runtimes the tests run on (the support matrix): for each
# N in OMPTRACE_LLVM_VERSIONS, clang-N and libomp N with its omp.h.
# libomp 14 is the system's; the others conflict with it as Debian packages,
# so they come unpacked into OMPTRACE_LLVM_CACHE (share/setup/install-deps.sh:
# <cache>/llvm-N/usr/lib/llvm-N/lib and .../lib/clang/<ver>/include).
# Sets OMPTRACE_CLANG_<N>, OMPTRACE_LIBOMP_DIR_<N>, OMPTRACE_OMP_INCLUDE_<N>
# (empty when that version is missing: one status line says so) and the list
# OMPTRACE_LLVM_FOUND (the versions found; empty when the matrix is off);
# omptrace_llvm_program() builds a program for one N.

set(OMPTRACE_LLVM_CACHE /var/cache/omptrace CACHE PATH
  "Directory holding the unpacked libomp N packages (llvm-N/usr/lib/llvm-N)")
# The matrix's tests (labels llvmN) run in the plain build of tests/run.sh;
# the sanitizer builds cannot load their tool into clang-N's uninstrumented
# programs, and the minimal build leaves them out for time.
option(OMPTRACE_LLVM_MATRIX "Run the test programs on every LLVM runtime found" ON)
set(OMPTRACE_LLVM_VERSIONS 14 15 16 19)
set(OMPTRACE_LLVM_FOUND "")

foreach(_n ${OMPTRACE_LLVM_VERSIONS})
  if(_n EQUAL 14)
    set(_libdir /usr/lib/llvm-14/lib)
    set(_names clang-14 clang)
    set(_how "apt-get install clang-14 libomp-14-dev")
  else()
    set(_libdir ${OMPTRACE_LLVM_CACHE}/llvm-${_n}/usr/lib/llvm-${_n}/lib)
    set(_names clang-${_n})
    set(_how "share/setup/install-deps.sh (clang-${_n}, libomp5-${_n} and libomp-${_n}-dev unpacked into ${OMPTRACE_LLVM_CACHE})")
  endif()
  # A clang of another version must not stand in for clang-N (and
  # find_program keeps a variable already set: the last version's clang).
  unset(_clang)
  find_program(_clang NAMES ${_names} NAMES_PER_DIR PATHS /usr/lib/llvm-${_n}/bin NO_CACHE)
  if(_clang AND _n EQUAL 14 AND NOT _clang MATCHES "14")
    execute_process(COMMAND ${_clang} -dumpversion OUTPUT_VARIABLE _ver ERROR_QUIET)
    if(NOT _ver MATCHES "^14\\.")
      set(_clang _clang-NOTFOUND)
    endif()
  endif()
  file(GLOB _incs ${_libdir}/clang/*/include/omp.h)
  set(_inc "")
  if(_incs)
    list(GET _incs 0 _first)
    get_filename_component(_inc ${_first} DIRECTORY)
  endif()
  set(OMPTRACE_CLANG_${_n} "")
  set(OMPTRACE_LIBOMP_DIR_${_n} "")
  set(OMPTRACE_OMP_INCLUDE_${_n} "")
  if(_clang AND EXISTS ${_libdir}/libomp.so.5 AND _inc)
    set(OMPTRACE_CLANG_${_n} ${_clang})
    set(OMPTRACE_LIBOMP_DIR_${_n} ${_libdir})
    set(OMPTRACE_OMP_INCLUDE_${_n} ${_inc})
    list(APPEND OMPTRACE_LLVM_FOUND ${_n})
  else()
    set(_what "")
    if(NOT _clang)
      list(APPEND _what "clang-${_n}")
    endif()
    if(NOT EXISTS ${_libdir}/libomp.so.5)
      list(APPEND _what "libomp.so.5")
    endif()
    if(NOT _inc)
      list(APPEND _what "clang/*/include/omp.h")
    endif()
    string(REPLACE ";" ", " _what "${_what}")
    message(STATUS "omptrace: LLVM ${_n} tests skipped: no ${_what} (in ${_libdir}); get it with ${_how}")
  endif()
endforeach()
unset(_clang)
# Off, or a sanitizer build: no version is listed, so no family registers
# llvmN tests (the variables above stay set).
if(NOT OMPTRACE_LLVM_MATRIX OR OMPTRACE_SANITIZE)
  message(STATUS "omptrace: LLVM runtime matrix (llvmN tests) left out: "
    "OMPTRACE_LLVM_MATRIX=${OMPTRACE_LLVM_MATRIX}, OMPTRACE_SANITIZE=${OMPTRACE_SANITIZE}")
  set(OMPTRACE_LLVM_FOUND "")
else()
  message(STATUS "omptrace: LLVM runtimes for the matrix: ${OMPTRACE_LLVM_FOUND}")
endif()

# omptrace_llvm_program(TARGET_NAME N OUTPUT_VAR SOURCES...): builds the
# executable TARGET_NAME as llvmN/TARGET_NAME in the current binary
# directory (a file of the target's own name there would be a circular
# dependency to make, rebuilt each time) with clang-N
# -fopenmp -g -O0 (as the recorder's programs, pragma lines from DWARF)
# against libomp N, with an rpath to it, so that it runs on libomp N with no
# environment. A custom command: CMake cannot mix two C compilers in one
# project. Sets OUTPUT_VAR to the program's path.
function(omptrace_llvm_program TARGET_NAME N OUTPUT_VAR)
  if(NOT OMPTRACE_CLANG_${N})
    message(FATAL_ERROR "omptrace_llvm_program(${TARGET_NAME}): LLVM ${N} not found")
  endif()
  set(_exe ${CMAKE_CURRENT_BINARY_DIR}/llvm${N}/${TARGET_NAME})
  set(_srcs "")
  foreach(_s ${ARGN})
    get_filename_component(_abs ${_s} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND _srcs ${_abs})
  endforeach()
  add_custom_command(OUTPUT ${_exe}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/llvm${N}
    COMMAND ${OMPTRACE_CLANG_${N}} -fopenmp -g -O0 -Wall -Wextra
      -I${OMPTRACE_OMP_INCLUDE_${N}} -o ${_exe} ${_srcs}
      -L${OMPTRACE_LIBOMP_DIR_${N}} -Wl,-rpath,${OMPTRACE_LIBOMP_DIR_${N}}
    DEPENDS ${_srcs}
    COMMENT "Building ${TARGET_NAME} with clang-${N} on libomp ${N}"
    VERBATIM)
  add_custom_target(${TARGET_NAME} ALL DEPENDS ${_exe})
  set(${OUTPUT_VAR} ${_exe} PARENT_SCOPE)
endfunction()
