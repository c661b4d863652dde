/* linefmt: what the small line-by-line collapsers share (the ports of
 * FlameGraph's one-page scripts: stap, elfutils, go, aix, pmc, ...).
 * Such a format is a table (struct linefmt) of a state size and four
 * calls; linefmt runs it over an input for collect, and over memory for
 * the fuzz targets.  Its state starts with a struct linefmt_out: where
 * its stacks go. */
#ifndef FLAME_LINEFMT_H
#define FLAME_LINEFMT_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"

struct fcount;
struct fseq;
struct strtab;

struct linefmt_out {
	struct strtab *t;		/* stacks out (values: struct fcount) */
	struct fseq *seq;		/* input order, or NULL */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	const char *name;		/* the input */
	const void *fopts;		/* the family's options, NULL: defaults */
	uint64_t stacks;		/* stacks added */
	uint64_t bad;			/* lines skipped as unreadable */
	unsigned long first_bad;	/* the first of them */
};

struct linefmt {
	/* What an input without one stack lacks ("no backtraces"). */
	const char *lacks;
	size_t size;			/* of the state, which starts with a
					   struct linefmt_out */
	void (*init)(void *st);		/* or NULL: the state is zeroed */
	/* One line, no line end: 0, or -1 to stop reading. */
	int (*line)(void *st, const char *s, size_t n, unsigned long lineno);
	void (*end)(void *st);		/* the input ended; or NULL */
	void (*release)(void *st);	/* frees what the state holds; or NULL */
};

/* A zeroed state of f's size over these outputs; free with linefmt_free. */
void *linefmt_new(const struct linefmt *f, const void *fopts, struct strtab *t, struct fseq *seq,
		  collect_warn_fn *warn, void *ctx, const char *name);
void linefmt_free(const struct linefmt *f, void *st);

/* Ends st's input: 0, or 1 (named through warn) when it held no stack;
 * skipped lines are counted in a message. */
int linefmt_end(const struct linefmt *f, void *st);

/* A run of format f over j's input (format.h's run). */
int linefmt_collect(const struct format_job *j, const struct linefmt *f);

/* Adds stack s (n bytes; nothing when n is 0) weighing w. */
void linefmt_add(struct linefmt_out *o, const char *s, size_t n, uint64_t w);

/* linefmt_add with a count that may have a fraction. */
void linefmt_addc(struct linefmt_out *o, const char *s, size_t n, const struct fcount *c);

/* Counts line lineno as skipped (the first is named at the end). */
void linefmt_bad(struct linefmt_out *o, unsigned long lineno);

/* For sniffers: how many of the first lines of head (up to 400) fn
 * accepts, in *hits; returns the lines looked at. */
size_t linefmt_count(const char *head, size_t len, int (*fn)(const char *s, size_t n),
		     size_t *hits);

/* Parses the unsigned decimal s[0, n) (digits only, at most 19) into *v:
 * 0, or -1. */
int linefmt_u64(const char *s, size_t n, uint64_t *v);

/* Java's "pkg.sub.Class.method" shortened as the scripts' --shorten-pkgs
 * does ("p.s.Class.method"), or with no_pkgs to "Class.method", into out
 * (n bytes of room); a name of fewer than three parts stays whole.
 * Returns the length. */
size_t linefmt_java_short(const char *f, size_t n, char *out, int no_pkgs);

/* s[0, n) with the whitespace at both ends cut off, in *s and *n. */
void linefmt_trim(const char **s, size_t *n);

#endif
