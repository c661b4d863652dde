/* libFuzzer target: pprof profiles.  The bytes are told (sniff), read,
 * and drawn for every sample type with and without labels; the stacks of
 * the first type are then written as a profile and read back, and must
 * come back the same, stack for stack and count for count. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "fuzz.h"
#include "pprof.h"
#include "pprof_format.h"
#include "pprof_stack.h"
#include "pprof_write.h"
#include "strtab.h"
#include "xalloc.h"

static struct strtab *stacks(const uint8_t *data, size_t size, int vi, int labels)
{
	unsigned char *buf = xmalloc(size + 1);
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct pprof_tally st;
	struct pprof_prof *p;

	memcpy(buf, data, size);
	p = pprof_read(buf, size, PPROF_OWN);
	pprof_stack_add(p, vi, labels, t, NULL, &st);
	pprof_free(p);
	return t;
}

/* Whether a and b hold the same stacks with the same counts. */
static int same(const struct strtab *a, const struct strtab *b)
{
	size_t i, len;

	if (strtab_count(a) != strtab_count(b))
		return 0;
	for (i = 0; i < strtab_count(a); i++) {
		const char *s = strtab_str(a, (uint32_t)i, &len);
		uint32_t j = strtab_find(b, s, len);
		const struct fcount *x = strtab_val(a, (uint32_t)i), *y;

		if (j == UINT32_MAX)
			return 0;
		y = strtab_val(b, j);
		if (x->n != y->n)
			return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *w;
	struct strtab *t, *back;
	char err[300];
	size_t len;
	int vi;

	pprof_fmt_sniff((const char *)data, size);
	for (vi = 0; vi < 3; vi++)
		strtab_free(stacks(data, size, vi, vi == 1));
	t = stacks(data, size, 0, 1);
	w = pprof_write_mem(t, "samples", "fuzz", &len, err, sizeof(err));
	if (w) {
		back = stacks(w, len, 0, 0);
		if (!same(t, back))
			abort();	/* what we write, we must read */
		strtab_free(back);
		free(w);
	}
	strtab_free(t);
	return 0;
}
