/* layout: flamegraph.pl's frame merging over tree nodes, with pruning on
 * the fly. */
#include "layout.h"
#include "stree.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct open {
	uint32_t node;		/* the frame's node */
	size_t out;		/* index in lo->f */
};

struct flow {
	struct layout *lo;	/* output */
	const struct stree *t;	/* the stacks */
	struct open *open;	/* open frames by depth, [0] the root */
	size_t nopen;		/* open frames */
	size_t cap;		/* capacity of open */
	uint32_t *path;		/* nodes to open, deepest first */
	size_t pcap;		/* capacity of path */
	double minwidth;	/* narrower frames are dropped */
	double time;		/* samples so far */
};

static void push(struct flow *fw, uint32_t node, int two)
{
	struct layout *lo = fw->lo;
	unsigned depth = stree_depth(fw->t, node);
	struct frame *f;

	if (lo->n == lo->cap)
		xgrow(&lo->f, &lo->cap, lo->n + 1, sizeof(*lo->f));
	if (depth >= fw->cap)
		xgrow(&fw->open, &fw->cap, (size_t)depth + 1, sizeof(*fw->open));
	f = &lo->f[lo->n];
	f->name = stree_name(fw->t, node, &f->len);
	f->depth = depth;
	f->start = fw->time;
	f->end = fw->time;
	f->delta = 0;
	f->before = 0;
	f->after = 0;
	f->has_delta = two;
	fw->open[depth].node = node;
	fw->open[depth].out = lo->n++;
	fw->nopen = (size_t)depth + 1;
}

/* Closes open frames deeper than keep. */
static void close_to(struct flow *fw, size_t keep)
{
	struct layout *lo = fw->lo;

	while (fw->nopen > keep) {
		size_t i = fw->open[--fw->nopen].out;
		struct frame *f = &lo->f[i];

		f->end = fw->time;
		/* Frames after i are its descendants, narrower still. */
		if (f->end - f->start < fw->minwidth)
			lo->n = i;
	}
}

/* The node drawn for a stack: trailing empty fields are dropped. */
static uint32_t drawn(const struct stree *t, uint32_t node)
{
	size_t len;

	while (node != STREE_ROOT && (stree_name(t, node, &len), len == 0))
		node = stree_parent(t, node);
	return node;
}

static void flow_stack(struct flow *fw, const struct lentry *e)
{
	uint32_t u = drawn(fw->t, e->node);
	size_t np = 0, i;

	/* Climb to the deepest frame still open: the rest is new. */
	for (;;) {
		uint32_t d = stree_depth(fw->t, u);

		if (d < fw->nopen && fw->open[d].node == u)
			break;
		if (np == fw->pcap)
			xgrow(&fw->path, &fw->pcap, np + 1, sizeof(*fw->path));
		fw->path[np++] = u;
		u = stree_parent(fw->t, u);
	}
	close_to(fw, (size_t)stree_depth(fw->t, u) + 1);
	while (np > 0)
		push(fw, fw->path[--np], e->two);
	if (e->two) {
		struct frame *leaf = &fw->lo->f[fw->open[fw->nopen - 1].out];

		leaf->delta += e->delta;
		leaf->has_delta = 1;
		/* Every frame on the stack holds these samples: inclusive sums. */
		for (i = 0; i < fw->nopen; i++) {
			fw->lo->f[fw->open[i].out].before += e->before;
			fw->lo->f[fw->open[i].out].after += e->after;
		}
	}
	fw->time += e->weight;
}

void layout_build(struct layout *lo, const struct stree *t, const struct lentry *e, size_t n,
		  double minwidth)
{
	struct flow fw;
	size_t i;

	memset(lo, 0, sizeof(*lo));
	memset(&fw, 0, sizeof(fw));
	fw.lo = lo;
	fw.t = t;
	fw.minwidth = minwidth;
	push(&fw, STREE_ROOT, n > 0 && e[0].two);
	for (i = 0; i < n; i++)
		flow_stack(&fw, &e[i]);
	close_to(&fw, 0);
	lo->total = fw.time;
	for (i = 0; i < lo->n; i++)
		if (lo->f[i].depth > lo->depthmax)
			lo->depthmax = lo->f[i].depth;
	free(fw.open);
	free(fw.path);
}

void layout_release(struct layout *lo)
{
	free(lo->f);
	memset(lo, 0, sizeof(*lo));
}
