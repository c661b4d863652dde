/* libFuzzer target: the line reader (gzip, BOM, UTF-16, long lines) and
 * the folded-line parser on what it returns. */
#include <stdint.h>
#include <string.h>

#include "folded.h"
#include "lread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lread *lr = lread_from_mem(data, size, "fuzz");
	const char *line;
	size_t len, total = 0;
	int st;

	lread_set_max_line(lr, 4096);
	while ((st = lread_next(lr, &line, &len)) != LREAD_EOF && st != LREAD_ERROR) {
		struct folded fl;

		if (st != LREAD_LINE)
			continue;
		total += len;
		if (folded_parse(line, len, &fl) == 0 && fl.len > len)
			__builtin_trap();
	}
	lread_free(lr);
	return total > size * 4 + 64 ? 1 : 0;
}
