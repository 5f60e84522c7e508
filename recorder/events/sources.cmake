# OMPT handlers, one file per concern, and their registration.
target_sources(omptrace PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/emit.c
  ${CMAKE_CURRENT_LIST_DIR}/register.c
  ${CMAKE_CURRENT_LIST_DIR}/thread.c
  ${CMAKE_CURRENT_LIST_DIR}/parallel.c
  ${CMAKE_CURRENT_LIST_DIR}/tasks.c
  ${CMAKE_CURRENT_LIST_DIR}/sync.c
  ${CMAKE_CURRENT_LIST_DIR}/mutex.c
  ${CMAKE_CURRENT_LIST_DIR}/worksharing.c
  ${CMAKE_CURRENT_LIST_DIR}/dispatch.c
  ${CMAKE_CURRENT_LIST_DIR}/misc.c
  ${CMAKE_CURRENT_LIST_DIR}/mpi.c
  ${CMAKE_CURRENT_LIST_DIR}/mpi_dir.c
  ${CMAKE_CURRENT_LIST_DIR}/control.c
  ${CMAKE_CURRENT_LIST_DIR}/target.c
  ${CMAKE_CURRENT_LIST_DIR}/target_connect.c)
