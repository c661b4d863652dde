/* stackcollapse-perfview: PerfView stack files to collapsed stacks, and
 * collapsed stacks to PerfView stack files.  Exit 0 when every input was
 * read, 1 when one could not be read or was broken (what was read is
 * still written), 2 on a usage error. */
#include "folded.h"
#include "outfile.h"
#include "perfview.h"
#include "pvread.h"
#include "perfview_cli.h"
#include "pvwrite.h"
#include "strtab.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define PROG "stackcollapse-perfview"

static void warn(void *ctx, const char *file, unsigned long line, unsigned long col, const char *msg)
{
	(void)ctx;
	if (!file)
		fprintf(stderr, PROG ": %s\n", msg);
	else if (line && col)
		fprintf(stderr, PROG ": %s:%lu:%lu: %s\n", file, line, col, msg);
	else if (line)
		fprintf(stderr, PROG ": %s:%lu: %s\n", file, line, msg);
	else
		fprintf(stderr, PROG ": %s: %s\n", file, msg);
}

static int write_line(void *f, const char *s, size_t len, const struct fcount *c)
{
	return folded_write(f, s, len, c);
}

/* PerfView files in, collapsed stacks out; returns the exit status. */
static int collapse(const struct pv_cli *cli, struct strtab *t, char *err, size_t errlen)
{
	struct pv *p = pv_new(&cli->opts, t, warn, NULL);
	struct outfile *o;
	int i, rc = 0;

	for (i = 0; i < cli->io.ninputs; i++)
		pvread_file(p, cli->io.inputs[i]);
	if (pv_stats(p)->skipped)
		fprintf(stderr, PROG ": skipped %llu samples that could not be used\n",
			(unsigned long long)pv_stats(p)->skipped);
	if (!cli->opts.time_order) {
		rc = folded_save(t, cli->io.output, err, errlen);
	} else if (!(o = outfile_open(cli->io.output))) {
		snprintf(err, errlen, "cannot write '%s': %s", cli->io.output, strerror(errno));
		rc = -1;
	} else {
		pv_each_in_order(p, write_line, outfile_stream(o));
		rc = outfile_commit(o);
		if (rc < 0)
			snprintf(err, errlen, "write error: %s", strerror(errno));
	}
	if (rc < 0)
		fprintf(stderr, PROG ": %s\n", err);
	rc = rc < 0 || pv_stats(p)->bad_input;
	pv_free(p);
	return rc;
}

/* Collapsed stacks in, a PerfView file out; returns the exit status. */
static int convert(const struct pv_cli *cli, struct strtab *t, char *err, size_t errlen)
{
	struct pvwrite_stats st;
	unsigned long bad = 0, first = 0;
	int i, rc = 0;

	for (i = 0; i < cli->io.ninputs; i++) {
		if (folded_load(cli->io.inputs[i], t, &bad, &first, err, errlen) < 0) {
			fprintf(stderr, PROG ": %s\n", err);
			rc = 1;
		} else if (bad) {
			fprintf(stderr, PROG ": %s:%lu: ignored %lu lines that are not collapsed stacks\n",
				cli->io.inputs[i], first, bad);
			rc = 1;
		}
	}
	if (pvwrite_save(t, cli->io.output, cli->mode == PV_TO_JSON, cli->zip, &st, err, errlen) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	if (st.empty)
		fprintf(stderr, PROG ": left out %zu empty stacks\n", st.empty);
	if (st.bad_utf8)
		fprintf(stderr, PROG ": %zu names were not UTF-8: bad bytes written as U+FFFD\n",
			st.bad_utf8);
	return rc;
}

int main(int argc, char **argv)
{
	struct pv_cli cli;
	struct strtab *t;
	char err[512];
	int rc = pv_cli_parse(&cli, argc, argv);

	if (rc >= 0)
		return rc;
	t = strtab_new(sizeof(struct fcount));
	rc = cli.mode == PV_COLLAPSE ? collapse(&cli, t, err, sizeof(err))
				     : convert(&cli, t, err, sizeof(err));
	if (fflush(stdout) != 0 || ferror(stdout))
		rc = 1;
	strtab_free(t);
	return rc;
}
