/* stackdiff: two tables of stacks (values: struct fcount) side by side,
 * for difffolded and flame --diff. */
#ifndef FLAME_STACKDIFF_H
#define FLAME_STACKDIFF_H

#include <stddef.h>
#include <stdio.h>

struct strtab;

/* A function's weight in both profiles. */
struct stackdiff_fn {
	const char *name;	/* the frame, owned by the tables given */
	double incl[2];		/* inclusive: stacks holding it, each once */
	double self[2];		/* as the leaf */
};

/* Returns a table of the union of a's and b's stacks whose values are two
 * struct fcount (a's, b's).  Free with strtab_free. */
struct strtab *stackdiff_union(const struct strtab *a, const struct strtab *b);

/* Sum of a table's values. */
double stackdiff_total(const struct strtab *t);

/* Per-function weights of the union table u (from stackdiff_union):
 * returns an array of *n entries, caller frees (names point into names,
 * a table the function fills and the caller frees). */
struct stackdiff_fn *stackdiff_functions(const struct strtab *u, struct strtab *names, size_t *n);

/* A copy of the stacks of t with every hex number ("0x1f") made "0x...",
 * as difffolded -s does (equal stacks then merge).  Free with strtab_free. */
struct strtab *stackdiff_strip_hex(const struct strtab *t);

/* Scales BEFORE (the first count of each pair of u) from total ta to
 * tb; whole: cut to whole numbers as difffolded.pl's int() does, else
 * exactly. */
void stackdiff_normalize(struct strtab *u, double ta, double tb, int whole);

#endif
