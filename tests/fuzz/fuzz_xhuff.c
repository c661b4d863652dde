/* libFuzzer target: MS-XCA LZ77+Huffman streams through the decoder, into
 * an output whose size the first two bytes pick (in units of 4 bytes, so
 * that outputs of several 64 KiB blocks are tried). */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz.h"
#include "xpress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t cap = 65536, fault;
	unsigned char *out;

	if (size >= 2) {
		cap = ((size_t)data[0] << 8 | data[1]) * 4;
		data += 2;
		size -= 2;
	}
	out = malloc(cap + 1);
	xpress_huff_sniff(data, size);
	xpress_huff(data, size, out, cap, &fault);
	free(out);
	return 0;
}
