/* stree: nodes in an array, found by an open-addressing table keyed on
 * (parent, frame id).  The previous stack's fields are remembered so a
 * sorted input only looks up the fields after the bytes it shares with
 * the stack before it.
 *
 * Sorting: flamegraph.pl sorts whole lines, so below a node a stack that
 * ends at child c sorts by "c " and the stacks through c by "c;..."; the
 * two can be apart ("b", "b!;x", "b;y").  Each node therefore lists its
 * children twice over, once as ends and once as subtrees, ranked by those
 * keys, and a depth-first walk yields the ends in line order.  When the
 * stacks came in line order already, the order they first came in is the
 * answer and no sorting is done. */
#include "stree.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define NONE UINT32_MAX
#define EMPTY 0		/* an unused hash slot (keys hold parent + 1) */

struct snode {
	uint32_t parent;	/* the root is its own parent */
	uint32_t frame;		/* id in frames */
	uint32_t depth;		/* fields from the root */
	uint32_t val;		/* index of its value, or NONE */
};

struct stree {
	struct strtab *frames;	/* frame names and their ids; "" is id 0 */
	const char **fname;	/* frame id -> name (the strtab's copy) */
	size_t *flen;		/* frame id -> name length */
	size_t fcap;		/* capacity of fname and flen */
	uint64_t *fslot;	/* name index: hash tag << 32 | (id + 1) */
	size_t fmask;		/* its slots - 1 (a power of two) */
	struct snode *node;	/* nodes, [0] the root */
	size_t n;		/* nodes in use */
	size_t cap;		/* capacity of node */
	uint64_t *key;		/* hash slots: (parent + 1) << 32 | frame */
	uint32_t *id;		/* node of each slot */
	size_t mask;		/* slots - 1 (a power of two) */
	char *vals;		/* values of stack ends */
	size_t valsize;		/* bytes per value */
	size_t nvals;		/* values in use */
	size_t valcap;		/* capacity of vals, in values */
	char *prev;		/* the previous stack */
	size_t prevlen;		/* its length */
	size_t prevcap;		/* capacity of prev */
	uint32_t *pnode;	/* node of each of its fields */
	size_t *pend;		/* offset where each field ends */
	size_t pn;		/* its fields */
	size_t pcap;		/* capacity of pnode and pend */
	int sorted;		/* every stack came in line order */
	uint32_t *byval;	/* value index -> node, while sorted */
	size_t bvcap;		/* capacity of byval */
};

static void frame_rehash(struct stree *t)
{
	size_t mask = t->fmask * 2 + 1, i, n = strtab_count(t->frames);
	uint64_t *slot = xcalloc(mask + 1, sizeof(*slot));

	for (i = 0; i < n; i++) {
		uint64_t h = XXH3_64bits(t->fname[i], t->flen[i]);
		size_t j = (size_t)h & mask;

		while (slot[j])
			j = (j + 1) & mask;
		slot[j] = (h >> 32) << 32 | (i + 1);
	}
	free(t->fslot);
	t->fslot = slot;
	t->fmask = mask;
}

/* The id of the frame name, added when new. */
static uint32_t frame_of(struct stree *t, const char *name, size_t len)
{
	uint64_t h = XXH3_64bits(name, len), v;
	size_t j = (size_t)h & t->fmask;
	uint32_t id;

	for (; (v = t->fslot[j]) != 0; j = (j + 1) & t->fmask) {
		id = (uint32_t)v - 1;
		if (v >> 32 == h >> 32 && t->flen[id] == len && memcmp(t->fname[id], name, len) == 0)
			return id;
	}
	id = strtab_intern(t->frames, name, len, NULL);
	if (id == t->fcap) {
		xgrow(&t->fname, &t->fcap, (size_t)id + 1, sizeof(*t->fname));
		t->flen = xrealloc(t->flen, t->fcap * sizeof(*t->flen));
	}
	t->fname[id] = strtab_str(t->frames, id, &t->flen[id]);
	t->fslot[j] = (h >> 32) << 32 | ((uint64_t)id + 1);
	if ((size_t)id * 2 + 2 > t->fmask + 1)
		frame_rehash(t);
	return id;
}

