/* libFuzzer target: the JSON tokenizer alone, every token read (and
 * objects skipped whole when the input's second byte is odd, runs of
 * integers taken by json_uints when its bit 1 is set), the bytes
 * arriving in chunks of a size the first byte picks. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzzjson.h"

/* json_next after what json_uints takes: the last one's text and value
 * agree. */
static int uints(struct json *j)
{
	uint64_t v[4], u;
	size_t k = json_uints(j, v, 4), n;
	const char *s = json_text(j, &n);

	if (k && (s[n] != '\0' || json_num_u64(j, &u) < 0 || u != v[k - 1] ||
		  json_u64(s, n, &u) < 0 || u != v[k - 1]))
		abort();
	return json_next(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_chunks c;
	struct json *j = fuzz_json(&c, data, size);
	int skip = size > 1 && (data[1] & 1), t;
	int bulk = size > 1 && (data[1] & 2);
	size_t n;

	while ((t = bulk ? uints(j) : json_next(j)) > 0) {
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
