/* etw_cli: stackcollapse-etw's command line. */
#ifndef FLAME_ETW_CLI_H
#define FLAME_ETW_CLI_H

#include <stddef.h>

#include "etw.h"

enum { ETW_CLI_RUN, ETW_CLI_HELP, ETW_CLI_VERSION, ETW_CLI_USAGE };

struct etw_cli {
	struct etw_opts opts;		/* collapser options */
	const char **inputs;		/* files, "-" for stdin */
	int ninputs;			/* how many */
	const char *output;		/* -o FILE */
	const char *split;		/* --split DIR */
	size_t top;			/* --top N (default 1) */
	char **procs;			/* owned copies behind opts.process */
	long *pids;			/* owned, behind opts.pid */
	long *tids;			/* owned, behind opts.tid */
};

/* Parses argv.  Returns ETW_CLI_RUN, _HELP, _VERSION, or _USAGE with a
 * message in err.  Release with etw_cli_release. */
int etw_cli_parse(struct etw_cli *cli, int argc, char **argv, char *err, size_t errlen);

/* For a result other than ETW_CLI_RUN: prints help, the version or the
 * usage error; returns the exit status. */
int etw_cli_exit(struct etw_cli *cli, int result, const char *prog, const char *err);

void etw_cli_release(struct etw_cli *cli);

#endif
