/* Unit tests for lib/stree (nodes, values) and render/order: the line
 * order of order_lines against a plain sort of the stack strings. */
#include "check.h"
#include "order.h"
#include "stree.h"
#include "strtab.h"

#include <stdlib.h>

#define MAXS 4000

struct str {
	char s[12];		/* the stack */
	size_t len;		/* its length */
};

/* flamegraph.pl's order: the strings followed by a space, bytewise. */
static int cmp_line(const void *a, const void *b)
{
	const struct str *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int r = memcmp(x->s, y->s, n);

	if (r || x->len == y->len)
		return r;
	if (x->len < y->len)
		return (unsigned char)y->s[n] < ' ' ? 1 : -1;
	return (unsigned char)x->s[n] < ' ' ? -1 : 1;
}

/* No two nodes are the same (parent, name): a path is found again, not
 * built twice, however the stacks came. */
static int unique_nodes(const struct stree *t)
{
	struct strtab *seen = strtab_new(0);
	size_t i, len, n = stree_count(t);
	char key[64];
	int ok;

	for (i = 1; i < n; i++) {
		uint32_t parent = stree_parent(t, (uint32_t)i);
		const char *name = stree_name(t, (uint32_t)i, &len);

		memcpy(key, &parent, sizeof(parent));
		memcpy(key + sizeof(parent), name, len);
		strtab_intern(seen, key, sizeof(parent) + len, NULL);
	}
	ok = strtab_count(seen) == n - 1;
	strtab_free(seen);
	return ok;
}

static void test_basic(void)
{
	struct stree *t = stree_new(sizeof(long));
	uint32_t ab = stree_add(t, "a;b", 3), a, abt;
	char *buf = NULL;
	size_t cap = 0, len;

	*(long *)stree_val(t, ab) = 7;
	a = stree_parent(t, ab);
	CHECK(stree_add(t, "a;b", 3) == ab && *(long *)stree_val(t, ab) == 7);
	CHECK(stree_val(t, a) == NULL && stree_depth(t, ab) == 2);
	CHECK(stree_parent(t, a) == STREE_ROOT && stree_add(t, "", 0) == STREE_ROOT);
	abt = stree_add(t, "a;b;", 4);	/* a trailing empty field is a node */
	CHECK(abt != ab && stree_parent(t, abt) == ab && stree_depth(t, abt) == 3);
	CHECK(stree_add(t, "a", 1) == a && stree_val(t, a) != NULL);
	CHECK(stree_add(t, "a;b;", 4) == abt && stree_add(t, "a;b", 3) == ab);
	CHECK(strcmp(stree_name(t, ab, &len), "b") == 0 && len == 1);
	len = stree_str(t, abt, &buf, &cap);
	CHECK(len == 4 && memcmp(buf, "a;b;", 4) == 0);
	CHECK(stree_str(t, STREE_ROOT, &buf, &cap) == 0);
	CHECK(stree_add(t, ";;x\0y", 5) != stree_add(t, ";;x", 3));
	CHECK(stree_count(t) == 8 && stree_bytes(t) > 0);
	free(buf);
	stree_free(t);
	/* In line order "a;b" is left for "a;b!;x" and met again in "a;b;y". */
	t = stree_new(0);
	ab = stree_add(t, "a;b", 3);
	a = stree_parent(t, ab);
	stree_add(t, "a;b!;x", 6);
	CHECK(stree_parent(t, stree_add(t, "a;b;y", 5)) == ab);
	CHECK(stree_parent(t, stree_add(t, "a;b!", 4)) == a);	/* out of order now */
	CHECK(stree_add(t, "a;b;y", 5) == stree_add(t, "a;b;y", 5) && unique_nodes(t));
	stree_free(t);
	stree_free(NULL);
}

/* Random stacks over an alphabet of bytes that sort around ';' and ' '. */
static size_t gen(struct str *s, size_t n, unsigned long seed)
{
	static const char abc[] = "ab;; !\001.:\0";
	size_t i, j;

	for (i = 0; i < n; i++) {
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		s[i].len = (seed >> 33) % 8;
		for (j = 0; j < s[i].len; j++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			s[i].s[j] = abc[(seed >> 33) % (sizeof(abc) - 1)];
		}
	}
	return n;
}

/* presort 0: the stacks as generated; 1: in line order; 2: the first
 * half in line order, the rest backwards (the tree leaves line order
 * with nodes it did not index, and must find them again). */
