/* bunzip: a bzip2 decompressor over bytes in memory, for the compressed
 * sections of LNT v2 profiles (Python's bz2.compress writes them).  It
 * reads what bzip2 1.0 writes: one or more streams back to back, each of
 * Huffman-coded blocks of the Burrows-Wheeler transform, with every block
 * and stream CRC checked.  Input is hostile: every read is bounded, and
 * the output may not pass a cap the caller sets. */
#ifndef FLAME_BUNZIP_H
#define FLAME_BUNZIP_H

#include <stddef.h>

/* Inflates the n bytes at in.  Returns 0 with *out (the caller frees it;
 * NUL-terminated past *outlen) and *outlen set; or -1 with a message in
 * err naming the byte of in where it failed ("not bzip2 data at byte 0",
 * "truncated bzip2 data at byte 57", "more than 1048576 bytes"), *out
 * then NULL.  max caps the output. */
int bunzip(const unsigned char *in, size_t n, size_t max, char **out, size_t *outlen,
	   char *err, size_t errlen);

#endif
