# Dependencies, all from Debian packages. Required ones (OTF2, libdw,
# clang with LLVM libomp and omp-tools.h) stop the configure step with one
# line naming the package to install. Counters (PAPI) and sampling
# (libunwind) are optional features: OMPTRACE_COUNTERS / OMPTRACE_SAMPLING
# = AUTO (built when found), ON (missing library is an error) or OFF.
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
# libdw stays required: region names ("parallel @ file:line") and sample
# frames come from DWARF line tables, which dladdr cannot give.
omptrace_require(DW libdw libdw-dev)
# zlib: CRC-32 of the record log's frames.
omptrace_require(ZLIB zlib zlib1g-dev)

# omptrace_feature(VAR target module package description): VAR in the
# cache as AUTO/ON/OFF; afterwards VAR_BUILT is TRUE or FALSE and, when
# built, PkgConfig::<target> names the library.
function(omptrace_feature var target module package what)
  set(${var} AUTO CACHE STRING "${what}: AUTO (when ${module} is found), ON or OFF")
  set_property(CACHE ${var} PROPERTY STRINGS AUTO ON OFF)
  string(TOUPPER "${${var}}" mode)
  if(NOT mode MATCHES "^(AUTO|ON|OFF|YES|NO|TRUE|FALSE|1|0)$")
    message(FATAL_ERROR "omptrace: ${var}=${${var}}: expected AUTO, ON or OFF")
  endif()
  set(built FALSE)
  if(NOT mode MATCHES "^(OFF|NO|FALSE|0)$")
    pkg_check_modules(${target} QUIET IMPORTED_TARGET GLOBAL ${module})
    if(${target}_FOUND)
      set(built TRUE)
    elseif(mode STREQUAL "AUTO")
      message(STATUS "omptrace: ${what} not built: ${module} not found (apt-get install ${package})")
    else()
      message(FATAL_ERROR "omptrace: ${var}=ON but ${module} not found: apt-get install ${package} (or -D${var}=OFF)")
    endif()
  endif()
  if(built)
    message(STATUS "omptrace: ${what}: built (${var}=${${var}})")
  elseif(mode MATCHES "^(OFF|NO|FALSE|0)$")
    message(STATUS "omptrace: ${what}: not built (${var}=OFF)")
  endif()
  set(${var}_BUILT ${built} PARENT_SCOPE)
endfunction()

omptrace_feature(OMPTRACE_COUNTERS PAPI papi libpapi-dev "counters (PAPI)")
omptrace_feature(OMPTRACE_SAMPLING UNWIND libunwind libunwind-dev "call-stack sampling (libunwind)")

find_package(OpenMP QUIET COMPONENTS C)
# MPI, optional: only libomptrace-mpi.so (recorder/mpi) and its tests use it.
find_package(MPI QUIET COMPONENTS C)
if(NOT OpenMP_C_FOUND OR NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "omptrace: needs clang with LLVM libomp: apt-get install clang libomp-dev (and configure with CC=clang)")
endif()

# omp-tools.h: first the compiler's own resource directory (the header of
# the libomp it links), then every installed LLVM, newest first.
execute_process(COMMAND ${CMAKE_C_COMPILER} -print-resource-dir
  OUTPUT_VARIABLE _ot_res OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
file(GLOB _ot_llvm_inc LIST_DIRECTORIES true /usr/lib/llvm-*/lib/clang/*/include
  /usr/lib/llvm-*/include /usr/local/opt/llvm/include)
list(SORT _ot_llvm_inc COMPARE NATURAL ORDER DESCENDING)
find_path(OMPTRACE_OMPT_INCLUDE omp-tools.h HINTS ${_ot_res}/include PATHS ${_ot_llvm_inc}
  PATH_SUFFIXES openmp)
if(NOT OMPTRACE_OMPT_INCLUDE)
  message(FATAL_ERROR "omptrace: omp-tools.h not found: apt-get install libomp-dev clang")
endif()

# libomp.so.5 (the gcc-on-libomp test links it as libgomp.so.1): beside
# the libomp FindOpenMP chose, else in any installed LLVM.
get_filename_component(_ot_omp_dir "${OpenMP_omp_LIBRARY}" DIRECTORY)
file(GLOB _ot_llvm_lib LIST_DIRECTORIES true /usr/lib/llvm-*/lib)
list(SORT _ot_llvm_lib COMPARE NATURAL ORDER DESCENDING)
find_library(OMPTRACE_LIBOMP5 NAMES libomp.so.5 HINTS ${_ot_omp_dir} PATHS ${_ot_llvm_lib})

# PAPI software-defined events: the counter tests and bench register their
# own counters. Only looked for when counters are built.
if(OMPTRACE_COUNTERS_BUILT)
  find_library(OMPTRACE_LIBSDE sde)
  find_path(OMPTRACE_SDE_INCLUDE sde_lib.h)
  if(OMPTRACE_LIBSDE AND OMPTRACE_SDE_INCLUDE)
    set(OMPTRACE_SDE_FOUND TRUE)
  else()
    set(OMPTRACE_SDE_FOUND FALSE)
    message(STATUS "omptrace: libsde (PAPI software-defined events) not found: counter tests and bench skipped (apt-get install libpapi-dev)")
  endif()
endif()

find_program(OMPTRACE_OTF2_PRINT otf2-print)
find_program(OMPTRACE_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
