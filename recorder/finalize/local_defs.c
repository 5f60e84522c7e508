/* Local definition files: location 0's written by OTF2, the others hard
 * links to it (why: finalize/local_defs.h). */
#include "finalize/local_defs.h"
#include "core/output_dir.h"

#include <stdio.h>
#include <unistd.h>

static OTF2_ErrorCode write_one(OTF2_Archive *archive, uint32_t loc) {
  OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(archive, loc);
  return w ? OTF2_Archive_CloseDefWriter(archive, w) : OTF2_ERROR_INVALID_CALL;
}

OTF2_ErrorCode ot_local_defs_write(OTF2_Archive *archive, const char *dir, uint32_t nloc,
                                   uint32_t *linked) {
  char first[4200], path[4200];
  *linked = 0;
  OTF2_ErrorCode e = OTF2_Archive_OpenDefFiles(archive);
  if (e == OTF2_SUCCESS && nloc > 0)
    e = write_one(archive, 0);
  int links =
      snprintf(first, sizeof first, "%s/" OT_ARCHIVE_NAME "/0.def", dir) < (int)sizeof first;
  for (uint32_t i = 1; i < nloc && e == OTF2_SUCCESS; i++) {
    if (links) {
      int n = snprintf(path, sizeof path, "%s/" OT_ARCHIVE_NAME "/%u.def", dir, i);
      links = n < (int)sizeof path && link(first, path) == 0;
      if (links) {
        ++*linked;
        continue;
      }
    }
    e = write_one(archive, i);
  }
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_CloseDefFiles(archive);
  return e;
}
