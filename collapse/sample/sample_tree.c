/* sample_tree: the call tree of sample reports (see the header).  A
 * report's nodes nearly all come once, under a parent met just before:
 * a node's children are found by walking its few, and only a node with
 * many (the threads under the root) has them in a hash index. */
#include "sample_tree.h"
/* A frame is hashed a line: inline (fnames_id's hash is the one fnames
 * rehashes with, the same function). */
#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include "fnames.h"
#include "hkey.h"
#include "folded.h"
#include "outfile.h"
#include "stacksink.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define NONE 0u			/* no node: the root is nobody's child */
#define SCAN 8			/* children walked; a node with more is indexed */
#define CALLEES 8		/* callees a frame remembers */
#define HASHED 0x80000000u	/* in frame: the node's children are indexed */
#define OUTBUF (256 * 1024)	/* bytes written at a time */

struct tnode {
	uint32_t frame;		/* frame id, HASHED or'ed in */
	uint32_t kid;		/* its newest child, or NONE */
	uint32_t next;		/* its next older sibling, or NONE */
	uint32_t val;		/* 1 + index of its count; 0: it ends no stack */
};

struct edge {
	uint32_t parent;	/* the key: a parent... */
	uint32_t frame;		/* ...and a frame id */
	uint32_t node;		/* the child; NONE: an empty slot */
};

/* What is known of a frame. */
struct fmeta {
	uint32_t callee;	/* its newest callee remembered, or 0 */
	uint8_t semi;		/* 1: the name holds a ';' */
	uint8_t ncallee;	/* callees remembered */
};

/* A callee remembered: a frame met under a node of another. */
struct callee {
	uint32_t frame;		/* its id */
	uint32_t next;		/* the caller's next older one, or 0 */
};

struct sample_tree {
	struct fnames fn;	/* frame names */
	struct fmeta *meta;	/* by frame id */
	size_t nmeta, mcap;	/* ids known there, and room */
	struct callee *ce;	/* callees, [0] unused */
	size_t nce, cecap;	/* in use ([0] included), and room */
	struct tnode *node;	/* nodes, [0] the root */
	size_t n, cap;		/* nodes in use, and room */
	struct fcount *val;	/* counts of the stacks' ends */
	size_t nval, vcap;	/* counts in use, and room */
	struct edge *edge;	/* the index: children of the nodes with many */
	size_t nedge, emask;	/* edges in it, and its slots - 1 (0: none yet) */
	uint64_t key;		/* mixed into the edges' slots (hkey_words') */
};

struct sample_tree *sample_tree_new(void)
{
	struct sample_tree *t = xcalloc(1, sizeof(*t));

	fnames_init(&t->fn, 1024);
	t->key = hkey_words()[0];
	xgrow(&t->node, &t->cap, 1024, sizeof(*t->node));
	memset(&t->node[0], 0, sizeof(t->node[0]));
	t->n = 1;
	return t;
}

void sample_tree_free(struct sample_tree *t)
{
	if (!t)
		return;
	fnames_release(&t->fn);
	free(t->meta);
	free(t->ce);
	free(t->node);
	free(t->val);
	free(t->edge);
	free(t);
}

/* The slot of the edge parent -> frame; key (a secret of the process,
 * hkey's) keeps edges from being chosen to share one. */
static size_t edge_slot(uint64_t key, uint32_t parent, uint32_t frame, size_t mask)
{
	uint64_t k = (((uint64_t)parent << 32 | frame) ^ key) * 0x9e3779b97f4a7c15ull;

	return (size_t)(k ^ k >> 29) & mask;
}

static void edge_put(struct edge *e, size_t mask, uint64_t key, uint32_t parent, uint32_t frame,
		     uint32_t node)
{
	size_t j;

	for (j = edge_slot(key, parent, frame, mask); e[j].node != NONE; j = (j + 1) & mask)
		;
	e[j].parent = parent;
	e[j].frame = frame;
	e[j].node = node;
}

/* Indexes node (a child of parent for frame), growing the index past
 * three quarters full. */
static void edge_add(struct sample_tree *t, uint32_t parent, uint32_t frame, uint32_t node)
{
	size_t i, mask;
	struct edge *e;

	if ((t->nedge + 1) * 4 > (t->emask + 1) * 3 || t->emask == 0) {
		mask = t->emask ? t->emask * 2 + 1 : 1023;
		e = xcalloc(mask + 1, sizeof(*e));
		for (i = 0; t->emask && i <= t->emask; i++)
			if (t->edge[i].node != NONE)
				edge_put(e, mask, t->key, t->edge[i].parent, t->edge[i].frame,
					 t->edge[i].node);
		free(t->edge);
		t->edge = e;
		t->emask = mask;
	}
	edge_put(t->edge, t->emask, t->key, parent, frame, node);
	t->nedge++;
}

