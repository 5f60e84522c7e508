# Record log encoding (recorder/log/codec.c): encode/decode speed and bytes
# per record on the synthetic mix of tests/unit/log_mix.c or raw record
# files, or decode speed on a record log as written. Run:
# build/bench/ot_log_codec [--reps N] [FILE.raw...] or [--reps N] --log DIR/.log/*.log
add_executable(ot_log_codec ${CMAKE_CURRENT_LIST_DIR}/log_codec.c
  ${PROJECT_SOURCE_DIR}/tests/unit/log_mix.c ${PROJECT_SOURCE_DIR}/recorder/log/codec.c
  ${PROJECT_SOURCE_DIR}/recorder/log/decode.c ${PROJECT_SOURCE_DIR}/recorder/log/frame.c)
target_include_directories(ot_log_codec PRIVATE ${PROJECT_SOURCE_DIR}/recorder
  ${PROJECT_SOURCE_DIR}/tests/unit)
target_compile_options(ot_log_codec PRIVATE -O2)
target_link_libraries(ot_log_codec PRIVATE PkgConfig::ZLIB)
