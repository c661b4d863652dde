/* layout: stacks in drawing order -> frames with start/end in samples.
 * As flamegraph.pl does, a frame is merged with the frame at the same
 * depth of the previous stack when it and all its ancestors have the same
 * names; so sorted input gives a flame graph and input order a flame
 * chart.  Frames narrower than the minimum are dropped while building,
 * so memory follows the drawn graph, not the input. */
#ifndef FLAME_LAYOUT_H
#define FLAME_LAYOUT_H

#include <stddef.h>

struct lentry {
	const char *stack;	/* frames root first, ';'-separated */
	size_t len;		/* bytes of stack */
	double weight;		/* samples (the second count when two) */
	double delta;		/* count2 - count1 when two */
	double before;		/* count1 when two (for inclusive sums) */
	double after;		/* count2 when two */
	int two;		/* differential */
};

struct frame {
	const char *name;	/* points into the stack it came from */
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

/* Lays out the n stacks of e in order; frames narrower than minwidth
 * samples are dropped.  lo is overwritten (call layout_release after). */
void layout_build(struct layout *lo, const struct lentry *e, size_t n, double minwidth);

/* Frees the frames. */
void layout_release(struct layout *lo);

/* Splits s as Perl's split(";", s) does: fields separated by ';', empty
 * trailing fields dropped.  Stores up to max (ptr, len) pairs; returns the
 * number of fields (which may exceed max). */
size_t layout_split(const char *s, size_t len, const char **ptr, size_t *plen, size_t max);

#endif
