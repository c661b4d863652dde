/* libFuzzer target: inlined-function chains read from hostile DWARF (an
 * ELF image with debug sections, through libdw), at addresses from the
 * image's first bytes and the units' own ranges. */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "perfinline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfinline_frame fr[PERFINLINE_MAX];
	struct perfinline *p = perfinline_open_mem(data, size);
	uint64_t a = 0;
	int i;

	if (!p)
		return 0;
	if (size >= 24)
		memcpy(&a, data + 16, 8);
	for (i = 0; i < 64; i++)
		perfinline_chain(p, 0x1000 + (uint64_t)i * 0x10, 0x1000, fr, PERFINLINE_MAX);
	perfinline_chain(p, a, a, fr, PERFINLINE_MAX);
	perfinline_chain(p, UINT64_MAX, 0, fr, 1);
	perfinline_free(p);
	return 0;
}
