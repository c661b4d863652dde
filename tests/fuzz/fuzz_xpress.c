/* libFuzzer target: MS-XCA plain LZ77 streams through the decoder, into
 * an output whose size the first two bytes pick. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz.h"
#include "xpress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t cap = 65536, fault;
	unsigned char *out;

	if (size >= 2) {
		cap = (size_t)data[0] << 8 | data[1];
		data += 2;
		size -= 2;
	}
	out = malloc(cap + 1);
	xpress_lz77(data, size, out, cap, &fault);
	free(out);
	return 0;
}
