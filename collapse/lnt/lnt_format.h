/* lnt_format: LNT profiles as a row of the format table, and the steps
 * stackcollapse-lnt shares with it. */
#ifndef FLAME_LNT_FORMAT_H
#define FLAME_LNT_FORMAT_H

#include "format.h"
#include "lnt.h"
#include "lnt_cli.h"

struct fseq;
struct lread;
struct strtab;

int lnt_format_sniff(const char *head, size_t len);
int lnt_collect(const struct format_job *j);

/* Reads all of lr (at most LNT_MAX_INFLATE bytes) as a profile.  Returns
 * it (free with lnt_free), or NULL with a message in err.  A profile
 * that broke off part way is returned with partial set and the fault in
 * err. */
struct lnt_prof *lnt_load(struct lread *lr, char *err, size_t errlen);

/* The counter o names (or the default), naming the others through warn
 * (as file's) when there are several.  Returns its index, or -1 with a
 * message in err. */
int lnt_pick(const struct lnt_prof *p, const struct lnt_opts *o, const char *file,
	     collect_warn_fn *warn, void *ctx, char *err, size_t errlen);

/* Adds p's stacks of counter c to t (values: struct fcount), and to seq
 * when not NULL; file names the root with --root-frame file. */
void lnt_add_stacks(const struct lnt_prof *p, int c, const struct lnt_opts *o, const char *file,
		    struct strtab *t, struct fseq *seq);

/* Names what was skipped or cut short in p through warn. */
void lnt_report(const struct lnt_prof *p, const char *file, const char *fault,
		collect_warn_fn *warn, void *ctx);

#endif
