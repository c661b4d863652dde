/* libFuzzer target: the JSON tokenizer alone, every token read (and
 * objects skipped whole when the input's second byte is odd), the bytes
 * arriving in chunks of a size the first byte picks. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzzjson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_chunks c;
	struct json *j = fuzz_json(&c, data, size);
	int skip = size > 1 && (data[1] & 1), t;
	size_t n;

	while ((t = json_next(j)) > 0) {
		const char *s = json_text(j, &n);

		if (memchr(s, '\0', n) || s[n] != '\0')
			abort();	/* NUL-terminated, and holding no NUL */
		if (skip && t == JSON_OBJECT && json_skip(j, t) < 0)
			break;
		(void)json_depth(j);
		(void)json_offset(j);
	}
	(void)json_error(j);
	json_free(j);
	return 0;
}
