/* pprof_stack: a profile's samples as collapsed stacks.  A sample's
 * locations are leaf first and a location's lines innermost first; the
 * stack is written root first, a frame per line (inlined functions are
 * frames of their own).  A frame is its function's name (its system name
 * when the name is empty); a location without lines or function is
 * "[FILE]", its mapping's file's base name, else its address "0x1234".
 * In names ';' becomes ':' and line ends and tabs spaces. */
#ifndef FLAME_PPROF_STACK_H
#define FLAME_PPROF_STACK_H

#include "pprof.h"

struct fseq;
struct strtab;

/* Longest stack kept, in bytes: longer samples are skipped. */
#define PPROF_MAX_STACK ((size_t)4 << 20)

/* What became of the samples. */
struct pprof_tally {
	size_t added;		/* samples added */
	size_t skipped;		/* samples that could not be read or drawn */
	char first[200];	/* why the first of them was not */
	int cut;		/* the stacks grew too large: the rest unread */
	char fault[200];	/* where */
};

/* The index of the sample type called name (NULL: the profile's
 * default_sample_type, else the last, as pprof picks), or -1 when there
 * is none of that name.  A profile without sample types gives 0. */
int pprof_stack_type(const struct pprof_prof *p, const char *name);

/* Adds each sample of p weighing its value of type vi (zero and negative
 * values are left out, the negative counted as skipped) to t (values:
 * struct fcount) and to seq when not NULL, in order.  With labels each
 * stack is rooted in its sample's labels, a frame "key:value" each, by
 * key.  Work and memory are bounded by the input's size: stacks that
 * would grow past many times it stop the run (tally's cut).  The pages of
 * samples drawn are given back (pprof_release): with p->once set, an
 * owned profile's samples cannot be drawn a second time. */
void pprof_stack_add(const struct pprof_prof *p, int vi, int labels, struct strtab *t,
		     struct fseq *seq, struct pprof_tally *st);

/* A location's name when no function names it: "[FILE]", its mapping's
 * file's base name, else its address "0x1234". */
struct pprof_where {
	const char *s;		/* the base name (in the profile), else addr */
	size_t n;		/* its length */
	int bracket;		/* s is a base name, written between [ and ] */
	char addr[24];		/* the address's text, when no file names it */
};

/* Location l's name when no function names it, into w; its length is
 * w->n + 2 * w->bracket.  w->s is valid while p and w are. */
void pprof_where(const struct pprof_prof *p, const struct pprof_loc *l, struct pprof_where *w);

/* Copies the n bytes at s to d tidied for a frame name, as every pprof
 * frame is: ';' (it splits frames) becomes ':', line ends and tabs a
 * space. */
static inline void pprof_tidy_name(char *d, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = s[i];

		d[i] = c == ';' ? ':' : c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
	}
}

/* Where the location field of sample s (n bytes) ends, when the sample
 * is in the usual shape: a packed run of locations (field 1, its length
 * in one or two bytes), then a packed run of values (field 2, its length
 * in one byte) that ends the sample; else 0.  Inline: both readers call
 * it for every sample. */
static inline size_t pprof_packed_locs(const unsigned char *s, size_t n)
{
	size_t i, v;

	if (n < 4 || s[0] != 0x0a)
		return 0;
	if (s[1] < 0x80)
		i = 2 + (size_t)s[1];
	else if (s[2] < 0x80)
		i = 3 + ((size_t)(s[1] & 0x7f) | (size_t)s[2] << 7);
	else
		return 0;
	/* The values' tag and one-byte length (v: the rest of the sample,
	 * at least a byte), the two bytes compared at once. */
	if (i + 3 > n || (v = n - i - 2) >= 0x80 || (s[i] | (size_t)s[i + 1] << 8) != (0x12 | v << 8))
		return 0;
	return i;
}

#endif
