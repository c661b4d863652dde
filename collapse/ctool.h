/* ctool: the main of a drop-in stackcollapse-NAME tool, over that
 * format's row of the format table: the tool runs the very code flame
 * runs for the format (collect), so the two cannot drift apart.  Options
 * objects of the families these tools use start with a struct
 * ctool_common, which holds what every such tool takes. */
#ifndef FLAME_CTOOL_H
#define FLAME_CTOOL_H

#include "cliopt.h"

struct ctool_common {
	int quiet;		/* -q: no warnings on stderr */
};

/* Keys of the options in ctool_opts, for the families' setters. */
enum { CTOOL_QUIET = 'q', CTOOL_VERBOSE = 'v', CTOOL_NTHREADS = 'n' };

/* -q/--quiet, -v/--verbose and -n/--nthreads as inferno's collapsers
 * spell them (the last two accepted and ignored), for a tool's own
 * options; the family's setter passes their keys to ctool_set. */
extern const struct cliopt ctool_opts[];

/* The family of a tool whose format has no options of its own: only
 * ctool_opts, over a struct ctool_common. */
extern const struct cliopt_family ctool_plain_family;

/* Sets one of ctool_opts' options in c.  Returns 0, or -1 when key is
 * not one of them. */
int ctool_set(struct ctool_common *c, int key, const char *arg);

/* Collapses every input of t's command line as the format called format
 * (NULL: each input's format is detected) and writes the collapsed
 * stacks sorted.  Returns the exit status: 0, 1 when an input could not
 * be read or broke off (what was read is written all the same), 2 on a
 * usage error. */
int ctool_main(const struct cliopt_tool *t, const char *format, int argc, char **argv);

struct strtab;

/* For a tool whose format keeps stacks of its own beside the table
 * (stackcollapse-pprof's, as frame ids). */
struct ctool_keep {
	/* After the options: readies the family's object obj to keep them. */
	void (*attach)(void *obj);
	/* Writes what obj kept and the table t (values: struct fcount) to
	 * path, sorted, as folded_save would the two in one table.  Returns
	 * 0, or -1 with a message in err. */
	int (*save)(void *obj, struct strtab *t, const char *path, char *err, size_t errlen);
};

/* ctool_main for such a tool (keep NULL: ctool_main). */
int ctool_main_keep(const struct cliopt_tool *t, const char *format, int argc, char **argv,
		    const struct ctool_keep *keep);

#endif