/* A new child of parent for frame (known to be absent). */
static uint32_t add_node(struct sample_tree *t, uint32_t parent, uint32_t frame)
{
	struct tnode *c;

	if (t->n >= HASHED)
		xalloc_fail(t->n * sizeof(*t->node));
	if (t->n == t->cap)
		xgrow(&t->node, &t->cap, t->n + 1, sizeof(*t->node));
	c = &t->node[t->n];
	c->frame = frame;
	c->kid = NONE;
	c->next = t->node[parent].kid;
	c->val = 0;
	t->node[parent].kid = (uint32_t)t->n;
	if (t->node[parent].frame & HASHED)
		edge_add(t, parent, frame, (uint32_t)t->n);
	return (uint32_t)t->n++;
}

/* Puts parent's children in the index: it has more than SCAN. */
static void index_kids(struct sample_tree *t, uint32_t parent)
{
	uint32_t c;

	t->node[parent].frame |= HASHED;
	for (c = t->node[parent].kid; c != NONE; c = t->node[c].next)
		edge_add(t, parent, t->node[c].frame & ~HASHED, c);
}

/* The id of the frame name (len bytes), whether it holds a ';' noted
 * when it is new (ids come dense, in order). */
static uint32_t frame_id(struct sample_tree *t, const char *name, size_t len)
{
	uint32_t f = fnames_id(&t->fn, name, len);

	if (f >= t->nmeta) {
		if (f >= HASHED)
			xalloc_fail((size_t)f * sizeof(*t->meta));
		xgrow(&t->meta, &t->mcap, (size_t)f + 1, sizeof(*t->meta));
		memset(&t->meta[f], 0, sizeof(*t->meta));
		t->meta[f].semi = memchr(name, ';', len) != NULL;
		t->nmeta = (size_t)f + 1;
	}
	return f;
}

/* The id of the frame name (len bytes) under a node of frame caller:
 * looked for by name among the callees caller is known to have (a report's
 * threads are much alike: a new node's frame is nearly always one), else
 * hashed, and then remembered. */
static uint32_t callee_id(struct sample_tree *t, uint32_t caller, const char *name, size_t len)
{
	const struct fnames *fn = &t->fn;
	uint32_t e, f;

	for (e = t->meta[caller].callee; e != 0; e = t->ce[e].next) {
		f = t->ce[e].frame;
		if (fn->len[f] == len && memcmp(fn->name[f], name, len) == 0)
			return f;
	}
	f = frame_id(t, name, len);
	if (t->meta[caller].ncallee < CALLEES) {
		if (t->nce == 0)
			t->nce = 1;
		xgrow(&t->ce, &t->cecap, t->nce + 1, sizeof(*t->ce));
		t->ce[t->nce].frame = f;
		t->ce[t->nce].next = t->meta[caller].callee;
		t->meta[caller].callee = (uint32_t)t->nce++;
		t->meta[caller].ncallee++;
	}
	return f;
}

/* The child of parent for frame f, added when absent. */
static uint32_t child_of(struct sample_tree *t, uint32_t parent, uint32_t f)
{
	uint32_t c, k = 0;
	size_t j;

	if (t->node[parent].frame & HASHED) {
		for (j = edge_slot(t->key, parent, f, t->emask); t->edge[j].node != NONE; j = (j + 1) & t->emask)
			if (t->edge[j].parent == parent && t->edge[j].frame == f)
				return t->edge[j].node;
		return add_node(t, parent, f);
	}
	for (c = t->node[parent].kid; c != NONE; c = t->node[c].next, k++)
		if ((t->node[c].frame & ~HASHED) == f)
			return c;
	c = add_node(t, parent, f);
	if (k >= SCAN)
		index_kids(t, parent);
	return c;
}

/* A ';' in a name ends a frame in the stacks written, so it does in the
 * tree: one string, one node, whichever way its frames came.  A name
 * holding one is looked up once as it is (its id never names a node), to
 * know.  A node with few children is asked first by their names: a known
 * node then costs no hash (a report repeated, or threads alike). */
uint32_t sample_tree_child(struct sample_tree *t, uint32_t parent, const char *name, size_t len)
{
	const struct fnames *fn = &t->fn;
	const char *semi;
	uint32_t f, c;

	if (!(t->node[parent].frame & HASHED))
		for (c = t->node[parent].kid; c != NONE; c = t->node[c].next) {
			f = t->node[c].frame & ~HASHED;
			if (fn->len[f] == len && memcmp(fn->name[f], name, len) == 0)
				return c;
		}
	f = parent == SAMPLE_TREE_ROOT ? frame_id(t, name, len)
				       : callee_id(t, t->node[parent].frame & ~HASHED, name, len);
	if (!t->meta[f].semi)
		return child_of(t, parent, f);
	while ((semi = memchr(name, ';', len)) != NULL) {
		parent = child_of(t, parent, frame_id(t, name, (size_t)(semi - name)));
		len -= (size_t)(semi - name) + 1;
		name = semi + 1;
	}
	return child_of(t, parent, frame_id(t, name, len));
}

