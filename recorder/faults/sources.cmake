# Fault handling: signals, quick_exit, fork, snapshots. The library only
# (it acts on the live process); the top layer, below tool.c.
target_sources(omptrace PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/faults.c
  ${CMAKE_CURRENT_LIST_DIR}/fork.c
  ${CMAKE_CURRENT_LIST_DIR}/recover_cmd.c
  ${CMAKE_CURRENT_LIST_DIR}/select.c
  ${CMAKE_CURRENT_LIST_DIR}/signals.c
  ${CMAKE_CURRENT_LIST_DIR}/sigwatch.c
  ${CMAKE_CURRENT_LIST_DIR}/snapshot.c)
