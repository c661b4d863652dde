/* vsp_cli: stackcollapse-vsp's command line. */
#ifndef FLAME_VSP_CLI_H
#define FLAME_VSP_CLI_H

#include <stddef.h>

#include "cliopt.h"
#include "vsp.h"

/* vsp_cli_parse's results are cliopt's. */
enum { VSP_CLI_RUN = CLIOPT_RUN };

struct vsp_cli {
	struct vsp_opts opts;		/* collapser options */
	const char **inputs;		/* files, "-" for stdin */
	int ninputs;			/* how many */
	const char *output;		/* -o FILE, NULL: stdout */
};

/* The options a Visual Studio report takes in flame as well (a cliopt
 * table for vsp_cli_set). */
extern const struct cliopt vsp_cli_format[];

/* cliopt's setter for a struct vsp_cli (ctx). */
int vsp_cli_set(void *ctx, int key, const char *arg, char *err, size_t errlen);

/* Parses argv.  Returns CLIOPT_RUN or another of cliopt_parse's results
 * (a message in err for CLIOPT_USAGE). */
int vsp_cli_parse(struct vsp_cli *cli, int argc, char **argv, char *err, size_t errlen);

/* For a result other than VSP_CLI_RUN: prints help, the version or the
 * usage error; returns the exit status. */
int vsp_cli_exit(int result, const char *prog, const char *err);

#endif
