/* libFuzzer target: zip archives through lread (central directory, local
 * header, stored and deflated members, CRC and size checks), with a small
 * inflate limit so bombs stay cheap. */
#include <stdint.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lread *lr = lread_from_mem(data, size, "fuzz");
	char buf[4096];

	lread_set_max_inflate(lr, 1 << 20);
	while (lread_read(lr, buf, sizeof(buf)) > 0)
		;
	lread_free(lr);
	return 0;
}
