/* flamegraph: collapsed stacks to an interactive SVG, a drop-in for
 * flamegraph.pl.  Exit 0 graph written, 1 I/O error (an input that broke
 * off part way is drawn up to the fault), 2 usage error or no valid
 * input. */
#include "cliopt.h"
#include "lread.h"
#include "progress.h"
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

/* Writes the graph; returns the exit status of that step. */
static int save(struct render *r, const char *path)
{
	char err[512];
	int rc = render_save(r, path, err, sizeof(err));

	if (rc > 0)
		fprintf(stderr, PROG ": ERROR: no stack counts found\n");
	else if (rc < 0)
		fprintf(stderr, PROG ": %s\n", err);
	return rc > 0 ? 2 : rc < 0;
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
	progress_install(PROG);
	if (!(r = render_open(&o, warn, NULL, err, sizeof(err)))) {
		fprintf(stderr, PROG ": %s\n", err);
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
		int drawn = save(r, o.output);

		rc = rc ? rc : drawn;
	}
	render_free(r);
	return rc < 0 ? 1 : rc;
}