const char *sample_tree_name(const struct sample_tree *t, uint32_t node, size_t *len)
{
	uint32_t f = t->node[node].frame & ~HASHED;

	*len = t->fn.len[f];
	return t->fn.name[f];
}

void sample_tree_add(struct sample_tree *t, uint32_t node, uint64_t count)
{
	struct fcount c = { count, 0 };

	if (t->node[node].val == 0) {
		xgrow(&t->val, &t->vcap, t->nval + 1, sizeof(*t->val));
		memset(&t->val[t->nval], 0, sizeof(*t->val));
		t->node[node].val = (uint32_t)++t->nval;
	}
	fcount_add(&t->val[t->node[node].val - 1], &c);
}

/* The walk writing (or spelling) the stacks in order.  An item is a node
 * << 1, | 1 for the stacks under it, | 0 for its own: "a;b" sorts before
 * "a;b;c", but "a;b!" between the two ('!' < ';'), so a node's own stack
 * sorts as its name and the stacks under it as its name and ';'. */
struct level {
	size_t start, at, end;	/* its items, the next one */
	size_t plen;		/* the path's length before its names */
};

struct walk {
	const struct sample_tree *t;	/* the tree */
	uint32_t *item, *tmp;		/* items of the open levels; scratch */
	size_t nitem, icap, tcap;	/* items in use, room, scratch's room */
	struct level *lv;		/* open levels, the root's first */
	size_t depth, lcap;		/* how many, and room */
	char *path;			/* the stack so far, each frame with its ';' */
	size_t pcap;			/* its room */
	uint32_t *ids;			/* the stack so far, as frame ids */
	size_t idcap;			/* their room */
	FILE *f;			/* out, or NULL: spelled into tab, or
					   handed to sink */
	struct strtab *tab;		/* where stacks are spelled */
	const struct stack_sink *sink;	/* where stacks are handed */
	char *out;			/* bytes not yet written */
	size_t olen;			/* how many */
	int err;			/* a write failed */
};

static int item_cmp(const struct sample_tree *t, uint32_t a, uint32_t b)
{
	size_t la, lb, m;
	const char *na = sample_tree_name(t, a >> 1, &la), *nb = sample_tree_name(t, b >> 1, &lb);
	int r, ca, cb;

	m = la < lb ? la : lb;
	if ((r = memcmp(na, nb, m)) != 0)
		return r;
	ca = la > m ? (unsigned char)na[m] : (a & 1) ? ';' : -1;
	cb = lb > m ? (unsigned char)nb[m] : (b & 1) ? ';' : -1;
	return ca - cb;
}

/* Sorts the n items at a, tmp room for n more: a merge sort, insertion
 * for a few. */
