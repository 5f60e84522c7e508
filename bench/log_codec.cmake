# Record log encoding (recorder/log/codec.c): encode/decode speed and bytes
# per record on the synthetic mix of tests/unit/log_mix.c or raw record
# files. Run: build/bench/ot_log_codec [--reps N] [FILE.raw...]
add_executable(ot_log_codec ${CMAKE_CURRENT_LIST_DIR}/log_codec.c
  ${PROJECT_SOURCE_DIR}/tests/unit/log_mix.c ${PROJECT_SOURCE_DIR}/recorder/log/codec.c)
target_include_directories(ot_log_codec PRIVATE ${PROJECT_SOURCE_DIR}/recorder
  ${PROJECT_SOURCE_DIR}/tests/unit)
target_compile_options(ot_log_codec PRIVATE -O2)
