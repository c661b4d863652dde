/* pprof: a profile.proto profile (pprof's format: Go, perf_data_converter,
 * Pyroscope) read from memory into tables of its samples, locations,
 * functions, mappings and strings.  Nothing is copied out of the input:
 * strings and samples point into it.  Ids are the profile's own (any
 * 64-bit value); pprof_loc and friends find them. */
#ifndef FLAME_PPROF_H
#define FLAME_PPROF_H

#include <stddef.h>
#include <stdint.h>

/* The largest profile read, inflated. */
#define PPROF_MAX_INPUT ((uint64_t)4 << 30)

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
	unsigned char *buf;		/* the input, owned */
	size_t len;			/* its size */
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
	uint64_t *line_fn;		/* every location's lines' function ids */
	size_t nline;			/* how many */
	struct pprof_span *sample;	/* the samples, each its message's bytes */
	size_t nsample;			/* how many */
	size_t skipped;			/* entries that could not be read */
	char first_skip[200];		/* the first of them, why */
	int partial;			/* the profile broke off: what came before kept */
	char fault[200];		/* where and why it broke off */
};

/* Reads the profile in buf (len bytes, from xmalloc), taking it over.
 * Returns the profile (free with pprof_free); one that broke off part way
 * is returned with partial set.  Never fails: an input that is no profile
 * at all reads as an empty, partial one. */
struct pprof_prof *pprof_read(unsigned char *buf, size_t len);

/* Frees p and its input.  pprof_free(NULL) does nothing. */
void pprof_free(struct pprof_prof *p);

/* The entry with id, or NULL. */
const struct pprof_func *pprof_func(const struct pprof_prof *p, uint64_t id);
const struct pprof_map *pprof_map(const struct pprof_prof *p, uint64_t id);
const struct pprof_loc *pprof_loc(const struct pprof_prof *p, uint64_t id);

/* String i of the table: its bytes in *n; i out of range reads as "". */
const char *pprof_str(const struct pprof_prof *p, uint64_t i, size_t *n);

#endif
