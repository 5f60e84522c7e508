/* Test helper: the record encoding (recorder/log/codec.c) decoded the
 * plainest way, one byte at a time with every read checked, as the first
 * version of the decoder did. unit_log_codec compares the fast decoder
 * (recorder/log/decode.c) with it: same records, same point of error. */
#ifndef OMPTRACE_TEST_CODEC_REF_H
#define OMPTRACE_TEST_CODEC_REF_H

#include "log/codec.h"

#include <stddef.h>
#include <stdint.h>

/* Decodes len bytes declared to hold nrec records into out (raw layout,
 * buffer/record.h; cap bytes). Returns the bytes of the records decoded
 * before the end or the first error; *error = 1 on malformed input
 * (including bytes left after the nrec records). */
size_t ut_codec_ref(const uint8_t *bytes, size_t len, uint32_t nrec, uint8_t *out, size_t cap,
                    int *error);

#endif
