/* Unit tests for pprof_set's sort and writing: sets of stacks made up
 * here, written by pprof_set_save on one thread and on two, must be
 * byte for byte what folded_save writes of the same stacks spelled into
 * a table.  The sets reach each way the sort has: ranks of one byte (a
 * few names, some of them the starts of others and some going on with
 * bytes below ';'), of two and of four (over 32767 names); groups split
 * by radix, by pivots and by insertion; stacks alike for more than DEEP
 * bytes of their spelling (merge sorted); the same stack added twice
 * (summed); the halves of a large set sorted on two threads and merged. */
#include "check.h"
#include "folded.h"
#include "pprof_set.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A little generator of its own: the cases are the same every run. */
static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* The bytes of file path (*len of them); the caller frees them. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	do
		xgrow(&b, &cap, *len + 4096, 1);
	while ((*len += fread(b + *len, 1, cap - *len, f)) == cap);
	fclose(f);
	return b;
}

/* Whether s, written by pprof_set_save on threads, is what folded_save
 * writes of its stacks spelled into a table. */
static int same_as_table(struct pprof_set *s, int threads)
{
	char a[64], b[64], err[300], *x, *y;
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct strtab *none = strtab_new(sizeof(struct fcount));
	size_t nx = 0, ny = 0;
	int fa, fb, ok;

	snprintf(a, sizeof(a), "/tmp/test_pprof_set.XXXXXX");
	snprintf(b, sizeof(b), "/tmp/test_pprof_set.XXXXXX");
	fa = mkstemp(a), fb = mkstemp(b);
	if (fa < 0 || fb < 0)
		return 0;
	close(fa), close(fb);
	pprof_set_spell(s, t);
	pprof_set_threads(s, threads);
	ok = pprof_set_save(s, none, a, err, sizeof(err)) == 0 &&
	     folded_save(t, b, err, sizeof(err)) == 0;
	x = slurp(a, &nx);
	y = slurp(b, &ny);
	ok = ok && x && y && nx == ny && memcmp(x, y, nx) == 0 && nx > 0;
	free(x), free(y);
	unlink(a), unlink(b);
	strtab_free(t), strtab_free(none);
	return ok;
}

/* Adds the stack of n frames ids (root first) weighing c. */
static void add(struct pprof_set *s, const uint32_t *ids, size_t n, uint64_t c)
{
	uint32_t *d = pprof_set_add(s, n, c);
	size_t j;

	/* The set keeps them leaf first. */
	for (j = 0; j < n; j++)
		d[j] = ids[n - 1 - j];
}

/* Names "n0", "n1"... up to count, after those given; their ids in id. */
static void names(struct pprof_set *s, const char *const *given, size_t ngiven, size_t count,
		  uint32_t *id)
{
	char buf[32];
	size_t i;

	for (i = 0; i < count; i++) {
		if (i < ngiven) {
			id[i] = pprof_set_name(s, given[i], strlen(given[i]));
			continue;
		}
		snprintf(buf, sizeof(buf), "n%zu", i);
		id[i] = pprof_set_name(s, buf, strlen(buf));
	}
}

/* count stacks of up to most frames over nnames names, each going on
 * from one made before (so they share their first frames, as a real
 * profile's do) or new, some added twice. */
static void tree_stacks(struct pprof_set *s, const uint32_t *id, size_t nnames, size_t count,
			size_t most, uint64_t seed)
{
	uint32_t *all = xmalloc(count * most * sizeof(*all));
	size_t *len = xmalloc(count * sizeof(*len)), i, j, from, keep;
	uint64_t x = seed;

	for (i = 0; i < count; i++) {
		uint32_t *st = all + i * most;

		len[i] = 1 + next(&x) % most;
		keep = 0;
		if (i && next(&x) % 8) {
			from = next(&x) % i;
			keep = next(&x) % (len[from] + 1);
			keep = keep < len[i] ? keep : len[i];
			memcpy(st, all + from * most, keep * sizeof(*st));
		}
		for (j = keep; j < len[i]; j++)
			st[j] = id[next(&x) % nnames];
		add(s, st, len[i], 1 + next(&x) % 1000);
		if (next(&x) % 16 == 0)
			add(s, st, len[i], 7);
	}
	free(all), free(len);
}

/* A few names, some beginning others, some going on from another with a
 * byte below ';' (its ';' key sorts after them), one empty, one of high
 * bytes: ranks of one byte. */
static void few_names(void)
{
	static const char *const given[] = { "a", "a!b", "ab", "", "a b", "a\001", "\377x", "b",
					      "a!", "A", "aa", "a!b!c" };
	struct pprof_set *s = pprof_set_new();
	uint32_t id[20];

	names(s, given, sizeof(given) / sizeof(*given), 20, id);
	tree_stacks(s, id, 20, 3000, 12, 1);
	CHECK(same_as_table(s, 1));
	CHECK(same_as_table(s, 2));
	pprof_set_free(s);
}

/* Stacks alike for 300 frames, more than DEEP bytes of spelling, some
 * of them the starts of others: past DEEP they are merge sorted. */
static void deep(void)
{
	struct pprof_set *s = pprof_set_new();
	uint32_t id[8], st[320];
	uint64_t x = 2;
	size_t i, j, n;

	names(s, NULL, 0, 8, id);
	for (i = 0; i < 600; i++) {
		n = 300 + next(&x) % 20;
		for (j = 0; j < n; j++)
			st[j] = j < 300 ? id[j % 2] : id[next(&x) % 8];
		add(s, st, n, 1 + i);
	}
	CHECK(same_as_table(s, 1));
	pprof_set_free(s);
}

/* Names enough for ranks of two bytes and of four; sets large enough to
 * be sorted on two threads. */
static void many_names(size_t nnames, size_t count, size_t most, uint64_t seed)
{
	struct pprof_set *s = pprof_set_new();
	uint32_t *id = xmalloc(nnames * sizeof(*id));

	names(s, NULL, 0, nnames, id);
	tree_stacks(s, id, nnames, count, most, seed);
	CHECK(same_as_table(s, 1));
	CHECK(same_as_table(s, 2));
	free(id);
	pprof_set_free(s);
}

/* Many stacks of the same first frames and few names after: groups of
 * one word large and small, pivots splitting runs of many alike. */
static void alike(void)
{
	struct pprof_set *s = pprof_set_new();
	uint32_t id[4], st[24];
	uint64_t x = 3;
	size_t i, j, n;

	names(s, NULL, 0, 4, id);
	for (i = 0; i < 20000; i++) {
		n = 9 + next(&x) % 15;
		for (j = 0; j < n; j++)
			st[j] = j < 8 ? id[0] : id[next(&x) % (j < 14 ? 2 : 4)];
		add(s, st, n, 1);
	}
	CHECK(same_as_table(s, 1));
	CHECK(same_as_table(s, 2));
	pprof_set_free(s);
}

int main(void)
{
	few_names();
	deep();
	alike();
	many_names(1000, 20000, 30, 4);
	many_names(40000, 6000, 20, 5);
	return check_done();
}
