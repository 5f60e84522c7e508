# omptrace-recover: the record log a run left behind -> its archive, with
# the same pipeline object library the tool runs at exit. It is built next
# to libomptrace.so, where the library's snapshot signal looks for it first
# (then ../bin, ../libexec/omptrace), and installed into bin.
add_executable(omptrace-recover
  ${CMAKE_CURRENT_LIST_DIR}/main.c
  ${CMAKE_CURRENT_LIST_DIR}/where.c
  ${CMAKE_CURRENT_LIST_DIR}/where_print.c)
target_include_directories(omptrace-recover PRIVATE ${OT_RECORDER_DIR} ${OMPTRACE_OMPT_INCLUDE})
target_compile_definitions(omptrace-recover PRIVATE ${OT_FEATURE_DEFS})
target_link_libraries(omptrace-recover PRIVATE omptrace_pipeline)
set_target_properties(omptrace-recover PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
install(TARGETS omptrace-recover RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
