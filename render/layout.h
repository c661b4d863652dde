/* layout: stacks in drawing order -> frames with start/end in samples.
 * As flamegraph.pl does, a frame is merged with the frame at the same
 * depth of the previous stack when it and all its ancestors have the same
 * names -- in the stack tree, when it is the same node; so stacks in line
 * order give a flame graph and input order a flame chart.  Frames
 * narrower than the minimum are dropped while building, so memory follows
 * the drawn graph, not the input. */
#ifndef FLAME_LAYOUT_H
#define FLAME_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

struct stree;

struct lentry {
	uint32_t node;		/* the stack: a node of the tree */
	int two;		/* differential */
	double weight;		/* samples (the second count when two) */
	double delta;		/* count2 - count1 when two */
	double before;		/* count1 when two (for inclusive sums) */
	double after;		/* count2 when two */
};

struct frame {
	const char *name;	/* the tree's copy of the name */
	size_t len;		/* bytes of name */
	unsigned depth;		/* 0 for the root "all" */
	double start;		/* in samples */
	double end;		/* in samples */
	double delta;		/* summed delta of stacks ending here */
	double before;		/* inclusive count1 of differential stacks */
	double after;		/* inclusive count2 of differential stacks */
	int has_delta;		/* drawn as differential */
};

struct layout {
	struct frame *f;	/* frames, parents before children */
	size_t n;		/* frames kept */
	size_t cap;		/* capacity of f */
	unsigned depthmax;	/* deepest kept frame */
	double total;		/* samples of all stacks */
};

/* Lays out the n stacks of e, nodes of t, in order; a stack's trailing
 * empty frames are not drawn (Perl's split drops them).  Frames narrower
 * than minwidth samples are dropped.  lo is overwritten (call
 * layout_release after); its names point into t. */
void layout_build(struct layout *lo, const struct stree *t, const struct lentry *e, size_t n,
		  double minwidth);

/* Frees the frames. */
void layout_release(struct layout *lo);

#endif
