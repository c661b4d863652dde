/* flamegraph: collapsed stacks to an interactive SVG, a drop-in for
 * flamegraph.pl.  Exit 0 graph written, 1 I/O error, 2 usage error or no
 * valid input. */
#include "cliopt.h"
#include "lread.h"
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
	if (!(r = render_open(&o, warn, NULL, err, sizeof(err)))) {
		fprintf(stderr, PROG ": %s\n", err);
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
	if (rc == 0 && (rc = render_save(r, o.output, err, sizeof(err))) != 0) {
		if (rc > 0)
			fprintf(stderr, PROG ": ERROR: no stack counts found\n");
		else
			fprintf(stderr, PROG ": %s\n", err);
		rc = rc > 0 ? 2 : 1;
	}
	render_free(r);
	return rc;
}
