# Every dependency comes from a Debian package; a missing one stops the
# configure step with one line naming the package to install.
find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "omptrace: pkg-config not found: apt-get install pkg-config")
endif()

function(omptrace_require target module package)
  pkg_check_modules(${target} QUIET IMPORTED_TARGET GLOBAL ${module})
  if(NOT ${target}_FOUND)
    message(FATAL_ERROR "omptrace: ${module} not found: apt-get install ${package}")
  endif()
endfunction()

omptrace_require(OTF2 otf2 libopen-trace-format2-dev)
omptrace_require(PAPI papi libpapi-dev)
omptrace_require(UNWIND libunwind libunwind-dev)
omptrace_require(DW libdw libdw-dev)

find_path(OMPTRACE_OMPT_INCLUDE omp-tools.h
  HINTS /usr/lib/llvm-14/lib/clang/14.0.6/include /usr/lib/llvm-14/include
  PATH_SUFFIXES openmp)
if(NOT OMPTRACE_OMPT_INCLUDE)
  # clang ships omp-tools.h in its resource directory.
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-resource-dir
    OUTPUT_VARIABLE _res OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  find_path(OMPTRACE_OMPT_INCLUDE omp-tools.h HINTS ${_res}/include)
endif()
if(NOT OMPTRACE_OMPT_INCLUDE)
  message(FATAL_ERROR "omptrace: omp-tools.h not found: apt-get install libomp-dev clang")
endif()

find_package(OpenMP QUIET COMPONENTS C)
if(NOT OpenMP_C_FOUND OR NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "omptrace: needs clang with LLVM libomp: apt-get install clang libomp-dev (and configure with CC=clang)")
endif()

find_library(OMPTRACE_LIBSDE sde)
find_path(OMPTRACE_SDE_INCLUDE sde_lib.h)
if(NOT OMPTRACE_LIBSDE OR NOT OMPTRACE_SDE_INCLUDE)
  message(FATAL_ERROR "omptrace: libsde (PAPI software-defined events) not found: apt-get install libpapi-dev")
endif()

find_program(OMPTRACE_OTF2_PRINT otf2-print)
find_program(OMPTRACE_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
