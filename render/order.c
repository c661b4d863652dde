/* order: the stacks of a tree in the order flamegraph.pl draws them.  It
 * sorts whole lines, so below a node a stack that ends at child c sorts
 * by "c " and the stacks through c by "c;..."; the two can be apart ("b",
 * "b!;x", "b;y").  Each node therefore lists its children twice over,
 * once as ends and once as subtrees, ordered by those keys, and a
 * depth-first walk yields the ends in line order.  Stacks that came in
 * line order need none of it. */
#include "order.h"
#include "layout.h"
#include "stree.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* A sort key: a frame name followed by ' ' (a stack ends there) or ';'
 * (stacks go on below). */
struct fkey {
	const char *s;		/* the name */
	size_t len;		/* its length */
	uint32_t node;		/* the child it stands for */
	unsigned char term;	/* ' ' or ';' */
};

/* Bytewise order of name + term, a key that is a prefix of another first. */
static int cmp_fkey(const void *a, const void *b)
{
	const struct fkey *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int r = memcmp(x->s, y->s, n);
	unsigned char cx, cy;

	if (r)
		return r;
	cx = x->len == n ? x->term : (unsigned char)x->s[n];
	cy = y->len == n ? y->term : (unsigned char)y->s[n];
	if (cx != cy)
		return cx < cy ? -1 : 1;
	/* Equal so far: the one whose key ends here is a prefix. */
	if (x->len == y->len)
		return 0;
	return x->len < y->len ? -1 : 1;
}

/* The list of each node, as (through << 32 | child): a child ending a
 * stack (the root's own end goes in its own list) and a child with
 * children.  Entries of node u are ent[off[u]] to ent[off[u + 1]]. */
static uint64_t *entries(const struct stree *t, size_t **offp)
{
	size_t n = stree_count(t), *off = xcalloc(n + 2, sizeof(*off)), i, at;
	unsigned char *kids = xcalloc(n, 1);
	uint64_t *ent;

	for (i = 1; i < n; i++)
		kids[stree_parent(t, (uint32_t)i)] = 1;
	for (i = 0; i < n; i++)
		off[stree_parent(t, (uint32_t)i) + 2] +=
			(size_t)stree_is_end(t, (uint32_t)i) + (i > 0 && kids[i]);
	for (i = 2; i < n + 2; i++)
		off[i] += off[i - 1];
	ent = xmalloc((off[n + 1] ? off[n + 1] : 1) * sizeof(*ent));
	for (i = 0; i < n; i++) {
		uint32_t parent = stree_parent(t, (uint32_t)i);

		if (stree_is_end(t, (uint32_t)i)) {
			at = off[parent + 1]++;
			ent[at] = i;
		}
		if (i > 0 && kids[i]) {
			at = off[parent + 1]++;
			ent[at] = (uint64_t)1 << 32 | i;
		}
	}
	free(kids);
	*offp = off;
	return ent;
}

/* Orders the n > 1 entries at e by their keys; k has room for n. */
static void sort_range(const struct stree *t, uint64_t *e, size_t n, struct fkey *k)
{
	size_t i;

	for (i = 0; i < n; i++) {
		k[i].node = (uint32_t)e[i];
		k[i].term = e[i] >> 32 ? ';' : ' ';
		k[i].s = stree_name(t, k[i].node, &k[i].len);
	}
	qsort(k, n, sizeof(*k), cmp_fkey);
	for (i = 0; i < n; i++)
		e[i] = (uint64_t)(k[i].term == ';') << 32 | k[i].node;
}

/* Depth-first over the ordered lists: the ends come out in line order. */
static size_t walk_sorted(const uint64_t *ent, const size_t *off, uint32_t *out)
{
	size_t *pos = NULL, *end = NULL, cap = 0, cap2 = 0, sp = 1, n = 0;

	xgrow(&pos, &cap, 16, sizeof(*pos));
	xgrow(&end, &cap2, 16, sizeof(*end));
	pos[0] = off[0];
	end[0] = off[1];
	while (sp > 0) {
		uint64_t e;
		uint32_t c;

		if (pos[sp - 1] == end[sp - 1]) {
			sp--;
			continue;
		}
		e = ent[pos[sp - 1]++];
		c = (uint32_t)e;
		if (!(e >> 32)) {
			out[n++] = c;
			continue;
		}
		if (sp == cap) {
			xgrow(&pos, &cap, sp + 1, sizeof(*pos));
			xgrow(&end, &cap2, sp + 1, sizeof(*end));
		}
		pos[sp] = off[c];
		end[sp++] = off[c + 1];
	}
	free(pos);
	free(end);
	return n;
}

