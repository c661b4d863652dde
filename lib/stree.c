/* stree: nodes in an array, found by an open-addressing table keyed on
 * (parent, frame id).  The previous stack's fields are remembered so a
 * sorted input only looks up the fields after the bytes it shares with
 * the stack before it.  While stacks come in line order there is no
 * table: a node left behind is found again only as an earlier stack
 * that begins the current one (see begun), and those are kept in a list;
 * the first stack out of order builds the table of every node. */
#include "stree.h"
#include "stree_int.h"
#include "bytes.h"
#include "hkey.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct stree *stree_new(size_t valsize)
{
	struct stree *t = xcalloc(1, sizeof(*t));

	fnames_init(&t->fn, 256);
	fnames_id(&t->fn, "", 0);
	t->key = hkey_words()[0];
	t->sorted = 1;
	t->valsize = valsize;
	t->mask = 1023;
	xgrow(&t->node, &t->cap, 1, sizeof(*t->node));
	t->node[0] = (struct snode){ STREE_ROOT, 0, 0, NONE };	/* parent, frame, depth, val */
	t->n = 1;
	return t;
}

void stree_free(struct stree *t)
{
	if (!t)
		return;
	fnames_release(&t->fn);
	free(t->byval);
	free(t->node);
	free(t->slot);
	free(t->vals);
	free(t->prev);
	free(t->pnode);
	free(t->pend);
	free(t->enode);
	free(t->elen);
	free(t);
}

/* The hash of the edge parent -> frame: the low bits pick a slot, the
 * high 32 are the tag kept in it, so a probe rarely reads a node.  The
 * ids are the tree's, but which edges there are is the input's: key, a
 * secret of the process, keeps edges from being chosen to share a slot
 * (a bijection of the ids alone could be run backwards). */
static uint64_t edge_hash(uint64_t key, uint32_t parent, uint32_t frame)
{
	uint64_t k = ((uint64_t)parent << 32 | frame) ^ key;

	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return k;
}

/* Puts node i in the first free slot of its edge in table slot. */
static void put_node(const struct stree *t, uint64_t *slot, size_t mask, uint32_t i)
{
	uint64_t h = edge_hash(t->key, t->node[i].parent, t->node[i].frame);
	size_t s;

	for (s = (size_t)h & mask; slot[s] != EMPTY; s = (s + 1) & mask)
		;
	slot[s] = (h >> 32) << 32 | ((uint64_t)i + 1);
}

/* Rebuilds the table of every node but the root, with room to spare;
 * only out of line order. */
void stree_rehash(struct stree *t)
{
	size_t i, mask = t->mask;
	uint64_t *slot;

	t->nkeys = t->n - 1;
	while (FULL(t->nkeys + 1, mask + 1))
		mask = mask * 2 + 1;
	slot = xcalloc(mask + 1, sizeof(*slot));
	for (i = 1; i < t->n; i++)
		put_node(t, slot, mask, (uint32_t)i);
	free(t->slot);
	t->slot = slot;
	t->mask = mask;
}

/* Adds node, the newest, to the table. */
static void hash_put(struct stree *t, uint32_t node)
{
	if (!FULL(++t->nkeys, t->mask + 1))
		put_node(t, t->slot, t->mask, node);
	else
		stree_rehash(t);	/* it counts and holds node itself */
}

/* A new node: frame under parent, known to be absent. */
uint32_t stree_add_node(struct stree *t, uint32_t parent, uint32_t frame)
{
	struct snode *c;

	if (t->n >= NONE - 1)
		xalloc_fail(t->n * sizeof(*t->node));
	if (t->n == t->cap)
		xgrow(&t->node, &t->cap, t->n + 1, sizeof(*t->node));
	c = &t->node[t->n];
	c->parent = parent;
	c->frame = frame;
	c->depth = t->node[parent].depth + 1;
	c->val = NONE;
	t->n++;
	if (!t->sorted)
		hash_put(t, (uint32_t)(t->n - 1));
	return (uint32_t)(t->n - 1);
}

uint32_t stree_child_id(struct stree *t, uint32_t parent, uint32_t frame)
{
	uint64_t h = edge_hash(t->key, parent, frame), v;
	size_t s;
	struct snode *c;

	for (s = (size_t)h & t->mask; (v = t->slot[s]) != EMPTY; s = (s + 1) & t->mask) {
		c = &t->node[(uint32_t)v - 1];
		if (v >> 32 == h >> 32 && c->parent == parent && c->frame == frame)
			return (uint32_t)v - 1;
	}
	return stree_add_node(t, parent, frame);
}

/* Fields of s the same as the previous stack's: same bytes, ending at the
 * same offset. */
static size_t shared(const struct stree *t, const char *s, size_t len, size_t p)
{
	size_t k = 0;

	while (k < t->pn && t->pend[k] < p)
		k++;
	if (k < t->pn && t->pend[k] == p && (p == len || s[p] == ';'))
		k++;
	return k;
}

