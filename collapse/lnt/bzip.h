/* bzip: a bzip2 compressor for LNT v2 sections.  It writes what any
 * bzip2 reader takes (bunzip.h, Python's bz2, bzip2 itself) but favours
 * being small and plain over ratio: 100k blocks, and one fixed-length
 * code for every symbol rather than fitted Huffman tables. */
#ifndef FLAME_BZIP_H
#define FLAME_BZIP_H

#include <stddef.h>

/* Compresses the n bytes at in.  Returns the stream (the caller frees
 * it) and sets *outlen; never fails (out of memory exits). */
unsigned char *bzip(const unsigned char *in, size_t n, size_t *outlen);

#endif
