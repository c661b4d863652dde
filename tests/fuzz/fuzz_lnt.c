/* libFuzzer target: LNT profiles.  The first byte picks what is read:
 * the whole profile (then drawn per function and per instruction, as a
 * table, and written as v2 and read back), a bare pickle, or bare bzip2
 * data, so the inner parsers are reached without zlib or a section table
 * in the way; bytes are also bzip2-compressed and must come back. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bunzip.h"
#include "bzip.h"
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
	size_t c, wlen;
	unsigned char *w;

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
	w = lnt_write_v2(p, &wlen);
	lnt_free(p);
	p = lnt_read(w, wlen, err, sizeof(err));
	if (!p || p->partial)
		abort();	/* what we write, we must read */
	lnt_free(p);
	free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct pk *root;
	char err[300], *out;
	unsigned char *z;
	size_t len, zlen;

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
		z = bzip(data + 1, size - 1, &zlen);
		if (bunzip(z, zlen, size, &out, &len, err, sizeof(err)) < 0 || len != size - 1 ||
		    memcmp(out, data + 1, len) != 0)
			abort();	/* a round trip must give the bytes back */
		free(out);
		free(z);
		break;
	}
	return 0;
}
