/* vsp_cli: stackcollapse-vsp's command line. */
#ifndef FLAME_VSP_CLI_H
#define FLAME_VSP_CLI_H

#include <stddef.h>

#include "cliopt.h"
#include "vsp.h"


struct vsp_cli {
	struct vsp_opts opts;		/* collapser options */
	struct cliopt_files io;		/* inputs, -o */
};

/* The options a Visual Studio report takes in flame as well, over a
 * struct vsp_cli. */
extern const struct cliopt_family vsp_cli_family;

/* Parses argv.  Returns -1 to run, else the exit status after help, the
 * version or a usage error. */
int vsp_cli_parse(struct vsp_cli *cli, int argc, char **argv);

#endif
