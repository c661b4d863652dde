/* etw_cli: stackcollapse-etw's command line. */
#ifndef FLAME_ETW_CLI_H
#define FLAME_ETW_CLI_H

#include <stddef.h>

#include "cliopt.h"
#include "etw.h"


struct etw_cli {
	struct etw_opts opts;		/* collapser options */
	struct cliopt_files io;		/* inputs, -o */
	const char *split;		/* --split DIR */
	size_t top;			/* --top N (default 1) */
	char **procs;			/* owned copies behind opts.process */
	long *pids;			/* owned, behind opts.pid */
	long *tids;			/* owned, behind opts.tid */
};

/* The options an ETW export takes in flame as well, over a struct
 * etw_cli (ready: the filter lists into opts). */
extern const struct cliopt_family etw_cli_family;

/* The tool's command line over a struct etw_cli: cliopt_tool_parse(&etw_cli_tool,
 * &cli, argc, argv, &cli.io) returns -1 to run, else the exit status. */
extern const struct cliopt_tool etw_cli_tool;

void etw_cli_release(struct etw_cli *cli);

#endif
