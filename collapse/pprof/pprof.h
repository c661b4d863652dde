/* pprof: a profile.proto profile (pprof's format: Go, perf_data_converter,
 * Pyroscope) read from memory into tables of its locations, functions,
 * mappings and strings, and the runs of bytes its samples are in.
 * Nothing is copied out of the input: strings and samples point into it.
 * Ids are the profile's own (any 64-bit value); pprof_loc and friends
 * find them. */
#ifndef FLAME_PPROF_H
#define FLAME_PPROF_H

#include "xalloc.h"

#include <stddef.h>
#include <stdint.h>

/* For the loops over samples and keys: a function inlined into each
 * caller (where GCC, left to itself, kept parts of the per-sample path
 * out of line, a call costing some 40 instructions with its prologue, or
 * for a constant argument to fold), and one kept out of line (rare:
 * inlined, it made its callers save more registers at every call). */
#define PPROF_HOT static inline __attribute__((always_inline))
#define PPROF_COLD static __attribute__((noinline))

/* The largest profile read, inflated. */
#define PPROF_MAX_INPUT ((uint64_t)4 << 30)

/* Hints that the input past at, read once and in order, will be read
 * soon: the line 512 bytes on (some samples ahead) into the first-level
 * cache, and the one 8 KB on into the second.  The far hint crosses the
 * pages the hardware's own fetching stops at: 100k-stack profile, one
 * thread, 119.2 -> 112.8 ms of CPU; with no hint at all the pass took
 * 15 ms more. */
static inline void pprof_read_ahead(const unsigned char *at)
{
	__builtin_prefetch(at + 512);
	__builtin_prefetch(at + 8192, 0, 1);
}

/* A sample field's tag (field 2, of a length). */
#define PPROF_SAMPLE_TAG 0x12

/* The sample field (tag 0x12) at q: where it ends (its bytes from
 * *body), when its length takes one or two bytes (nearly every sample)
 * and fits before end; else NULL, for pb_next to read (and name what is
 * wrong). */
static inline const unsigned char *pprof_quick_sample(const unsigned char *q,
						      const unsigned char *end,
						      const unsigned char **body)
{
	size_t n;

	if (end - q < 2)
		return NULL;
	n = q[1];
	if (n < 0x80)
		q += 2;
	else {
		if (end - q < 3 || q[2] >= 0x80)
			return NULL;
		n = (n & 0x7f) | (size_t)q[2] << 7;
		q += 3;
	}
	*body = q;
	return n <= (size_t)(end - q) ? q + n : NULL;
}

struct pprof_span {
	const unsigned char *p;	/* bytes in the input... */
	size_t n;		/* ...and how many */
};

struct pprof_vt {
	uint64_t type;		/* string index of its name ("cpu") */
	uint64_t unit;		/* string index of its unit ("nanoseconds") */
};

struct pprof_func {
	uint64_t id;		/* its id */
	uint64_t name;		/* string index of its name */
	uint64_t sysname;	/* string index of its system (mangled) name */
};

struct pprof_map {
	uint64_t id;		/* its id */
	uint64_t file;		/* string index of its file name */
};

struct pprof_loc {
	uint64_t id;		/* its id */
	uint64_t map;		/* its mapping's id, 0: none */
	uint64_t addr;		/* its address */
	size_t line0;		/* its lines: line_fn[line0]... */
	size_t nlines;		/* ...this many, innermost (inlined) first */
};

struct pprof_prof {
	const unsigned char *buf;	/* the input (freed with the profile
					   when owned) */
	size_t len;			/* its size */
	int owned;			/* buf is from xmalloc and ours */
	int mapped;			/* buf is a file mapped (lread_whole):
					   pages done with may be given back */
	int once;			/* set by the caller: the samples are
					   drawn once, so an owned input's
					   pages of samples drawn may be given
					   back (their bytes lost) */
	struct pprof_span *str;		/* the string table */
	size_t nstr;			/* its size */
	struct pprof_vt *types;		/* sample types, in order */
	size_t ntypes;			/* how many */
	uint64_t default_type;		/* string index of default_sample_type, 0: none */
	struct pprof_func *fn;		/* functions, by id */
	size_t nfn;			/* how many */
	struct pprof_map *map;		/* mappings, by id */
	size_t nmap;			/* how many */
	struct pprof_loc *loc;		/* locations, by id */
	size_t nloc;			/* how many */
	struct xbig locmem;		/* loc's bytes (2.4 MB for 60k
					   locations: grown by moving pages,
					   on huge ones) */
	uint64_t *line_fn;		/* every location's lines' function ids */
	size_t nline;			/* how many */
	struct pprof_span *run;		/* the samples: runs of consecutive
					   top-level sample fields, as they are
					   in the input (tags and lengths read
					   and checked) */
	size_t nrun;			/* how many runs */
	size_t nsample;			/* how many samples in them */
	size_t skipped;			/* entries that could not be read */
	char first_skip[200];		/* the first of them, why */
	int partial;			/* the profile broke off: what came before kept */
	char fault[200];		/* where and why it broke off */
};

