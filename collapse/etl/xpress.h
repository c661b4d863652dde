/* xpress: the decompressors for ETW's compressed buffers.  MS-XCA's "plain
 * LZ77" (what Windows 8 and later write for traces logged with
 * EVENT_TRACE_COMPRESSED_MODE, RtlCompressBuffer's COMPRESSION_FORMAT_XPRESS).
 * Written from the public MS-XCA description: 32-bit flag words (the most
 * significant bit first: 0 a literal byte, 1 a match), matches of 16 bits
 * (offset - 1 above 3 bits of length - 3) with longer lengths in shared
 * half bytes, then bytes, 16 and 32-bit words. */
#ifndef FLAME_XPRESS_H
#define FLAME_XPRESS_H

#include <stddef.h>

/* Decompresses src (n bytes) into dst, writing at most cap bytes.
 * Returns the count written: up to the end of src or cap, or up to a
 * fault (a match reaching before the start of the output, or running past
 * cap or past the end of src), everything before which is good.  *fault
 * gets 0, or 1 + the offset in src where the fault was found. */
size_t xpress_lz77(const unsigned char *src, size_t n, unsigned char *dst, size_t cap,
		   size_t *fault);

/* MS-XCA LZ77+Huffman (COMPRESSION_FORMAT_XPRESS_HUFF), the same
 * contract as xpress_lz77.  A fault is also an unreadable code table. */
size_t xpress_huff(const unsigned char *src, size_t n, unsigned char *dst, size_t cap,
		   size_t *fault);

/* Whether src (n bytes) starts as LZ77+Huffman does: a table of 512 code
 * lengths making a complete prefix code.  A buffer's flags do not say
 * which of the two formats it holds; plain LZ77's first bytes (a flags
 * word, then event headers) essentially never make one. */
int xpress_huff_sniff(const unsigned char *src, size_t n);

#endif
