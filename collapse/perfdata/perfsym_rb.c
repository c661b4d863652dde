/* perfsym_rb: red-black insertion and erasure, shaped as perf's tree. */
#include "perfsym_rb.h"
#include "xalloc.h"

#include <stdlib.h>

#define NIL PERFSYM_RB_NIL

void perfsym_rb_init(struct perfsym_rb *t, size_t n)
{
	size_t i;

	t->v = xmalloc((n ? n : 1) * sizeof(*t->v));
	t->n = n;
	t->root = NIL;
	for (i = 0; i < n; i++) {
		t->v[i].left = t->v[i].right = t->v[i].parent = NIL;
		t->v[i].red = 0;
	}
}

void perfsym_rb_release(struct perfsym_rb *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
	t->root = NIL;
}

static int is_red(const struct perfsym_rb *t, uint32_t i)
{
	return i != NIL && t->v[i].red;
}

/* Puts c where p was under p's parent (c may be NIL). */
static void replace(struct perfsym_rb *t, uint32_t p, uint32_t c)
{
	uint32_t g = t->v[p].parent;

	if (g == NIL)
		t->root = c;
	else if (t->v[g].left == p)
		t->v[g].left = c;
	else
		t->v[g].right = c;
	if (c != NIL)
		t->v[c].parent = g;
}

/* x's right child comes up in x's place, x becomes its left child. */
static void rotate_left(struct perfsym_rb *t, uint32_t x)
{
	uint32_t y = t->v[x].right;

	t->v[x].right = t->v[y].left;
	if (t->v[y].left != NIL)
		t->v[t->v[y].left].parent = x;
	replace(t, x, y);
	t->v[y].left = x;
	t->v[x].parent = y;
}

static void rotate_right(struct perfsym_rb *t, uint32_t x)
{
	uint32_t y = t->v[x].left;

	t->v[x].left = t->v[y].right;
	if (t->v[y].right != NIL)
		t->v[t->v[y].right].parent = x;
	replace(t, x, y);
	t->v[y].right = x;
	t->v[x].parent = y;
}

/* The rotation toward side (0: left) at x, or its mirror. */
static void rotate(struct perfsym_rb *t, uint32_t x, int right)
{
	if (right)
		rotate_right(t, x);
	else
		rotate_left(t, x);
}

static uint32_t child(const struct perfsym_rb *t, uint32_t x, int right)
{
	return right ? t->v[x].right : t->v[x].left;
}

static void insert_fixup(struct perfsym_rb *t, uint32_t z)
{
	while (is_red(t, t->v[z].parent)) {
		uint32_t p = t->v[z].parent, g = t->v[p].parent;
		int pright = t->v[g].right == p;	/* the parent's side */
		uint32_t u = child(t, g, !pright);

		if (is_red(t, u)) {
			t->v[p].red = t->v[u].red = 0;
			t->v[g].red = 1;
			z = g;
			continue;
		}
		if (z == child(t, p, !pright)) {
			z = p;
			rotate(t, z, pright);
			p = t->v[z].parent;
		}
		t->v[p].red = 0;
		t->v[g].red = 1;
		rotate(t, g, !pright);
	}
	t->v[t->root].red = 0;
}

void perfsym_rb_insert(struct perfsym_rb *t, uint32_t i, const uint64_t *key)
{
	uint32_t p = NIL, c = t->root;
	int right = 0;

	while (c != NIL) {
		p = c;
		right = !(key[i] < key[c]);
		c = child(t, c, right);
	}
	t->v[i].parent = p;
	t->v[i].left = t->v[i].right = NIL;
	t->v[i].red = 1;
	if (p == NIL)
		t->root = i;
	else if (right)
		t->v[p].right = i;
	else
		t->v[p].left = i;
	insert_fixup(t, i);
}

/* Restores the black heights after a black node left the place x (NIL
 * maybe) under p. */
static void erase_fixup(struct perfsym_rb *t, uint32_t x, uint32_t p)
{
	while (x != t->root && !is_red(t, x)) {
		int xright = t->v[p].right == x && (x != NIL || t->v[p].left != NIL);
		uint32_t w = child(t, p, !xright);

		if (is_red(t, w)) {
			t->v[w].red = 0;
			t->v[p].red = 1;
			rotate(t, p, xright);
			w = child(t, p, !xright);
		}
		if (!is_red(t, t->v[w].left) && !is_red(t, t->v[w].right)) {
			t->v[w].red = 1;
			x = p;
			p = t->v[x].parent;
			continue;
		}
		if (!is_red(t, child(t, w, !xright))) {
			t->v[child(t, w, xright)].red = 0;
			t->v[w].red = 1;
			rotate(t, w, !xright);
			w = child(t, p, !xright);
		}
		t->v[w].red = t->v[p].red;
		t->v[p].red = 0;
		t->v[child(t, w, !xright)].red = 0;
		rotate(t, p, xright);
		x = t->root;
	}
	if (x != NIL)
		t->v[x].red = 0;
}

void perfsym_rb_erase(struct perfsym_rb *t, uint32_t z)
{
	uint32_t x, xp, y = z;
	int black = !t->v[z].red;

	if (t->v[z].left == NIL || t->v[z].right == NIL) {
		x = t->v[z].left != NIL ? t->v[z].left : t->v[z].right;
		xp = t->v[z].parent;
		replace(t, z, x);
	} else {
		y = t->v[z].right;
		while (t->v[y].left != NIL)
			y = t->v[y].left;
		black = !t->v[y].red;
		x = t->v[y].right;
		if (t->v[y].parent == z) {
			xp = y;
		} else {
			xp = t->v[y].parent;
			replace(t, y, x);
			t->v[y].right = t->v[z].right;
			t->v[t->v[y].right].parent = y;
		}
		replace(t, z, y);
		t->v[y].left = t->v[z].left;
		t->v[t->v[y].left].parent = y;
		t->v[y].red = t->v[z].red;
	}
	t->v[z].left = t->v[z].right = t->v[z].parent = NIL;
	if (black)
		erase_fixup(t, x, xp);
}
