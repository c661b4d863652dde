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

/* The tool's command line over a struct vsp_cli: cliopt_tool_parse(&vsp_cli_tool,
 * &cli, argc, argv, &cli.io) returns -1 to run, else the exit status. */
extern const struct cliopt_tool vsp_cli_tool;

#endif
