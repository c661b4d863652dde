/* stree_ids: stacks added to the call tree as frame ids (stree_add_ids),
 * for callers whose frames are interned already: the previous stack is
 * kept as its nodes only, spelled out by stree_add if text comes next. */
#include "stree.h"
#include "stree_int.h"

#include <string.h>

/* Fields of the previous stack: after text, pnode may still hold the
 * fields of a longer one before it (walk keeps them). */
static size_t prev_fields(const struct stree *t)
{
	size_t k = 0;

	if (t->prev_ids)
		return t->pn;
	if (t->prevlen == 0)
		return 0;
	while (k < t->pn && t->pend[k] <= t->prevlen)
		k++;
	return k;
}

/* The previous stack (pn fields) and f (n) share their first k fields:
 * into *p the byte where the two, spelled, first differ; and whether f
 * comes in line order after the previous one (or is it).  Line order
 * compares the bytes that follow, a stack's end counting as ' ': after
 * k > 0 fields, ';' or that end; then field k's name and ';' or the end.
 * Names hold no ';'. */
static int ids_compare(const struct stree *t, size_t pn, const uint32_t *f, size_t n, size_t k,
		       size_t *p)
{
	size_t base = k ? t->pend[k - 1] : 0, nx = 0, ny = 0, m = 0;
	const char *x = "", *y = "";
	int cx, cy;

	if (k > 0 && (k >= pn || k >= n)) {
		*p = base;	/* one of them ends there */
		return k >= pn;
	}
	if (k < pn)
		x = stree_frame_name(t, t->node[t->pnode[k]].frame, &nx);
	if (k < n)
		y = stree_frame_name(t, f[k], &ny);
	while (m < nx && m < ny && x[m] == y[m])
		m++;
	*p = base + (k > 0) + m;	/* both go on past a ';' */
	cx = nx > m ? (unsigned char)x[m] : k + 1 < pn ? ';' : ' ';
	cy = ny > m ? (unsigned char)y[m] : k + 1 < n ? ';' : ' ';
	if (cx != cy)
		return cx < cy;
	/* The same byte: one side's end (' ') against a ' ' in the other's
	 * name, so the side that ended is first; or the same name. */
	return nx <= ny;
}

uint32_t stree_add_ids(struct stree *t, const uint32_t *f, size_t n)
{
	size_t pn = prev_fields(t), k = 0, first, end, p;
	uint32_t node, found;

	if (n == 1 && t->fn.len[f[0]] == 0)
		n = 0;	/* "" is the root */
	while (k < pn && k < n && t->node[t->pnode[k]].frame == f[k])
		k++;
	if (!ids_compare(t, pn, f, n, k, &p) && t->sorted && t->nvals)
		t->sorted = 0;
	if (!t->sorted && !t->slot)
		stree_rehash(t);
	node = k ? t->pnode[k - 1] : STREE_ROOT;
	end = k ? t->pend[k - 1] : 0;
	for (first = k; k < n; k++) {
		end += (k ? 1 : 0) + t->fn.len[f[k]];
		if (!t->sorted)
			node = stree_child_id(t, node, f[k]);
		else if (k > first || (found = stree_begun(t, end, p)) == NONE)
			node = stree_add_node(t, node, f[k]);
		else
			node = found;
		stree_remember(t, k, node, end);
	}
	t->pn = n;
	t->prev_ids = 1;
	node = stree_end_of(t, node);
	if (t->sorted)
		stree_begin_next(t, n ? t->pend[n - 1] : 0, p, node);
	return node;
}
