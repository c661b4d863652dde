/* folded: the collapsed-stack format, "frame;frame;leaf COUNT" or, for a
 * differential input, "frame;...;leaf COUNT1 COUNT2".  Parsing follows
 * flamegraph.pl: the count is the digits (with an optional ".digits")
 * after the last whitespace character; the stack is everything before
 * that one character. */
#ifndef FLAME_FOLDED_H
#define FLAME_FOLDED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A sample count: integer counts are summed exactly in n; fractional ones
 * are added to frac.  The value is n + frac. */
struct fcount {
	uint64_t n;	/* exact integer part */
	double frac;	/* everything that is not an exact integer */
};

struct folded {
	const char *stack;	/* points into the parsed line */
	size_t len;		/* bytes of stack */
	struct fcount c1;	/* the count, or the first of two */
	struct fcount c2;	/* the second count when two */
	int two;		/* 1 for a differential line */
};

/* Parses one line (no newline).  Returns 0 and fills *out, or -1 when the
 * line has no count (it is then not a folded line). */
int folded_parse(const char *s, size_t len, struct folded *out);

/* Parses a count token (digits, optional '.' and digits) into *c.
 * Returns 0, or -1 when s is not such a token. */
int folded_count(const char *s, size_t len, struct fcount *c);

/* *acc += *c. */
void fcount_add(struct fcount *acc, const struct fcount *c);

/* The count as a double. */
double fcount_value(const struct fcount *c);

/* Writes c to buf (at least 32 bytes) as an integer when it is one, else
 * as a decimal of up to 15 significant digits, and a NUL; returns the
 * length. */
size_t fcount_format(const struct fcount *c, char *buf);

/* Stacks in the order they came, consecutive samples of one stack
 * merged: the x axis of a flame chart.  Ids are those of one table. */
struct fseq_run {
	uint32_t id;		/* the stack */
	int two;		/* a differential line: c[0] before, c[1] after */
	struct fcount c[2];	/* its count (c[0]), or two */
};

struct fseq {
	struct fseq_run *run;	/* runs in order */
	size_t n;		/* how many */
	size_t cap;		/* room */
};

/* Appends a sample of stack id (c2: the after count of a differential
 * line, or NULL), merged into the last run when that is the same stack. */
void fseq_add(struct fseq *q, uint32_t id, const struct fcount *c1, const struct fcount *c2);

struct strtab;
/* Adds a sample of stack (len bytes) weighing c to table t (values:
 * struct fcount) and appends it to q, in order (q NULL: no order kept). */
void fseq_put(struct strtab *t, struct fseq *q, const char *stack, size_t len,
	      const struct fcount *c);

/* fseq_put, h being strtab_hash(stack, len) (a reader that prefetched the
 * table's slot for it). */
void fseq_put_hashed(struct strtab *t, struct fseq *q, const char *stack, size_t len, uint64_t h,
		     const struct fcount *c);

/* Frees the runs (not q). */
void fseq_release(struct fseq *q);

struct strtab;

/* Writes the stacks of t (values: struct fcount) sorted bytewise to path
 * (NULL or "-": stdout), atomically.  Returns 0, or -1 with a message in
 * err. */
int folded_save(const struct strtab *t, const char *path, char *err, size_t errlen);

/* folded_save for a table whose values are two counts (stackdiff_union's):
 * "stack N M" lines, difffolded's output. */
int folded_save_pairs(const struct strtab *t, const char *path, char *err, size_t errlen);

/* Adds the stacks of the folded file path (NULL or "-": stdin) to t
 * (values: struct fcount), summing repeats.  Lines hold one count: in
 * "f;Return Code: 0 5" the 0 belongs to the last frame (folded_parse would
 * read two counts).  Lines that are not folded are counted in *invalid (the
 * first one's number in *first_invalid, if not NULL); empty lines are
 * ignored.  Returns 0, or -1 with a message in err when path cannot be
 * read. */
int folded_load(const char *path, struct strtab *t, unsigned long *invalid,
		unsigned long *first_invalid, char *err, size_t errlen);

struct lread;

/* folded_load over an open reader (the caller frees it).  With a table
 * before, a line "stack N M" is differential: M goes to t (as flamegraph
 * draws it) and N to before.  With seq, the lines are also kept in input
 * order. */
int folded_read(struct lread *lr, struct strtab *t, struct strtab *before, struct fseq *seq,
		unsigned long *invalid,
		unsigned long *first_invalid, char *err, size_t errlen);

/* Writes "stack COUNT\n".  Returns 0, or -1 on a write error. */
int folded_write(FILE *f, const char *stack, size_t len, const struct fcount *c);

#endif
