/* etw_cli: stackcollapse-etw's command line. */
#ifndef FLAME_ETW_CLI_H
#define FLAME_ETW_CLI_H

#include <stddef.h>

#include "cliopt.h"
#include "etw.h"

/* etw_cli_parse's results are cliopt's. */
enum { ETW_CLI_RUN = CLIOPT_RUN };

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

/* The options an ETW export takes in flame as well (a cliopt table for
 * etw_cli_set). */
extern const struct cliopt etw_cli_format[];

/* cliopt's setter for a struct etw_cli (ctx). */
int etw_cli_set(void *ctx, int key, const char *arg, char *err, size_t errlen);

/* Empties cli for setting options one by one; then etw_cli_ready. */
void etw_cli_init(struct etw_cli *cli);

/* After the options: the filter lists into opts. */
void etw_cli_ready(struct etw_cli *cli);

/* Parses argv.  Returns CLIOPT_RUN or another of cliopt_parse's results
 * (a message in err for CLIOPT_USAGE).  Release with etw_cli_release. */
int etw_cli_parse(struct etw_cli *cli, int argc, char **argv, char *err, size_t errlen);

/* For a result other than ETW_CLI_RUN: prints help, the version or the
 * usage error; returns the exit status. */
int etw_cli_exit(struct etw_cli *cli, int result, const char *prog, const char *err);

void etw_cli_release(struct etw_cli *cli);

#endif
