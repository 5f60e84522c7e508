/* unit_record: the record description (recorder/buffer/record.h) and the
 * debug dump derived from it (recorder/buffer/record_dump.c). The type
 * numbers are part of the raw format (spill files, the emit fast-path
 * mask): the enum generated from OT_REC_TYPES must keep them. */
#include "buffer/record_dump.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

/* Every type's number as the hand-written enum had it before the
 * description (index = number): reordering the description fails here. */
static const char *const names[] = {
    NULL,
    "THREAD_BEGIN",
    "THREAD_END",
    "PARALLEL_BEGIN",
    "PARALLEL_END",
    "IMPLICIT_BEGIN",
    "IMPLICIT_END",
    "TASK_CREATE",
    "TASK_SCHEDULE",
    "DEPENDENCE",
    "TASK_DEPENDENCE",
    "SYNC_BEGIN",
    "SYNC_END",
    "SYNC_WAIT_BEGIN",
    "SYNC_WAIT_END",
    "MUTEX_ACQUIRE",
    "MUTEX_ACQUIRED",
    "MUTEX_RELEASED",
    "NEST_LOCK",
    "LOCK_INIT",
    "LOCK_DESTROY",
    "WORK_BEGIN",
    "WORK_END",
    "MASKED_BEGIN",
    "MASKED_END",
    "REDUCTION_BEGIN",
    "REDUCTION_END",
    "FLUSH",
    "CANCEL",
    "CONTROL_TOOL",
    "ERROR",
    "LOST",
    "LABEL",
    "THROTTLED",
    "MPI_ENTER",
    "MPI_LEAVE",
    "MPI_MSG",
    "MPI_REQ",
    "MPI_COLL_BEGIN",
    "MPI_COLL_END",
    "MPI_COMM",
    "MPI_MEMBER",
    "TARGET_BEGIN",
    "TARGET_END",
    "TARGET_DATA_OP",
    "TARGET_SUBMIT",
    "DEVICE",
    "DISPATCH",
};

/* A few enum constants by value, as the handlers and the finalize use them. */
typedef struct {
  unsigned type, want;
} number_case;

static const number_case numbers[] = {
    {OT_NONE, 0},
    {OT_THREAD_BEGIN, 1},
    {OT_PARALLEL_BEGIN, 3},
    {OT_SYNC_BEGIN, 11},
    {OT_MUTEX_ACQUIRE, 15},
    {OT_WORK_BEGIN, 21},
    {OT_LOST, 31},
    {OT_THROTTLED, 33},
    {OT_MPI_ENTER, 34},
    {OT_MPI_MSG, 36},
    {OT_DEVICE, 46},
    {OT_DISPATCH, 47},
    {OT_REC_TYPE_COUNT, 48},
};

/* Field use: the fields each type documents, as "kabc" letters. */
typedef struct {
  unsigned type;
  const char *used;
} use_case;

static const use_case uses[] = {
    {OT_THREAD_BEGIN, "k"},     {OT_THREAD_END, ""},        {OT_PARALLEL_BEGIN, "kabc"},
    {OT_PARALLEL_END, "kbc"},   {OT_TASK_CREATE, "abc"},    {OT_TASK_SCHEDULE, "kbc"},
    {OT_MUTEX_ACQUIRE, "kabc"}, {OT_MUTEX_RELEASED, "kbc"}, {OT_FLUSH, "b"},
    {OT_CANCEL, "ab"},          {OT_CONTROL_TOOL, "kabc"},  {OT_LOST, "abc"},
    {OT_THROTTLED, "kabc"},
};

typedef struct {
  const char *what;
  ot_rec rec;
  uint64_t values[2];
  const char *want;
} format_case;

static const format_case formats[] = {
    {"parallel begin",
     {7, OT_PARALLEL_BEGIN, 1, 0, 4, 0x401136, 0x1000000000001},
     {0},
     "PARALLEL_BEGIN ts=7 kind=0x1 a=4 b=0x401136 c=0x1000000000001"},
    {"unused fields left out",
     {9, OT_FLUSH, 0xee, 0, 77, 0x4011a0, 0x55},
     {0},
     "FLUSH ts=9 b=0x4011a0"},
    {"thread end: no field", {1, OT_THREAD_END, 3, 0, 5, 6, 7}, {0}, "THREAD_END ts=1"},
    {"counter values",
     {12, OT_SYNC_END, 9, 2, 0, 0x10, 0},
     {100, 18446744073709551615u},
     "SYNC_END ts=12 kind=0x9 b=0x10 c=0x0 values=100,18446744073709551615"},
    {"unknown type", {5, 200, 1, 0, 2, 3, 4}, {0}, "type=200 ts=5 kind=0x1 nval=0 a=2 b=0x3 c=0x4"},
    {"none", {5, OT_NONE, 0, 0, 0, 0, 0}, {0}, "type=0 ts=5 kind=0x0 nval=0 a=0 b=0x0 c=0x0"},
};

static void check_format(const format_case *fc) {
  /* Header and values contiguous, as in a buffer or spill file. */
  uint64_t mem[4 + 2];
  memcpy(mem, &fc->rec, sizeof fc->rec);
  memcpy(mem + 4, fc->values, sizeof fc->values);
  char line[256];
  int n = ot_rec_format((const ot_rec *)mem, line, sizeof line);
  CHECK_STR(fc->what, line, fc->want);
  CHECK_I64(fc->what, n, (int64_t)strlen(fc->want));
  /* Truncated output: same length reported, buffer NUL-terminated. */
  char small[8];
  CHECK_I64(fc->what, ot_rec_format((const ot_rec *)mem, small, sizeof small), n);
  CHECK_U64(fc->what, strlen(small), sizeof small - 1);
  CHECK_I64(fc->what, ot_rec_format((const ot_rec *)mem, NULL, 0), n);
}

int main(void) {
  for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
    CHECK_U64("enum value", numbers[i].type, numbers[i].want);
  CHECK_U64("type count", OT_REC_TYPE_COUNT, sizeof names / sizeof *names);
  for (unsigned t = 0; t < sizeof names / sizeof *names; t++)
    CHECK_STR(names[t] ? names[t] : "none", ot_rec_type_name(t), names[t]);
  CHECK_STR("past the last type", ot_rec_type_name(OT_REC_TYPE_COUNT), NULL);
  for (size_t i = 0; i < sizeof uses / sizeof *uses; i++) {
    char got[5] = "";
    size_t k = 0;
    for (const char *f = "kabc"; *f; f++)
      if (ot_rec_field_doc(uses[i].type, *f))
        got[k++] = *f;
    CHECK_STR(ot_rec_type_name(uses[i].type), got, uses[i].used);
  }
  CHECK_STR("doc of a", ot_rec_field_doc(OT_PARALLEL_BEGIN, 'a'), "requested team size");
  CHECK_STR("unknown field", ot_rec_field_doc(OT_PARALLEL_BEGIN, 'x'), NULL);
  CHECK_STR("unknown type", ot_rec_field_doc(OT_REC_TYPE_COUNT, 'a'), NULL);
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
    check_format(&formats[i]);
  return ut_done("unit_record");
}
