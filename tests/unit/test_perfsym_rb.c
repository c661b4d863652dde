/* perfsym_rb: the tree stays a red-black search tree through random
 * inserts and erases (equal keys kept in insertion order), and its
 * shape after ascending inserts is the textbook one.  Which symbol
 * perf's walk meets is checked against perf script itself in
 * tests/perfdata.sh. */
#include "check.h"
#include "perfsym_rb.h"

#include <stdint.h>
#include <stdlib.h>

#define NIL PERFSYM_RB_NIL

/* The black height under i, or -1 when the subtree breaks a rule (a red
 * node with a red child, unequal black heights, a wrong parent link, a
 * key out of order). */
static int black_height(const struct perfsym_rb *t, uint32_t i, const uint64_t *key)
{
	const struct perfsym_rb_node *n;
	int l, r;

	if (i == NIL)
		return 1;
	n = &t->v[i];
	if ((n->left != NIL && (t->v[n->left].parent != i || key[n->left] > key[i])) ||
	    (n->right != NIL && (t->v[n->right].parent != i || key[n->right] < key[i])))
		return -1;
	if (n->red && ((n->left != NIL && t->v[n->left].red) || (n->right != NIL && t->v[n->right].red)))
		return -1;
	l = black_height(t, n->left, key);
	r = black_height(t, n->right, key);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + !n->red;
}

/* In order, equal keys must come in the order they went in (their
 * index order here, as they are inserted by index). */
static int in_order(const struct perfsym_rb *t, uint32_t i, const uint64_t *key, uint32_t *last,
		    size_t *count)
{
	if (i == NIL)
		return 1;
	if (!in_order(t, t->v[i].left, key, last, count))
		return 0;
	if (*last != NIL && (key[*last] > key[i] || (key[*last] == key[i] && *last > i)))
		return 0;
	*last = i;
	++*count;
	return in_order(t, t->v[i].right, key, last, count);
}

static void random_runs(void)
{
	enum { N = 600 };
	uint64_t key[N];
	int run, bad = 0;

	srand(16);
	for (run = 0; run < 40; run++) {
		struct perfsym_rb t;
		size_t i, live = 0, seen = 0;
		uint32_t last = NIL;

		perfsym_rb_init(&t, N);
		for (i = 0; i < N; i++) {
			key[i] = (uint64_t)(rand() % (run % 2 ? 50 : 100000));
			perfsym_rb_insert(&t, (uint32_t)i, key);
			live++;
		}
		for (i = 0; i < N; i++)
			if (rand() % 3 == 0) {
				perfsym_rb_erase(&t, (uint32_t)i);
				live--;
			}
		if (t.root != NIL && (t.v[t.root].red || t.v[t.root].parent != NIL))
			bad++;
		if (black_height(&t, t.root, key) < 0 || !in_order(&t, t.root, key, &last, &seen) ||
		    seen != live)
			bad++;
		perfsym_rb_release(&t);
	}
	CHECK(bad == 0);
}

/* 1..10 inserted in order: root 4, under it 2 (1, 3) and 6 (5, 8 (7,
 * 9 (-, 10))), the tree every red-black textbook draws. */
static void ascending_shape(void)
{
	uint64_t key[10];
	struct perfsym_rb t;
	uint32_t i;

	perfsym_rb_init(&t, 10);
	for (i = 0; i < 10; i++) {
		key[i] = i + 1;
		perfsym_rb_insert(&t, i, key);
	}
	CHECK(t.root == 3);
	CHECK(t.v[3].left == 1 && t.v[3].right == 5);
	CHECK(t.v[1].left == 0 && t.v[1].right == 2);
	CHECK(t.v[5].left == 4 && t.v[5].right == 7);
	CHECK(t.v[7].left == 6 && t.v[7].right == 8);
	CHECK(t.v[8].left == NIL && t.v[8].right == 9);
	/* Erasing the root (two children) puts its successor, 5, there. */
	perfsym_rb_erase(&t, 3);
	CHECK(t.root == 4);
	CHECK(black_height(&t, t.root, key) > 0);
	perfsym_rb_release(&t);
}

int main(void)
{
	random_runs();
	ascending_shape();
	return check_done();
}
