/* flamegraph: collapsed stacks to an interactive SVG, a drop-in for
 * flamegraph.pl.  Exit 0 graph written, 1 I/O error, 2 usage error or no
 * valid input. */
#include "cliopt.h"
#include "lread.h"
#include "outfile.h"
#include "render.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define PROG "flamegraph"

static void warn(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, PROG ": %s\n", msg);
}

static int render_to(struct render *r, const struct fg_opts *o)
{
	struct outfile *out = outfile_open(o->output);
	char err[512];
	int drawn;

	if (!out) {
		fprintf(stderr, PROG ": cannot write '%s': %s\n", o->output, strerror(errno));
		return 1;
	}
	drawn = render_write(r, outfile_stream(out));
	if (outfile_commit(out) < 0) {
		fprintf(stderr, PROG ": write error on '%s': %s\n",
			o->output ? o->output : "<stdout>", strerror(errno));
		return 1;
	}
	if (drawn != 0) {
		fprintf(stderr, PROG ": ERROR: no stack counts found\n");
		return 2;
	}
	if (render_finish(r, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const dash[] = { "-" };
	const char *const *in;
	struct fg_opts o;
	struct render *r;
	char err[512];
	int first, i, n, rc = 0;

	fgopt_init(&o);
	if (fgopt_parse(&o, argc, argv, &first, err, sizeof(err)) < 0)
		return cliopt_usage(PROG, err);
	if (o.version)
		return cliopt_version(PROG);
	if (o.help) {
		fgopt_usage(stdout, PROG);
		return cliopt_stdout_status();
	}
	r = render_new(&o, warn, NULL);
	if (render_load(r, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		render_free(r);
		return 1;
	}
	in = first < argc ? (const char *const *)argv + first : dash;
	n = first < argc ? argc - first : 1;
	for (i = 0; i < n && rc == 0; i++) {
		rc = lread_each(in[i], render_line_cb, r, NULL, err, sizeof(err)) < 0;
		if (rc)
			fprintf(stderr, PROG ": %s\n", err);
	}
	if (render_ignored(r))
		fprintf(stderr, PROG ": ignored %lu lines with invalid format\n", render_ignored(r));
	rc = rc ? 1 : render_to(r, &o);
	render_free(r);
	return rc;
}
