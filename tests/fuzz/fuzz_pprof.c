/* libFuzzer target: pprof profiles.  The bytes are told (sniff), read,
 * and drawn for every sample type with and without labels; the stacks of
 * the first type are then written as a profile and read back, and must
 * come back the same, stack for stack and count for count.  Where
 * stackcollapse-pprof's own reading (pprof_fast) takes the profile, its
 * stacks must be those pprof_stack draws. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "fuzz.h"
#include "pprof.h"
#include "pprof_fast.h"
#include "pprof_format.h"
#include "pprof_set.h"
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

/* pprof_fast's stacks of type vi, spelled into a table; NULL when it
 * does not take the profile. */
static struct strtab *fast_stacks(const uint8_t *data, size_t size, int vi)
{
	unsigned char *buf = xmalloc(size + 1);
	struct pprof_fast *f = pprof_fast_new();
	struct pprof_set *set = pprof_set_new();
	struct strtab *t = NULL;
	struct pprof_prof *p;

	memcpy(buf, data, size);
	p = pprof_read_hooked(buf, size, PPROF_OWN, pprof_fast_hook(f));
	if (pprof_fast_finish(f, p, p->ntypes ? vi : 0, set) == 0) {
		t = strtab_new(sizeof(struct fcount));
		pprof_set_spell(set, t);
	}
	pprof_fast_free(f);
	pprof_set_free(set);
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
		/* The part past 2^64 too: how it was added shows there. */
		if (x->n != y->n || x->frac != y->frac)
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
	for (vi = 0; vi < 3; vi += 2) {
		if (!(back = fast_stacks(data, size, vi)))
			continue;
		t = stacks(data, size, vi, 0);
		if (!same(t, back))
			abort();	/* the two readings differ */
		strtab_free(t);
		strtab_free(back);
	}
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