void stree_remember(struct stree *t, size_t k, uint32_t node, size_t end)
{
	if (k >= t->pcap) {
		xgrow(&t->pnode, &t->pcap, k + 1, sizeof(*t->pnode));
		t->pend = xrealloc(t->pend, t->pcap * sizeof(*t->pend));
	}
	t->pnode[k] = node;
	t->pend[k] = end;
}

/* In line order, the node of the stack s[0, end) when it was added
 * before and the previous stack begins with it (end <= p, where they
 * first differ), else NONE.  No other field past those shared with the
 * previous stack can be a node already: the stacks that sort between an
 * added stack and one it begins all begin with it, the previous one
 * included; a later field's parent is new, or a stack end whose stacks
 * below came (contiguously) before, so its children are new. */
uint32_t stree_begun(const struct stree *t, size_t end, size_t p)
{
	size_t i = t->en;

	/* elen ascends, each entry beginning the next; no more of them
	 * than bytes in the previous stack. */
	while (end <= p && i > 0 && t->elen[i - 1] >= end)
		if (t->elen[--i] == end)
			return t->enode[i];
	return NONE;
}

/* In line order: the list of begun for the next stack, after s (len
 * bytes, first differing from the previous stack at p, node its node). */
void stree_begin_next(struct stree *t, size_t len, size_t p, uint32_t node)
{
	while (t->en && t->elen[t->en - 1] > p)
		t->en--;	/* they do not begin s */
	if (len == 0 || (t->en && t->elen[t->en - 1] == len))
		return;		/* the root (no field's node), or s again */
	if (t->en == t->ecap) {
		xgrow(&t->enode, &t->ecap, t->en + 1, sizeof(*t->enode));
		t->elen = xrealloc(t->elen, t->ecap * sizeof(*t->elen));
	}
	t->enode[t->en] = node;
	t->elen[t->en++] = len;
}

/* The node of s, a non-empty stack whose first p bytes are the previous
 * stack's. */
static uint32_t walk(struct stree *t, const char *s, size_t len, size_t p)
{
	size_t k = shared(t, s, len, p), start, first;
	uint32_t node = k ? t->pnode[k - 1] : STREE_ROOT, found;

	if (k && t->pend[k - 1] == len)
		return node;
	start = k ? t->pend[k - 1] + 1 : 0;
	for (first = k;; k++) {
		const char *semi = memchr(s + start, ';', len - start);
		size_t end = semi ? (size_t)(semi - s) : len;

		if (!t->sorted)
			node = stree_child_id(t, node, fnames_id(&t->fn, s + start, end - start));
		else if (k > first || (found = stree_begun(t, end, p)) == NONE)
			node = stree_add_node(t, node, fnames_id(&t->fn, s + start, end - start));
		else
			node = found;
		stree_remember(t, k, node, end);
		if (end == len)
			break;
		start = end + 1;
	}
	t->pn = k + 1;
	return node;
}

#ifdef __SSE2__
/* Bit i set when a[i] == b[i], for 16 bytes. */
static unsigned same16(const char *a, const char *b)
{
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const void *)a),
							  _mm_loadu_si128((const void *)b)));
}
#endif

/* Where a and b first differ (or the shorter length): a stack shares
 * most of its bytes with the one before, so 32 at a time where SSE2 is. */
static size_t mismatch(const char *a, size_t na, const char *b, size_t nb)
{
	size_t i = 0;
#ifdef __SSE2__
	unsigned m;

	for (; i + 32 <= na && i + 32 <= nb; i += 32)
		if ((m = same16(a + i, b + i) | same16(a + i + 16, b + i + 16) << 16) != 0xffffffffu)
			return i + (size_t)__builtin_ctz(~m);
#endif
	/* a is NULL before the first stack: no offset from it */
	return i ? i + bytes_mismatch(a + i, na - i, b + i, nb - i) : bytes_mismatch(a, na, b, nb);
}

/* Whether s (first differing from the previous stack at p) sorts after it
 * or is the same: each compared as if followed by a space. */
static int in_order(const struct stree *t, const char *s, size_t len, size_t p)
{
	if (p < len && p < t->prevlen)
		return (unsigned char)t->prev[p] < (unsigned char)s[p];
	if (p < len)
		return (unsigned char)s[p] >= ' ';
	if (p < t->prevlen)
		return (unsigned char)t->prev[p] < ' ';
	return 1;
}

/* The previous stack, which came as ids, spelled into prev. */
static void prev_spell(struct stree *t)
{
	size_t len = t->pn ? t->pend[t->pn - 1] : 0, o = 0, k;

	if (len > t->prevcap)
		xgrow(&t->prev, &t->prevcap, len, 1);
	for (k = 0; k < t->pn; k++) {
		uint32_t f = t->node[t->pnode[k]].frame;

		if (k)
			t->prev[o++] = ';';
		memcpy(t->prev + o, t->fn.name[f], t->fn.len[f]);
		o += t->fn.len[f];
	}
	t->prevlen = len;
	t->prev_ids = 0;
}