uint32_t *order_lines(const struct stree *t, size_t *n)
{
	size_t *off, i, m, kcap = 0, nodes = stree_count(t);
	uint32_t *out;
	uint64_t *ent;
	struct fkey *k = NULL;

	if (stree_in_order(t))
		return stree_ends(t, n);
	out = stree_ends(t, &m);
	ent = entries(t, &off);
	for (i = 0; i < nodes; i++) {
		m = off[i + 1] - off[i];
		if (m < 2)
			continue;
		xgrow(&k, &kcap, m, sizeof(*k));
		sort_range(t, ent + off[i], m, k);
	}
	free(k);
	*n = walk_sorted(ent, off, out);
	free(ent);
	free(off);
	return out;
}

/* What order_by_weight compares by: per node, its inclusive weight and
 * the first entry through it (line order breaks ties). */
struct wsort {
	const struct stree *t;	/* the stacks */
	double *weight;		/* per node */
	size_t *first;		/* per node: first entry index through it */
	const struct lentry *e;	/* entries in line order */
};

/* -1 when entry a goes before entry b. */
static int cmp_weight(const struct wsort *w, size_t a, size_t b)
{
	uint32_t x = w->e[a].node, y = w->e[b].node;
	uint32_t dx = stree_depth(w->t, x), dy = stree_depth(w->t, y), da = dx, db = dy;

	if (x == y)
		return a < b ? -1 : a > b;
	while (dx > dy) {
		x = stree_parent(w->t, x);
		dx--;
	}
	while (dy > dx) {
		y = stree_parent(w->t, y);
		dy--;
	}
	/* One stack ends where the other goes on: the end comes last. */
	if (x == y)
		return da < db ? 1 : -1;
	while (stree_parent(w->t, x) != stree_parent(w->t, y)) {
		x = stree_parent(w->t, x);
		y = stree_parent(w->t, y);
	}
	if (w->weight[x] != w->weight[y])
		return w->weight[x] > w->weight[y] ? -1 : 1;
	return w->first[x] < w->first[y] ? -1 : 1;
}

/* Merge sort of idx[0..n) by cmp_weight (stable; qsort has no context). */
static void msort(const struct wsort *w, size_t *idx, size_t *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	msort(w, idx, tmp, h);
	msort(w, idx + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = cmp_weight(w, idx[j], idx[i]) < 0 ? idx[j++] : idx[i++];
	while (i < h)
		tmp[k++] = idx[i++];
	while (j < n)
		tmp[k++] = idx[j++];
	memcpy(idx, tmp, n * sizeof(*idx));
}

void order_by_weight(const struct stree *t, struct lentry *e, size_t n)
{
	size_t nodes = stree_count(t), i;
	struct wsort w;
	size_t *idx = xmalloc((n ? n : 1) * sizeof(*idx)), *tmp = xmalloc((n ? n : 1) * sizeof(*tmp));
	struct lentry *copy = xmalloc((n ? n : 1) * sizeof(*copy));

	w.t = t;
	w.e = copy;
	w.weight = xcalloc(nodes, sizeof(*w.weight));
	w.first = xmalloc(nodes * sizeof(*w.first));
	for (i = 0; i < nodes; i++)
		w.first[i] = (size_t)-1;
	memcpy(copy, e, n * sizeof(*e));
	for (i = n; i-- > 0;) {
		uint32_t u;

		for (u = e[i].node; u != STREE_ROOT; u = stree_parent(t, u)) {
			w.weight[u] += e[i].weight;
			w.first[u] = i;
		}
		idx[i] = i;
	}
	msort(&w, idx, tmp, n);
	for (i = 0; i < n; i++)
		e[i] = copy[idx[i]];
	free(w.weight);
	free(w.first);
	free(idx);
	free(tmp);
	free(copy);
}
