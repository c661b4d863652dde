/* libFuzzer target: LNT profiles.  The first byte picks what is read:
 * the whole profile (then drawn per function and per instruction, and
 * as a table), a bare pickle, or bare bzip2 data, so the inner parsers
 * are reached without zlib or a section table in the way. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bunzip.h"
#include "fuzz.h"
#include "lnt.h"
#include "pickle.h"

static int drop(void *ctx, const char *stack, size_t len, const char *count)
{
	(void)ctx, (void)stack, (void)len, (void)count;
	return 0;
}

static void profile(const uint8_t *data, size_t size)
{
	char err[300];
	struct lnt_prof *p = lnt_read(data, size, err, sizeof(err));
	FILE *null;
	size_t c;

	if (!p)
		return;
	for (c = 0; c < p->ncnt; c++) {
		lnt_stacks(p, (int)c, 0, p->names[c], drop, NULL);
		lnt_stacks(p, (int)c, 1, NULL, drop, NULL);
	}
	if (p->ncnt && (null = fopen("/dev/null", "w"))) {
		lnt_table(null, p, 0);
		fclose(null);
	}
	lnt_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct pk *root;
	char err[300], *out;
	size_t len;

	if (size == 0)
		return 0;
	switch (data[0] % 3) {
	case 0:
		profile(data + 1, size - 1);
		break;
	case 1:
		pickle_free(pickle_load(data + 1, size - 1, &root, err, sizeof(err)));
		break;
	default:
		if (bunzip(data + 1, size - 1, 1 << 24, &out, &len, err, sizeof(err)) == 0)
			free(out);
		break;
	}
	return 0;
}
