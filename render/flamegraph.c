/* flamegraph: collapsed stacks to an interactive SVG, a drop-in for
 * flamegraph.pl.  Exit 0 graph written, 1 I/O error (an input that broke
 * off part way is drawn up to the fault), 2 usage error or no valid
 * input. */
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

/* Feeds one input to r.  Returns 0; 1 when reading broke off (the lines
 * before it are drawn); -1 when it cannot be opened (no graph then). */
static int read_input(struct render *r, const char *path)
{
	struct lread *lr = lread_open(path);
	char err[512];
	int rc;

	if (!lr) {
		fprintf(stderr, PROG ": cannot open '%s': %s\n", path, strerror(errno));
		return -1;
	}
	rc = lread_feed(lr, render_line_cb, r, err, sizeof(err)) < 0;
	if (rc)
		fprintf(stderr, PROG ": %s\n", err);
	lread_free(lr);
	return rc;
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
	if (fgopt_parse(&o, argc, argv, &first, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\nTry '" PROG " --help' for more information.\n", err);
		return 2;
	}
	if (o.help || o.version) {
		if (o.help)
			fgopt_usage(stdout, PROG);
		else
			puts(PROG " (flame) " FLAME_VERSION);
		return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	}
	r = render_new(&o, warn, NULL);
	if (render_load(r, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		render_free(r);
		return 1;
	}
	in = first < argc ? (const char *const *)argv + first : dash;
	n = first < argc ? argc - first : 1;
	for (i = 0; i < n && rc == 0; i++)
		rc = read_input(r, in[i]);
	if (render_ignored(r))
		fprintf(stderr, PROG ": ignored %lu lines with invalid format\n", render_ignored(r));
	/* A fault is the exit status even when it left nothing to draw. */
	if (rc >= 0) {
		int drawn = render_to(r, &o);

		rc = rc ? rc : drawn;
	}
	render_free(r);
	return rc < 0 ? 1 : rc;
}
