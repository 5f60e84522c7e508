# omptrace-config: prints the configuration table (`omptrace --help`,
# docs/configuration.md).
add_executable(omptrace-config
  ${OT_RECORDER_DIR}/core/config_main.c
  ${OT_RECORDER_DIR}/core/config.c
  ${OT_RECORDER_DIR}/core/config_table.c
  ${OT_RECORDER_DIR}/core/config_env.c
  ${OT_RECORDER_DIR}/core/config_signal.c
  ${OT_RECORDER_DIR}/core/config_throttle.c
  ${OT_RECORDER_DIR}/core/features.c
  ${OT_RECORDER_DIR}/core/log.c)
target_include_directories(omptrace-config PRIVATE ${OT_RECORDER_DIR})
target_compile_definitions(omptrace-config PRIVATE ${OT_FEATURE_DEFS})
install(TARGETS omptrace-config RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Regenerates docs/configuration.md from the table (run after editing it).
add_custom_target(omptrace-config-doc
  COMMAND omptrace-config --markdown > ${CMAKE_SOURCE_DIR}/docs/configuration.md
  DEPENDS omptrace-config
  COMMENT "Writing docs/configuration.md")
