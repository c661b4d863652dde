/* cliopt: the command line every tool shares.  A tool describes its
 * options in tables (name, value name, one line of help) grouped with the
 * function that sets them; cliopt parses argv with getopt_long built from
 * the tables, answers -h, --help and --version the same way in every tool,
 * prints usage errors and help, and parses numbers.  flame takes the
 * format tools' groups as they are, so an option means the same there. */
#ifndef FLAME_CLIOPT_H
#define FLAME_CLIOPT_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

/* Keys of the options every tool has (the group's keys must differ). */
enum { CLIOPT_HELP = 'h', CLIOPT_VERSION = 1000 };

struct cliopt {
	const char *name;		/* long name, without "--"; NULL ends a table */
	int key;			/* given to the setter; a letter in the
					   tool's short option string is its short form */
	const char *arg;		/* the value's name in --help; NULL: a flag */
	const char *help;		/* help text; '\n' continues it below */
};

/* Sets option key (value arg, "" for a flag) in ctx.  Returns 0, or -1
 * with a message in err (cliopt writes "invalid value" when err is left
 * empty). */
typedef int cliopt_set_fn(void *ctx, int key, const char *arg, char *err, size_t errlen);

struct cliopt_group {
	const char *title;		/* heading in --help, NULL: none */
	const struct cliopt *opts;	/* the options, NULL-name terminated */
	cliopt_set_fn *set;		/* sets them */
	void *ctx;			/* ...in this */
};

enum { CLIOPT_RUN, CLIOPT_SHOW_HELP, CLIOPT_SHOW_VERSION, CLIOPT_USAGE };

/* Parses argv with getopt_long over the groups' options, -h, --help and
 * --version; shorts lists the short options as getopt spells them ("o:").
 * Returns CLIOPT_RUN with *first the index of the first operand,
 * CLIOPT_SHOW_HELP, CLIOPT_SHOW_VERSION, or CLIOPT_USAGE with a message in
 * err.  long_only: single-dash long options too (Getopt::Long's habit). */
int cliopt_parse(const struct cliopt_group *g, size_t ng, const char *shorts, int long_only,
		 int argc, char **argv, int *first, char *err, size_t errlen);

/* Options with their setter and the object they fill, as a unit: a
 * format family's, shared by its stackcollapse tool and by flame. */
struct cliopt_family {
	const char *title;		/* heading in flame --help */
	const struct cliopt *opts;	/* the options, NULL-name terminated */
	cliopt_set_fn *set;		/* sets one in the object */
	size_t size;			/* the object's size */
	void (*init)(void *obj);	/* empties it (NULL: zeroed) */
	void (*ready)(void *obj);	/* after the options (may be NULL) */
	void (*release)(void *obj);	/* frees what it holds (may be NULL) */
};

/* A tool's command line: its help around the options, the family whose
 * object it fills, and options of its own set by the same setter. */
struct cliopt_tool {
	const char *prog;		/* the tool's name */
	const char *usage;		/* what follows it on a usage line; '\n'
					   separates several */
	const char *about;		/* what it does: paragraphs ending in
					   '\n', wrapped to fit a terminal */
	const char *after;		/* notes after them, before the exit
					   status every tool shares, or NULL */
	const char *shorts;		/* short options, as for cliopt_parse ("o:"
					   for -o, which every tool has) */
	const struct cliopt_family *family;	/* its options and object */
	const struct cliopt *own;	/* the tool's alone, or NULL */
};

/* Where a tool reads and writes. */
struct cliopt_files {
	const char **inputs;		/* operands, or a lone "-" (stdin) */
	int ninputs;			/* how many */
	const char *output;		/* -o FILE, NULL: stdout */
};

/* cliopt_parse for a tool over obj (an object of t->family's), with -o,
 * answering what is not a run: -h/--help prints t's help with the
 * options on stdout, --version the version, a usage error its message on
 * stderr.  Returns -1 when the tool is to run (obj made ready, io set;
 * the caller releases obj), else the exit status (obj released). */
int cliopt_tool_parse(const struct cliopt_tool *t, void *obj, int argc, char **argv,
		      struct cliopt_files *io);

/* The group and option called name (no dashes, len bytes) in g, or NULL. */
const struct cliopt *cliopt_find(const struct cliopt_group *g, const char *name, size_t len);

/* Calls the setter of option o of group g with arg, filling err with
 * "invalid value" when it leaves it empty.  Returns 0 or -1. */
int cliopt_set(const struct cliopt_group *g, const struct cliopt *o, const char *arg, char *err,
	       size_t errlen);

/* Writes the groups' options to f, two columns, each group under its
 * title; shorts as for cliopt_parse ("-o, --output FILE"). */
void cliopt_help(FILE *f, const struct cliopt_group *g, size_t ng, const char *shorts);

/* "PROG (flame) VERSION" on stdout.  Returns the exit status: 0, or 1
 * when stdout could not be written. */
int cliopt_version(const char *prog);

/* The usage error on stderr, with where to read more.  Returns 2. */
int cliopt_usage(const char *prog, const char *err);

/* Flushes stdout.  Returns 0, or 1 when a write to it failed. */
int cliopt_stdout_status(void);

/* The long name of the option whose val is val in opts, or "?". */
const char *cliopt_name(const struct option *opts, int val);

/* A whole decimal integer in [lo, hi]: returns 0 and sets *v, or -1. */
int cliopt_long(const char *s, long lo, long hi, long *v);

/* A whole finite number: returns 0 and sets *v, or -1. */
int cliopt_real(const char *s, double *v);

/* A size with an optional K, M, G or T suffix (powers of 1024), not 0:
 * returns 0 and sets *v, or -1. */
int cliopt_size(const char *s, unsigned long long *v);

/* Appends the numbers of "1,2,3" to the array *list of *n (the caller
 * frees it).  Returns 0, or -1 when s is not such a list. */
int cliopt_numbers(const char *s, long **list, size_t *n);

/* Appends copies of the names of "a,b,c" to the array *list of *n (the
 * caller frees each and the array). */
void cliopt_names(const char *s, char ***list, size_t *n);

#endif
