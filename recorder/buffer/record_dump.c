/* Debug dump of raw records: names and field use come from the one
 * description in record.h (OT_REC_TYPES), so the dump cannot drift from
 * what the handlers write. */
#include "buffer/record_dump.h"

#include <inttypes.h>
#include <stdio.h>

typedef struct type_desc {
  const char *name;
  const char *kind, *a, *b, *c;
} type_desc;

static const type_desc types[OT_REC_TYPE_COUNT] = {
#define OT_REC_DESC(type, kind, a, b, c) [OT_##type] = {#type, kind, a, b, c},
    OT_REC_TYPES(OT_REC_DESC)
#undef OT_REC_DESC
};

const char *ot_rec_type_name(unsigned type) {
  return type < OT_REC_TYPE_COUNT ? types[type].name : NULL;
}

const char *ot_rec_field_doc(unsigned type, char field) {
  if (type >= OT_REC_TYPE_COUNT)
    return NULL;
  const type_desc *d = &types[type];
  switch (field) {
  case 'k':
    return d->kind;
  case 'a':
    return d->a;
  case 'b':
    return d->b;
  case 'c':
    return d->c;
  default:
    return NULL;
  }
}

/* Appends like snprintf, keeping the total length wanted in *len. */
#define PUT(...)                                                                                   \
  do {                                                                                             \
    size_t at_ = *len < size ? *len : size;                                                        \
    int n_ = snprintf(size ? buf + at_ : NULL, size - at_, __VA_ARGS__);                           \
    if (n_ > 0)                                                                                    \
      *len += (size_t)n_;                                                                          \
  } while (0)

static void put_fields(const ot_rec *r, const type_desc *d, char *buf, size_t size, size_t *len) {
  if (d->kind)
    PUT(" kind=0x%x", (unsigned)r->kind);
  if (d->a)
    PUT(" a=%" PRIu32, r->a);
  if (d->b)
    PUT(" b=0x%" PRIx64, r->b);
  if (d->c)
    PUT(" c=0x%" PRIx64, r->c);
  const uint64_t *v = ot_rec_values(r);
  for (unsigned i = 0; i < r->nval; i++)
    PUT("%s%" PRIu64, i ? "," : " values=", v[i]);
}

int ot_rec_format(const ot_rec *r, char *buf, size_t size) {
  size_t total = 0, *len = &total;
  const char *name = ot_rec_type_name(r->type);
  if (name) {
    PUT("%s ts=%" PRIu64, name, r->ts);
    put_fields(r, &types[r->type], buf, size, len);
  } else {
    /* Unknown type: every header field, so a damaged record can be read. */
    PUT("type=%u ts=%" PRIu64 " kind=0x%x nval=%u a=%" PRIu32 " b=0x%" PRIx64 " c=0x%" PRIx64,
        (unsigned)r->type, r->ts, (unsigned)r->kind, (unsigned)r->nval, r->a, r->b, r->c);
  }
  return total > INT32_MAX ? -1 : (int)total;
}
