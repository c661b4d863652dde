/* zsrc: sources that inflate another source: a gzip stream (members one
 * after another, as `cat a.gz b.gz` makes) and the one member of a zip
 * archive that flame reads (see zip.h).  Bytes inflated before a fault
 * (the input cut short, corrupt deflate data, a CRC mismatch) are all
 * handed out; the fault comes after them, named with its place in the
 * compressed input: "truncated gzip input at byte 4096". */
#ifndef FLAME_ZSRC_H
#define FLAME_ZSRC_H

#include <stdint.h>

struct bsrc;

/* Returns a source of the inflated bytes of the gzip stream raw, and owns
 * raw from here on (it is freed with the result).  Never fails: when zlib
 * cannot be set up, reading fails. */
struct bsrc *zsrc_gzip(struct bsrc *raw);

/* Returns a source of the bytes of the member of the zip archive raw
 * (owned from here on) chosen by zip_find: found through the central
 * directory when raw can seek, else from the local header at its start.
 * A member that would inflate past max bytes (or past the size its
 * directory entry gives) fails with a message saying so: a zip bomb costs
 * no more than max.  Never fails: when the archive cannot be read,
 * reading fails with the reason. */
struct bsrc *zsrc_zip(struct bsrc *raw, uint64_t max);

#endif