static void item_sort(const struct sample_tree *t, uint32_t *a, uint32_t *tmp, size_t n)
{
	size_t i, j, k, h = n / 2;
	uint32_t x;

	if (n <= 12) {
		for (i = 1; i < n; i++) {
			for (x = a[i], j = i; j > 0 && item_cmp(t, a[j - 1], x) > 0; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		return;
	}
	item_sort(t, a, tmp, h);
	item_sort(t, a + h, tmp, n - h);
	for (i = 0, j = h, k = 0; i < h && j < n;)
		tmp[k++] = item_cmp(t, a[j], a[i]) < 0 ? a[j++] : a[i++];
	while (i < h)
		tmp[k++] = a[i++];
	memcpy(a, tmp, k * sizeof(*a));
}

/* Opens the level of node's children, the path plen bytes long. */
static void open_level(struct walk *w, uint32_t node, size_t plen)
{
	const struct tnode *nd = w->t->node;
	size_t start = w->nitem;
	uint32_t c;
	struct level *l;

	for (c = nd[node].kid; c != NONE; c = nd[c].next) {
		if (w->nitem + 2 > w->icap)
			xgrow(&w->item, &w->icap, w->nitem + 2, sizeof(*w->item));
		if (nd[c].val)
			w->item[w->nitem++] = c << 1;
		if (nd[c].kid != NONE)
			w->item[w->nitem++] = c << 1 | 1;
	}
	if (w->nitem - start > 1) {
		xgrow(&w->tmp, &w->tcap, w->nitem - start, sizeof(*w->tmp));
		item_sort(w->t, w->item + start, w->tmp, w->nitem - start);
	}
	if (w->depth == w->lcap)
		xgrow(&w->lv, &w->lcap, w->depth + 1, sizeof(*w->lv));
	l = &w->lv[w->depth++];
	if (w->sink && w->depth > w->idcap)
		xgrow(&w->ids, &w->idcap, w->depth, sizeof(*w->ids));
	l->start = l->at = start;
	l->end = w->nitem;
	l->plen = plen;
}

static void put(struct walk *w, const char *s, size_t n)
{
	if (n > OUTBUF - w->olen) {
		if (w->olen && fwrite(w->out, 1, w->olen, w->f) != w->olen)
			w->err = 1;
		w->olen = 0;
		if (n >= OUTBUF) {
			if (fwrite(s, 1, n, w->f) != n)
				w->err = 1;
			return;
		}
	}
	memcpy(w->out + w->olen, s, n);
	w->olen += n;
}

/* The stack of node, the path (plen bytes) and its name, with its count. */
static void line(struct walk *w, uint32_t node, size_t plen)
{
	const struct fcount *c = &w->t->val[w->t->node[node].val - 1];
	char num[40];
	size_t n;

	if (w->sink) {
		w->sink->stack(w->sink->ctx, w->ids, w->depth, c);
	} else if (w->f) {
		put(w, w->path, plen);
		num[0] = ' ';
		n = 1 + fcount_format(c, num + 1);
		num[n++] = '\n';
		put(w, num, n);
	} else {
		fcount_add(strtab_val(w->tab, strtab_intern(w->tab, w->path, plen, NULL)), c);
	}
}

/* Every stack, in order, to w->f or w->tab. */
static void walk(struct walk *w)
{
	struct level *l;
	const char *name;
	size_t len, plen;
	uint32_t it;

	open_level(w, SAMPLE_TREE_ROOT, 0);
	/* The first write error ends it: what follows would fail too. */
	while (w->depth > 0 && !w->err) {
		l = &w->lv[w->depth - 1];
		if (l->at == l->end) {
			w->nitem = l->start;
			w->depth--;
			continue;
		}
		it = w->item[l->at++];
		plen = l->plen;
		if (w->sink)
			w->ids[w->depth - 1] = w->t->node[it >> 1].frame & ~HASHED;
		name = sample_tree_name(w->t, it >> 1, &len);
		if (plen + len + 1 > w->pcap)
			xgrow(&w->path, &w->pcap, plen + len + 1, 1);
		memcpy(w->path + plen, name, len);
		if (it & 1) {
			w->path[plen + len] = ';';
			open_level(w, it >> 1, plen + len + 1);
		} else {
			line(w, it >> 1, plen + len);
		}
	}
}

/* Walks t, its stacks written to f, else spelled into tab, else handed
 * to sink; *err: 1 when a write failed. */
static void walk_run(const struct sample_tree *t, FILE *f, struct strtab *tab,
		     const struct stack_sink *sink, int *err)
{
	struct walk w;

	memset(&w, 0, sizeof(w));
	w.t = t;
	w.f = f;
	w.tab = tab;
	w.sink = sink;
	if (f)
		w.out = xmalloc(OUTBUF);
	walk(&w);
	if (f && !w.err && w.olen && fwrite(w.out, 1, w.olen, f) != w.olen)
		w.err = 1;
	*err = w.err;
	free(w.item);
	free(w.tmp);
	free(w.lv);
	free(w.path);
	free(w.out);
	free(w.ids);
}

int sample_tree_write(const struct sample_tree *t, FILE *f)
{
	int err;

	walk_run(t, f, NULL, NULL, &err);
	return err ? -1 : 0;
}

void sample_tree_spell(const struct sample_tree *t, struct strtab *tab)
{
	int err;

	walk_run(t, NULL, tab, NULL, &err);
}

void sample_tree_emit(const struct sample_tree *t, const struct stack_sink *sink)
{
	size_t i, n = fnames_count(&t->fn);
	int err;

	/* A name with a ';' is no frame of any stack (it was split). */
	for (i = 0; i < n; i++)
		if (i >= t->nmeta || !t->meta[i].semi)
			sink->frame(sink->ctx, (uint32_t)i, t->fn.name[i], t->fn.len[i]);
	walk_run(t, NULL, NULL, sink, &err);
}

static int write_all(FILE *f, void *ctx)
{
	const struct sample_tree **t = ctx;

	return sample_tree_write(*t, f);
}

int sample_tree_save(const struct sample_tree *t, struct strtab *tab, const char *path, char *err,
		     size_t errlen)
{
	/* Stacks in the table too (not from stackcollapse-sample, whose
	 * stacks all go to the tree): the tree's are added to theirs. */
	if (strtab_count(tab)) {
		sample_tree_spell(t, tab);
		return folded_save(tab, path, err, errlen);
	}
	return outfile_save(path, write_all, &t, err, errlen);
}
