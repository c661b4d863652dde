/* lnt: LLVM LNT profiles (lnt/testing/profile in llvm-lnt), versions 1
 * and 2, read into one model: per function, its counters and its
 * instructions (address, disassembly, counters).  LNT stores a
 * function's counters as percentages of the profile's totals, and an
 * instruction's as percentages of its function's.  There are no call
 * stacks: the graphs drawn from a profile are flat.
 *
 * v1: zlib(pickle(dict)), see pickle.h.  v2: a binary index of ULEB128
 * numbers and newline-ended strings with bzip2-compressed sections, see
 * lnt_v2.c. */
#ifndef FLAME_LNT_H
#define FLAME_LNT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LNT_MAX_INFLATE ((size_t)1 << 30)	/* a v1 pickle or a v2 section */
#define LNT_MAX_INSNS ((size_t)1 << 24)		/* instructions in a profile */

struct lnt_insn {
	uint64_t addr;			/* its address */
	char *text;			/* its disassembly, NUL-ended */
	double *c;			/* per counter (lnt_prof.names): % of the function */
};

struct lnt_fn {
	char *name;			/* NUL-ended (may hold NULs: see len) */
	size_t len;			/* bytes of name */
	double *c;			/* per counter: % of the profile's total */
	struct lnt_insn *ins;		/* instructions in file order */
	size_t nins;			/* how many */
	/* private */
	size_t capins;			/* room in ins */
};

struct lnt_prof {
	int version;			/* 1 or 2 */
	char **names;			/* counter names, sorted bytewise */
	size_t ncnt;			/* how many */
	double *total;			/* per counter: the profile's total (0: none) */
	struct lnt_fn *fn;		/* functions in file order */
	size_t nfn;			/* how many */
	size_t skipped;			/* entries that could not be read */
	char *first_skip;		/* what the first was, or NULL */
	int partial;			/* the file broke off: what came before it */
	/* private */
	size_t capfn;			/* room in fn */
	size_t ninsns;			/* instructions in all of fn */
	struct strtab *seen;		/* function names: index in fn */
};

/* Whether the n bytes at p start an LNT profile: 2 for v2, 1 for v1 (zlib
 * data whose first block inflates to the start of a pickle), else 0. */
int lnt_sniff(const unsigned char *p, size_t n);

/* Reads the profile of n bytes at p.  Returns it (free with lnt_free),
 * or NULL with a message in err naming the byte where it failed (of the
 * file, or of the inflated pickle or section, which it names).  A v2
 * file whose function table breaks off is returned with the functions
 * before the fault, partial set and the fault in err.  Entries
 * that are only malformed (a function that is not a dict, a counter that
 * is not a number) are skipped and counted in skipped. */
struct lnt_prof *lnt_read(const unsigned char *p, size_t n, char *err, size_t errlen);

/* Frees p.  lnt_free(NULL) does nothing. */
void lnt_free(struct lnt_prof *p);

/* The index of counter name, or -1. */
int lnt_counter(const struct lnt_prof *p, const char *name);

/* The counter drawn when none is named: "cycles" when there is one, else
 * the first by name; -1 when there are none. */
int lnt_default_counter(const struct lnt_prof *p);

/* What roots a profile's stacks. */
enum lnt_root { LNT_ROOT_COUNTER, LNT_ROOT_FILE, LNT_ROOT_NONE };

/* Receives one stack (len bytes, frames ';'-joined) and its weight,
 * written as a collapsed-stack count ("45", "12.5"); returns 0, or -1 to
 * stop. */
typedef int lnt_stack_fn(void *ctx, const char *stack, size_t len, const char *count);

/* Calls fn for each function with a non-zero counter c (per_insn: each
 * instruction, weighted by its share of its function's value), under the
 * root frame root (NULL: none).  ';' in a name becomes ':', line ends
 * and tabs spaces.  Returns 0, or -1 when fn stopped. */
int lnt_stacks(const struct lnt_prof *p, int c, int per_insn, const char *root, lnt_stack_fn *fn,
	       void *ctx);

/* Writes the table of p to f: a header of counter names, then a row per
 * function (its counters, its name) by counter c descending. */
void lnt_table(FILE *f, const struct lnt_prof *p, int c);

/* p as an LNT v2 profile (what 'lnt profile upgrade' writes): returns
 * the bytes (the caller frees them) and sets *len.  Every function gets
 * every counter; counters become IEEE singles, as LNT keeps them; a
 * newline in a name (v2 cannot hold one) becomes a space. */
unsigned char *lnt_write_v2(const struct lnt_prof *p, size_t *len);

/* Writes v (finite, >= 0) to buf (at least LNT_NUM bytes) as the fewest
 * decimals that read back as v, in plain notation ("45", "0.0001"). */
#define LNT_NUM 400
void lnt_number(double v, char *buf);

#endif
