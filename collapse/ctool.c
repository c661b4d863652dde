/* ctool: a stackcollapse-NAME tool as one call to collect per input. */
#include "ctool.h"
#include "collect.h"
#include "folded.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct cliopt ctool_opts[] = {
	{ "quiet", CTOOL_QUIET, NULL, "no warnings on stderr" },
	{ "verbose", CTOOL_VERBOSE, NULL, "accepted for inferno's scripts; does nothing" },
	{ "nthreads", CTOOL_NTHREADS, "UINT", "accepted for inferno's scripts; one thread\nis used" },
	{ NULL, 0, NULL, NULL }
};

int ctool_set(struct ctool_common *c, int key, const char *arg)
{
	long n;

	switch (key) {
	case CTOOL_QUIET: c->quiet = 1; return 0;
	case CTOOL_VERBOSE: return 0;
	case CTOOL_NTHREADS: return cliopt_long(arg, 0, 1L << 20, &n);
	default: return -1;
	}
}

static int plain_set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	return ctool_set(ctx, key, arg);
}

static const struct cliopt no_opts[] = { { NULL, 0, NULL, NULL } };

const struct cliopt_family ctool_plain_family = {
	NULL, no_opts, plain_set, sizeof(struct ctool_common), NULL, NULL, NULL
};

struct report {
	const char *prog;	/* the tool */
	int quiet;		/* -q */
};

static void warn(void *ctx, const char *file, unsigned long line, const char *msg)
{
	const struct report *r = ctx;

	if (r->quiet)
		return;
	if (file && line)
		fprintf(stderr, "%s: %s:%lu: %s\n", r->prog, file, line, msg);
	else if (file)
		fprintf(stderr, "%s: %s: %s\n", r->prog, file, msg);
	else
		fprintf(stderr, "%s: %s\n", r->prog, msg);
}

/* Each input into t; returns 0, or 1 when one failed. */
static int collect_all(const struct cliopt_files *io, const struct collect_opts *o,
		       struct strtab *t, struct report *r)
{
	const struct format *f;
	char err[512];
	int i, rc, status = 0;

	for (i = 0; i < io->ninputs; i++) {
		err[0] = '\0';
		rc = collect(io->inputs[i], o, t, &f, warn, r, err, sizeof(err));
		if (rc < 0)
			fprintf(stderr, "%s: %s\n", r->prog, err);
		status |= rc != 0;
	}
	return status;
}

int ctool_main(const struct cliopt_tool *t, const char *format, int argc, char **argv)
{
	return ctool_main_keep(t, format, argc, argv, NULL);
}

int ctool_main_keep(const struct cliopt_tool *t, const char *format, int argc, char **argv,
		    const struct ctool_keep *keep)
{
	const struct cliopt_family *fam = t->family;
	void *obj = xcalloc(1, fam->size);
	struct collect_opts o;
	void **fopts;
	struct cliopt_files io;
	struct report r = { t->prog, 0 };
	struct strtab *tab;
	char err[512];
	size_t nfam;
	int rc;

	if ((rc = cliopt_tool_parse(t, obj, argc, argv, &io)) >= 0) {
		free(obj);
		return rc;
	}
	r.quiet = ((const struct ctool_common *)obj)->quiet;
	memset(&o, 0, sizeof(o));
	o.format = format ? format_find(format) : NULL;
	for (nfam = 0; format_families[nfam]; nfam++)
		;
	/* One slot past the table: a family that is not in it (guess's). */
	fopts = xcalloc(nfam + 1, sizeof(void *));
	fopts[format_family_index(fam)] = obj;
	o.fopts = fopts;
	tab = strtab_new(sizeof(struct fcount));
	if (keep)
		keep->attach(obj);
	rc = collect_all(&io, &o, tab, &r);
	if ((keep ? keep->save(obj, tab, io.output, err, sizeof(err))
		  : folded_save(tab, io.output, err, sizeof(err))) < 0) {
		fprintf(stderr, "%s: %s\n", t->prog, err);
		rc = 1;
	}
	strtab_free(tab);
	free(fopts);
	if (fam->release)
		fam->release(obj);
	free(obj);
	return rc;
}
