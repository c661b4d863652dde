/* json_members: the members of an object, one callback each (json.h). */
#include "json.h"

#include <string.h>

int json_members(struct json *j, json_member_fn *fn, void *ctx, void *arg)
{
	char key[32];
	size_t n;
	int tok;

	while ((tok = json_next(j)) == JSON_KEY) {
		const char *k = json_text(j, &n);

		/* Copied: reading the value overwrites json_text. */
		n = n < sizeof(key) ? n : sizeof(key) - 1;
		memcpy(key, k, n);
		key[n] = '\0';
		if (fn(ctx, key, n, json_next(j), arg) < 0)
			break;
	}
	return tok;
}