static void check_order(struct str *s, size_t n, int presort)
{
	struct stree *t = stree_new(sizeof(size_t));
	struct str *ref = malloc(n * sizeof(*ref));
	size_t i, k = 0, got, cap = 0, distinct = 0, len;
	uint32_t *ids;
	char *buf = NULL;
	int ok = 1;

	memcpy(ref, s, n * sizeof(*ref));
	qsort(ref, n, sizeof(*ref), cmp_line);
	for (i = 0; i < n; i++) {
		const struct str *x = !presort ? &s[i] : presort == 1 || i < n / 2 ? &ref[i]
				       : &ref[n - 1 - (i - n / 2)];
		size_t *v;

		if (i == n / 2)
			stree_trim(t);	/* adding goes on as before */
		v = stree_val(t, stree_add(t, x->s, x->len));
		*v += 1;
	}
	for (i = 0; i < n; i++)
		distinct += i == 0 || cmp_line(&ref[i - 1], &ref[i]) != 0;
	ids = order_lines(t, &got);
	CHECK(presort != 1 || stree_in_order(t));
	CHECK(got == distinct);
	for (i = 0; i < got && ok; i++) {
		size_t reps = *(size_t *)stree_val(t, ids[i]);

		len = stree_str(t, ids[i], &buf, &cap);
		ok = len == ref[k].len && memcmp(buf, ref[k].s, len) == 0 &&
		     stree_spells(t, ids[i], ref[k].s, ref[k].len) &&
		     !stree_spells(t, ids[i], "z;z", 1 + 2 * (ids[i] % 2));
		k += reps;
	}
	CHECK(ok && k == n);
	CHECK(unique_nodes(t));
	free(ids);
	free(buf);
	free(ref);
	stree_free(t);
}

/* Stack x's fields as frame ids of t; returns how many. */
static size_t split_ids(struct stree *t, const struct str *x, uint32_t *f)
{
	size_t n = 0, start = 0, i;

	for (i = 0; i <= x->len; i++) {
		if (i < x->len && x->s[i] != ';')
			continue;
		f[n++] = stree_frame(t, x->s + start, i - start);
		start = i + 1;
	}
	return n;
}

/* stree_add_ids against stree_add: the same stacks, as text into one tree
 * and as ids (or, with mix, text and ids by turns) into another, give the
 * same node at every step, the same order verdict, and nodes that spell
 * the stack.  presort: in line order, but for stacks swap and swap + 1
 * traded (the first stack out of order is the one verdict that counts). */
static void check_ids(struct str *s, size_t n, int presort, int mix, size_t swap)
{
	struct stree *a = stree_new(sizeof(size_t)), *b = stree_new(sizeof(size_t));
	struct str *ref = malloc(n * sizeof(*ref));
	uint32_t f[16], na, nb;
	size_t i, cap = 0, len;
	char *buf = NULL;
	int ok = 1;

	memcpy(ref, s, n * sizeof(*ref));
	if (presort)
		qsort(ref, n, sizeof(*ref), cmp_line);
	if (swap + 1 < n) {
		struct str tmp = ref[swap];

		ref[swap] = ref[swap + 1];
		ref[swap + 1] = tmp;
	}
	for (i = 0; i < n && ok; i++) {
		const struct str *x = &ref[i];

		if (i == n / 3) {
			stree_trim(a);
			stree_trim(b);
		}
		na = stree_add(a, x->s, x->len);
		if (mix && i % 3 == 1)
			nb = stree_add(b, x->s, x->len);
		else
			nb = stree_add_ids(b, f, split_ids(b, x, f));
		len = stree_str(b, nb, &buf, &cap);
		ok = na == nb && stree_in_order(a) == stree_in_order(b) && stree_count(a) == stree_count(b) &&
		     len == x->len && memcmp(buf, x->s, len) == 0;
	}
	CHECK(ok);
	CHECK(!presort || swap + 1 < n || stree_in_order(b));
	CHECK(unique_nodes(b));
	free(buf);
	free(ref);
	stree_free(a);
	stree_free(b);
}

int main(void)
{
	static struct str s[MAXS];
	unsigned long seed;
	size_t k;

	test_basic();
	for (seed = 1; seed <= 20; seed++) {
		size_t n = gen(s, seed * 200, seed);

		check_order(s, n, 0);
		check_order(s, n, 1);
		check_order(s, n, 2);
		check_ids(s, n, 0, 0, n);
		check_ids(s, n, 1, 0, n);
		check_ids(s, n, 0, 1, n);
		check_ids(s, n, 1, 1, n);
		for (k = seed; k + 1 < n; k += 37)
			check_ids(s, n, 1, (int)(k % 2), k);
	}
	return check_done();
}
