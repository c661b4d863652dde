/* format: the table of input formats.  A row names a format, tells it
 * from the first bytes of an input (inflated and decoded), collapses an
 * input of it, and says which options and common filters it takes.
 * Detection, collect, flame --format and flame --help read the table;
 * collapse/README.md says how to add a row. */
#ifndef FLAME_FORMAT_H
#define FLAME_FORMAT_H

#include <stddef.h>

#include "cliopt.h"
#include "lread.h"

struct collect_opts;
struct lread;
struct strtab;

/* Messages: file (may be NULL), line (0: none) and text. */
typedef void collect_warn_fn(void *ctx, const char *file, unsigned long line, const char *msg);

/* The common filters (struct filter) a format has fields for. */
enum { FILTER_IDS = 1, FILTER_TIME = 2 };

struct format;

/* One input for a format's run. */
struct format_job {
	const struct format *f;		/* the format */
	const char *name;		/* the input, for messages */
	struct lread *lr;		/* its text, from the start */
	const struct collect_opts *o;	/* options and filters */
	const void *fopts;		/* the family's options, NULL: defaults */
	struct strtab *t;		/* stacks go here (values: struct fcount) */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	char *err;			/* a fatal error's message... */
	size_t errlen;			/* ...of at most this size */
};

struct format {
	const char *name;		/* --format NAME; NULL ends the table */
	const char *what;		/* what it is, one line */
	/* How sure it is that head (len bytes) starts an input of it: 0 not
	 * at all, up to 100.  The surest format wins. */
	int (*sniff)(const char *head, size_t len);
	/* Collapses one input: 0, 1 when it broke off part way or was not
	 * of the format (what was read is kept), -1 with a message in err. */
	int (*run)(const struct format_job *j);
	const struct cliopt_family *family;	/* its options (its tool's, which
					   flame takes too), or NULL */
	unsigned filters;		/* FILTER_* it has fields for */
	int kind;			/* which of its family's formats, for run */
};

/* For runs: after reading j's input (failed: reading broke off), names
 * the fault through j->warn and returns 1, what came before being kept;
 * else returns 0. */
static inline int format_fault(const struct format_job *j, int failed)
{
	if (!failed)
		return 0;
	j->warn(j->ctx, j->name, 0, lread_error(j->lr));
	return 1;
}

extern const struct format formats[];
/* Every family of formats, NULL-terminated. */
extern const struct cliopt_family *const format_families[];

/* The format of the input starting with head (len bytes; its first few
 * KB are enough), or NULL. */
const struct format *format_detect(const char *head, size_t len);

/* For an input of no known format: what it looks like instead and what
 * to do ("a perf.data file: ..."), or NULL. */
const char *format_hint(const char *head, size_t len);

/* The format called name, or NULL. */
const struct format *format_find(const char *name);

/* "perf, wpa-csv, ...": every name, into buf of cap bytes. */
void format_names(char *buf, size_t cap);

/* Where fam is in format_families. */
size_t format_family_index(const struct cliopt_family *fam);

/* For sniffers: the next line of [*p, end) without its line end, in s
 * and n; returns 0 at the end. */
int format_next_line(const char **p, const char *end, const char **s, size_t *n);

/* For sniffers: the first line of head that is not empty or a '#'
 * comment, in s and n; returns 0 when there is none. */
int format_first_line(const char *head, size_t len, const char **s, size_t *n);

#endif
