/* recursive: folding runs of one frame. */
#include "recursive.h"
#include "folded.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

size_t recursive_fold(const char *s, size_t n, char *out)
{
	const char *end = s + n, *f = s, *semi, *last = NULL;
	size_t o = 0, len, lastlen = 0;

	for (;;) {
		semi = memchr(f, ';', (size_t)(end - f));
		len = (size_t)((semi ? semi : end) - f);
		if (!last || len != lastlen || memcmp(f, last, len) != 0) {
			if (last)
				out[o++] = ';';
			memcpy(out + o, f, len);
			o += len;
		}
		last = f;
		lastlen = len;
		if (!semi)
			return o;
		f = semi + 1;
	}
}

void recursive_table(const struct strtab *in, struct strtab *out)
{
	char *buf = NULL;
	size_t cap = 0, i, n, len;
	const char *s;
	uint32_t id;

	for (i = 0; i < strtab_count(in); i++) {
		s = strtab_str(in, (uint32_t)i, &n);
		xgrow(&buf, &cap, n + 1, 1);
		len = recursive_fold(s, n, buf);
		id = strtab_intern(out, buf, len, NULL);
		fcount_add(strtab_val(out, id), strtab_val(in, (uint32_t)i));
	}
	free(buf);
}
