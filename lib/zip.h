/* zip: just enough of the ZIP format to read one member of an archive
 * (found through the central directory, or from its local header when the
 * input cannot seek) and to write a one-member archive as a stream.
 * Stored and deflated members only; no ZIP64, no encryption. */
#ifndef FLAME_ZIP_H
#define FLAME_ZIP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The member to read. */
struct zip_member {
	uint64_t offset;	/* of its data in the archive */
	uint64_t csize;		/* compressed bytes */
	uint64_t usize;		/* bytes once inflated */
	uint32_t crc;		/* CRC-32 of the inflated bytes */
	int method;		/* 0 stored, 8 deflated */
	int sizes_known;	/* 0: streamed, sizes in a data descriptor after it */
	char name[256];		/* entry name (cut short), for messages */
};

/* Reads n bytes at off into buf; returns 0, or -1 when they are not all there. */
typedef int zip_read_fn(void *ctx, uint64_t off, void *buf, size_t n);

/* Finds the member to read in an archive of size bytes: the first whose
 * name ends in .json, .xml or .etl, else the only file in it.  Returns 0, or -1
 * with a message in err (not an archive, no such member, unsupported);
 * -2 (message in err too) when the archive has no central directory at
 * its end: most likely it was cut short, and only its local headers can
 * tell what it holds. */
int zip_find(zip_read_fn *rd, void *ctx, uint64_t size, struct zip_member *m,
	     char *err, size_t errlen);

/* Parses the local header at the start of the n bytes at p, for input read
 * as a stream.  Returns the header's length (the data follows), 0 when
 * more bytes are needed, or -1 with a message in err. */
long zip_local(const unsigned char *p, size_t n, struct zip_member *m, char *err, size_t errlen);

/* Returns a stream whose bytes become the one deflated member name of a
 * ZIP archive written to out; fclose() on it finishes the archive (it
 * returns EOF when a write failed).  out stays open.  The archive needs no
 * seeking (sizes go in a data descriptor) and is the same for the same
 * bytes: the member's date is fixed.  NULL with errno set on failure. */
FILE *zip_writer(FILE *out, const char *name);

#endif
