/* Local definition files (finalize/local_defs.c). omptrace writes no local
 * definitions, but OTF2's reader (otf2-print, the Python bindings) opens
 * every location's N.def and fails without it. Each holds only OTF2's
 * header, the same bytes for every location, so location 0's file is
 * written by OTF2 and the others are hard links to it: creating a file
 * allocates an inode (about 270 us of kernel time each on our test VM's
 * ext4 disk, a metadata-server round trip on parallel file systems), a
 * link does not. */
#ifndef OMPTRACE_LOCAL_DEFS_H
#define OMPTRACE_LOCAL_DEFS_H

#include <otf2/otf2.h>
#include <stdint.h>

/* The local definition files of locations 0..nloc of `archive`, written in
 * directory dir (the one ot_otf2_open was given). Where a link cannot be
 * made (a file system without hard links, a file's link limit), OTF2
 * writes that location's file and the ones after it. Sets *linked to the
 * number of files linked. Returns the first OTF2 error. */
OTF2_ErrorCode ot_local_defs_write(OTF2_Archive *archive, const char *dir, uint32_t nloc,
                                   uint32_t *linked);

#endif