/* How pprof_read holds its input. */
enum pprof_hold {
	PPROF_OWN,	/* from xmalloc: freed by pprof_free */
	PPROF_MAPPED,	/* lread_whole's mapping: the caller's, which outlives
			   the profile; pages read may be given back (they
			   read again from the file) */
	PPROF_BORROW	/* the caller's, outliving the profile */
};

/* Reads the profile in buf (len bytes), held as hold says.  Returns the
 * profile (free with pprof_free); one that broke off part way is returned
 * with partial set.  Never fails: an input that is no profile at all
 * reads as an empty, partial one.  Tables grow with the entries read, so
 * memory is bounded by len. */
struct pprof_prof *pprof_read(const unsigned char *buf, size_t len, enum pprof_hold hold);

/* Told of each sample field as pprof_read steps over it, in input order:
 * the sample's bytes [at, end), past the field's tag and length (read and
 * checked), and the input's end lim (the bytes up to it may be read, as
 * words past end).  The bytes stay readable until pprof_free. */
struct pprof_hook {
	void (*sample)(void *ctx, const unsigned char *at, const unsigned char *end,
		       const unsigned char *lim);
	/* When not NULL, told of most samples a run at a time instead
	 * (sample is told of the others): [at, end) of p's input is sample
	 * fields one after another, each a tag 0x12, a length of one or two
	 * bytes and that many bytes (read and checked).  p's buf, len and
	 * mapped are set and stay so, for another thread too.  The pages of
	 * such runs are then the hook's to give back (pprof_give_back), not
	 * pprof_read's. */
	void (*run)(void *ctx, const struct pprof_prof *p, const unsigned char *at,
		    const unsigned char *end);
	/* When not NULL, told of most samples a streak at a time instead
	 * of sample (which is told of the others): it steps over the sample
	 * fields from at that begin before stop (tag PPROF_SAMPLE_TAG, read
	 * by pprof_quick_sample within end), as far as one of another form,
	 * and returns where it stopped, their count in *n; lim is where the
	 * input ends.  No call a sample, and a streak's bytes read once. */
	const unsigned char *(*streak)(void *ctx, const unsigned char *at,
				       const unsigned char *stop, const unsigned char *end,
				       const unsigned char *lim, size_t *n);
	void *ctx;	/* for sample, run and streak */
};

/* pprof_read telling hook (NULL: no one) of each sample. */
struct pprof_prof *pprof_read_hooked(const unsigned char *buf, size_t len, enum pprof_hold hold,
				     const struct pprof_hook *hook);

/* Gives back the pages of a mapped profile's input in [at, at + n), done
 * with; does nothing for an input not mapped. */
void pprof_give_back(const struct pprof_prof *p, size_t at, size_t n);

/* The same for the pages inside [at, at + n), sample bytes already drawn:
 * also for an owned input when p->once is set (their bytes are then
 * lost: they must not be read again). */
void pprof_release(const struct pprof_prof *p, size_t at, size_t n);

/* Frees p and its input when owned.  pprof_free(NULL) does nothing. */
void pprof_free(struct pprof_prof *p);

/* The entry with id, or NULL. */
const struct pprof_func *pprof_func(const struct pprof_prof *p, uint64_t id);
const struct pprof_map *pprof_map(const struct pprof_prof *p, uint64_t id);
const struct pprof_loc *pprof_loc(const struct pprof_prof *p, uint64_t id);

/* String i of the table: its bytes in *n; i out of range reads as "". */
const char *pprof_str(const struct pprof_prof *p, uint64_t i, size_t *n);

#endif
