/* vsp_cli: stackcollapse-vsp's command line. */
#ifndef FLAME_VSP_CLI_H
#define FLAME_VSP_CLI_H

#include <stddef.h>

#include "vsp.h"

enum { VSP_CLI_RUN, VSP_CLI_HELP, VSP_CLI_VERSION, VSP_CLI_USAGE };

struct vsp_cli {
	struct vsp_opts opts;		/* collapser options */
	const char **inputs;		/* files, "-" for stdin */
	int ninputs;			/* how many */
	const char *output;		/* -o FILE, NULL: stdout */
};

/* Parses argv.  Returns VSP_CLI_RUN, VSP_CLI_HELP, VSP_CLI_VERSION, or
 * VSP_CLI_USAGE with a message in err. */
int vsp_cli_parse(struct vsp_cli *cli, int argc, char **argv, char *err, size_t errlen);

/* For a result other than VSP_CLI_RUN: prints help, the version or the
 * usage error; returns the exit status. */
int vsp_cli_exit(int result, const char *prog, const char *err);

#endif
