# omptrace-merge: the rank archives of an MPI job as one archive (OTF2;
# of the recorder only finalize's hash tables). Built and installed beside
# omptrace-recover, which it runs on a rank that left only its record log.
add_executable(omptrace-merge
  ${CMAKE_CURRENT_LIST_DIR}/main.c
  ${CMAKE_CURRENT_LIST_DIR}/ranks.c
  ${CMAKE_CURRENT_LIST_DIR}/read.c
  ${CMAKE_CURRENT_LIST_DIR}/clock.c
  ${CMAKE_CURRENT_LIST_DIR}/events.c
  ${CMAKE_CURRENT_LIST_DIR}/causal.c
  ${CMAKE_CURRENT_LIST_DIR}/unify.c
  ${CMAKE_CURRENT_LIST_DIR}/write.c
  ${CMAKE_CURRENT_LIST_DIR}/files.c
  ${CMAKE_CURRENT_LIST_DIR}/hash.c
  ${CMAKE_CURRENT_LIST_DIR}/../finalize/intern.c
  ${CMAKE_CURRENT_LIST_DIR}/../core/safe_dir.c
  ${CMAKE_CURRENT_LIST_DIR}/defs.c)
target_include_directories(omptrace-merge PRIVATE ${OT_RECORDER_DIR})
target_link_libraries(omptrace-merge PRIVATE PkgConfig::OTF2 m)
set_target_properties(omptrace-merge PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
install(TARGETS omptrace-merge RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
