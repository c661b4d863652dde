/* libFuzzer target: pprof profiles.  The bytes are told (sniff), read,
 * and drawn for every sample type with and without labels; the stacks of
 * the first type are then written as a profile and read back, and must
 * come back the same, stack for stack and count for count.  Where
 * stackcollapse-pprof's own reading (pprof_fast) takes the profile, its
 * stacks must be those pprof_stack draws, and its output (names ranked,
 * stacks sorted and written by pprof_set) the lines folded_save writes
 * of pprof_stack's table. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	unsigned char *buf = xmalloc(size);
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct pprof_tally st;
	struct pprof_prof *p;

	memcpy(buf, data, size);
	p = pprof_read(buf, size, PPROF_OWN);
	pprof_stack_add(p, vi, labels, t, NULL, &st);
	pprof_free(p);
	return t;
}

/* The bytes of file path (*len of them); the caller frees them. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		abort();
	do
		xgrow(&b, &cap, *len + 4096, 1);
	while ((*len += fread(b + *len, 1, cap - *len, f)) == cap);
	fclose(f);
	return b;
}

/* Whether the set, as stackcollapse-pprof writes it (ranked, sorted,
 * spelled by pprof_set), is byte for byte table t as folded_save writes
 * it. */
static int same_lines(struct pprof_set *set, const struct strtab *t)
{
	static char a[4096], b[4096];
	struct strtab *none = strtab_new(sizeof(struct fcount));
	const char *dir = getenv("TMPDIR");
	char err[300], *x, *y;
	size_t nx, ny;
	int ok;

	snprintf(a, sizeof(a), "%s/fuzz_pprof.%ld.a", dir ? dir : "/tmp", (long)getpid());
	snprintf(b, sizeof(b), "%s/fuzz_pprof.%ld.b", dir ? dir : "/tmp", (long)getpid());
	if (pprof_set_save(set, none, a, err, sizeof(err)) < 0 ||
	    folded_save(t, b, err, sizeof(err)) < 0)
		abort();
	x = slurp(a, &nx);
	y = slurp(b, &ny);
	ok = nx == ny && memcmp(x, y, nx) == 0;
	free(x), free(y);
	unlink(a), unlink(b);
	strtab_free(none);
	return ok;
}

/* pprof_fast's stacks of type vi, read on threads (1: as the reader
 * steps over them, a streak at a time; 2: in runs of 64 bytes handed to
 * a worker), spelled into a table; NULL when it does not take the
 * profile.  Its lines must be those of want (written as the table's
 * are). */
static struct strtab *fast_stacks(const uint8_t *data, size_t size, int vi, int threads,
				  const struct strtab *want)
{
	unsigned char *buf = xmalloc(size);
	struct pprof_fast *f = pprof_fast_new(threads, 64);
	struct pprof_set *set = pprof_set_new();
	struct strtab *t = NULL;
	struct pprof_prof *p;

	memcpy(buf, data, size);
	p = pprof_read_hooked(buf, size, PPROF_OWN, pprof_fast_hook(f));
	if (pprof_fast_finish(f, p, p->ntypes ? vi : 0, set) == 0) {
		t = strtab_new(sizeof(struct fcount));
		pprof_set_spell(set, t);
		if (!same_lines(set, want))
			abort();	/* sorted or written wrong */
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
	int vi, i;

	pprof_fmt_sniff((const char *)data, size);
	for (vi = 0; vi < 3; vi++)
		strtab_free(stacks(data, size, vi, vi == 1));
	/* Types 0 and 2, each on one thread and on two, by the loops for
	 * x86-64-v3 (where the processor has it) and for every x86-64
	 * (FLAME_BASELINE, read when pprof_fast starts). */
	for (i = 0; i < 8; i++) {
		vi = i / 4 * 2;
		if (i & 2)
			setenv("FLAME_BASELINE", "1", 1);
		t = stacks(data, size, vi, 0);
		if ((back = fast_stacks(data, size, vi, 1 + i % 2, t)) && !same(t, back))
			abort();	/* the two readings differ */
		unsetenv("FLAME_BASELINE");
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