struct stree *stree_new(size_t valsize)
{
	struct stree *t = xcalloc(1, sizeof(*t));

	t->frames = strtab_new(0);
	t->fmask = 255;
	t->fslot = xcalloc(t->fmask + 1, sizeof(*t->fslot));
	frame_of(t, "", 0);
	t->sorted = 1;
	t->valsize = valsize;
	t->mask = 1023;
	t->key = xcalloc(t->mask + 1, sizeof(*t->key));
	t->id = xmalloc((t->mask + 1) * sizeof(*t->id));
	xgrow(&t->node, &t->cap, 1, sizeof(*t->node));
	t->node[0].parent = STREE_ROOT;
	t->node[0].frame = 0;
	t->node[0].depth = 0;
	t->node[0].val = NONE;
	t->n = 1;
	return t;
}

void stree_free(struct stree *t)
{
	if (!t)
		return;
	strtab_free(t->frames);
	free(t->fname);
	free(t->flen);
	free(t->fslot);
	free(t->byval);
	free(t->node);
	free(t->key);
	free(t->id);
	free(t->vals);
	free(t->prev);
	free(t->pnode);
	free(t->pend);
	free(t);
}

static size_t slot_of(uint64_t k, size_t mask)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k & mask;
}

static void rehash(struct stree *t)
{
	size_t i, mask = t->mask * 2 + 1;
	uint64_t *key = xcalloc(mask + 1, sizeof(*key));
	uint32_t *id = xmalloc((mask + 1) * sizeof(*id));

	for (i = 0; i <= t->mask; i++) {
		size_t s;

		if (t->key[i] == EMPTY)
			continue;
		for (s = slot_of(t->key[i], mask); key[s] != EMPTY; s = (s + 1) & mask)
			;
		key[s] = t->key[i];
		id[s] = t->id[i];
	}
	free(t->key);
	free(t->id);
	t->key = key;
	t->id = id;
	t->mask = mask;
}

/* The child of parent named name, added when absent. */
static uint32_t child(struct stree *t, uint32_t parent, const char *name, size_t len)
{
	uint32_t frame = frame_of(t, name, len);
	uint64_t k = ((uint64_t)parent + 1) << 32 | frame;
	size_t s = slot_of(k, t->mask);
	struct snode *c;

	for (; t->key[s] != EMPTY; s = (s + 1) & t->mask)
		if (t->key[s] == k)
			return t->id[s];
	if (t->n >= NONE - 1)
		xalloc_fail(t->n * sizeof(*t->node));
	if (t->n == t->cap)
		xgrow(&t->node, &t->cap, t->n + 1, sizeof(*t->node));
	c = &t->node[t->n];
	c->parent = parent;
	c->frame = frame;
	c->depth = t->node[parent].depth + 1;
	c->val = NONE;
	t->key[s] = k;
	t->id[s] = (uint32_t)t->n;
	if (++t->n * 2 > t->mask + 1)
		rehash(t);
	return (uint32_t)(t->n - 1);
}