uint32_t stree_add(struct stree *t, const char *s, size_t len)
{
	size_t p;
	uint32_t node = STREE_ROOT;

	if (t->prev_ids)
		prev_spell(t);
	p = mismatch(t->prev, t->prevlen, s, len);
	if (t->sorted && t->nvals && !in_order(t, s, len, p))
		t->sorted = 0;
	if (!t->sorted && !t->slot)
		stree_rehash(t);
	if (len > 0)
		node = walk(t, s, len, p);
	else
		t->pn = 0;
	if (len > t->prevcap)
		xgrow(&t->prev, &t->prevcap, len, 1);
	if (len > p)
		memcpy(t->prev + p, s + p, len - p);
	t->prevlen = len;
	node = stree_end_of(t, node);
	if (t->sorted)
		stree_begin_next(t, len, p, node);
	return node;
}

uint32_t stree_end_of(struct stree *t, uint32_t node)
{
	struct snode *nd = &t->node[node];

	if (nd->val == NONE) {
		nd->val = (uint32_t)t->nvals++;
		if (t->valsize && t->nvals > t->valcap)
			xgrow(&t->vals, &t->valcap, t->nvals, t->valsize);
		if (t->valsize)
			memset(t->vals + (size_t)nd->val * t->valsize, 0, t->valsize);
		if (nd->val == t->bvcap)
			xgrow(&t->byval, &t->bvcap, (size_t)nd->val + 1, sizeof(*t->byval));
		t->byval[nd->val] = node;
	}
	return node;
}

void *stree_val(const struct stree *t, uint32_t node)
{
	uint32_t v = t->node[node].val;

	return v == NONE || !t->valsize ? NULL : t->vals + (size_t)v * t->valsize;
}

uint32_t stree_parent(const struct stree *t, uint32_t node)
{
	return t->node[node].parent;
}

uint32_t stree_depth(const struct stree *t, uint32_t node)
{
	return t->node[node].depth;
}

const char *stree_name(const struct stree *t, uint32_t node, size_t *len)
{
	uint32_t f = t->node[node].frame;

	if (len)
		*len = t->fn.len[f];
	return t->fn.name[f];
}

int stree_spells(const struct stree *t, uint32_t node, const char *s, size_t len)
{
	size_t end = len;

	while (node != STREE_ROOT) {
		const struct snode *nd = &t->node[node];
		size_t n = t->fn.len[nd->frame];

		if (n > end || memcmp(s + end - n, t->fn.name[nd->frame], n) != 0)
			return 0;
		end -= n;
		node = nd->parent;
		if (node != STREE_ROOT && (end == 0 || s[--end] != ';'))
			return 0;
	}
	return end == 0;
}

void stree_trim(struct stree *t)
{
	free(t->slot);
	t->slot = NULL;	/* the next add out of order builds it again */
}

size_t stree_count(const struct stree *t)
{
	return t->n;
}

size_t stree_str(const struct stree *t, uint32_t node, char **buf, size_t *cap)
{
	size_t len = 0, o, n;
	uint32_t u;

	for (u = node; u != STREE_ROOT; u = t->node[u].parent) {
		stree_name(t, u, &n);
		len += n + (len > 0 || u != node);
	}
	xgrow(buf, cap, len + 1, 1);
	o = len;
	for (u = node; u != STREE_ROOT; u = t->node[u].parent) {
		const char *name = stree_name(t, u, &n);

		if (u != node)
			(*buf)[--o] = ';';
		o -= n;
		memcpy(*buf + o, name, n);
	}
	(*buf)[len] = '\0';
	return len;
}

size_t stree_bytes(const struct stree *t)
{
	return sizeof(*t) + fnames_bytes(&t->fn) + t->cap * sizeof(*t->node) +
	       (t->slot ? (t->mask + 1) * sizeof(*t->slot) : 0) + t->valcap * t->valsize +
	       t->ecap * (sizeof(*t->enode) + sizeof(*t->elen)) +
	       t->prevcap + t->pcap * (sizeof(*t->pnode) + sizeof(*t->pend)) +
	       t->bvcap * sizeof(*t->byval);
}

int stree_in_order(const struct stree *t)
{
	return t->sorted;
}

int stree_is_end(const struct stree *t, uint32_t node)
{
	return t->node[node].val != NONE;
}

uint32_t *stree_ends(const struct stree *t, size_t *n)
{
	uint32_t *out = xmalloc((t->nvals ? t->nvals : 1) * sizeof(*out));

	if (t->nvals)
		memcpy(out, t->byval, t->nvals * sizeof(*out));
	*n = t->nvals;
	return out;
}

uint32_t stree_frame(struct stree *t, const char *name, size_t len)
{
	return fnames_id(&t->fn, name, len);
}

const char *stree_frame_name(const struct stree *t, uint32_t frame, size_t *len)
{
	*len = t->fn.len[frame];
	return t->fn.name[frame];
}