/* Index of the first byte where a and b differ (or the shorter length). */
static size_t mismatch(const char *a, size_t na, const char *b, size_t nb)
{
	size_t n = na < nb ? na : nb, i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return i + (size_t)__builtin_ctzll(x ^ y) / 8;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
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

static void remember(struct stree *t, size_t k, uint32_t node, size_t end)
{
	if (k >= t->pcap) {
		xgrow(&t->pnode, &t->pcap, k + 1, sizeof(*t->pnode));
		t->pend = xrealloc(t->pend, t->pcap * sizeof(*t->pend));
	}
	t->pnode[k] = node;
	t->pend[k] = end;
}

/* The node of s, a non-empty stack whose first p bytes are the previous
 * stack's. */
static uint32_t walk(struct stree *t, const char *s, size_t len, size_t p)
{
	size_t k = shared(t, s, len, p), start;
	uint32_t node = k ? t->pnode[k - 1] : STREE_ROOT;

	if (k && t->pend[k - 1] == len)
		return node;
	start = k ? t->pend[k - 1] + 1 : 0;
	for (;; k++) {
		const char *semi = memchr(s + start, ';', len - start);
		size_t end = semi ? (size_t)(semi - s) : len;

		node = child(t, node, s + start, end - start);
		remember(t, k, node, end);
		if (!semi)
			break;
		start = end + 1;
	}
	t->pn = k + 1;
	return node;
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

uint32_t stree_add(struct stree *t, const char *s, size_t len)
{
	size_t p = mismatch(t->prev, t->prevlen, s, len);
	uint32_t node = STREE_ROOT;
	struct snode *nd;

	if (t->sorted && t->nvals)
		t->sorted = in_order(t, s, len, p);
	if (len > 0)
		node = walk(t, s, len, p);
	else
		t->pn = 0;
	if (len > t->prevcap)
		xgrow(&t->prev, &t->prevcap, len, 1);
	memcpy(t->prev + p, s + p, len - p);
	t->prevlen = len;
	nd = &t->node[node];
	if (nd->val == NONE) {
		nd->val = (uint32_t)t->nvals++;
		if (t->valsize && t->nvals > t->valcap)
			xgrow(&t->vals, &t->valcap, t->nvals, t->valsize);
		if (t->valsize)
			memset(t->vals + (size_t)nd->val * t->valsize, 0, t->valsize);
		if (t->sorted) {
			if (nd->val == t->bvcap)
				xgrow(&t->byval, &t->bvcap, (size_t)nd->val + 1, sizeof(*t->byval));
			t->byval[nd->val] = node;
		}
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
		*len = t->flen[f];
	return t->fname[f];
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
	return sizeof(*t) + strtab_bytes(t->frames) + t->fcap * (sizeof(*t->fname) + sizeof(*t->flen)) +
	       (t->fmask + 1) * sizeof(*t->fslot) + t->cap * sizeof(*t->node) +
	       (t->mask + 1) * (sizeof(*t->key) + sizeof(*t->id)) + t->valcap * t->valsize +
	       t->prevcap + t->pcap * (sizeof(*t->pnode) + sizeof(*t->pend)) +
	       t->bvcap * sizeof(*t->byval);
}

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
	size_t *off = xcalloc(t->n + 2, sizeof(*off)), i, at;
	unsigned char *kids = xcalloc(t->n, 1);
	uint64_t *ent;

	for (i = 1; i < t->n; i++)
		kids[t->node[i].parent] = 1;
	for (i = 0; i < t->n; i++)
		off[t->node[i].parent + 2] += (t->node[i].val != NONE) + (i > 0 && kids[i]);
	for (i = 2; i < t->n + 2; i++)
		off[i] += off[i - 1];
	ent = xmalloc((off[t->n + 1] ? off[t->n + 1] : 1) * sizeof(*ent));
	for (i = 0; i < t->n; i++) {
		if (t->node[i].val != NONE) {
			at = off[t->node[i].parent + 1]++;
			ent[at] = i;
		}
		if (i > 0 && kids[i]) {
			at = off[t->node[i].parent + 1]++;
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

uint32_t *stree_sorted(const struct stree *t, size_t *n)
{
	uint32_t *out = xmalloc((t->nvals ? t->nvals : 1) * sizeof(*out));
	size_t *off, i, kcap = 0;
	uint64_t *ent;
	struct fkey *k = NULL;

	if (t->sorted) {
		if (t->nvals)
			memcpy(out, t->byval, t->nvals * sizeof(*out));
		*n = t->nvals;
		return out;
	}
	ent = entries(t, &off);
	for (i = 0; i < t->n; i++) {
		size_t m = off[i + 1] - off[i];

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
