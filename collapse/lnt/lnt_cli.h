/* lnt_cli: stackcollapse-lnt's command line. */
#ifndef FLAME_LNT_CLI_H
#define FLAME_LNT_CLI_H

#include "cliopt.h"
#include "lnt.h"

/* What a profile is drawn with. */
struct lnt_opts {
	const char *event;		/* --event-filter: the counter, NULL: default */
	int per_insn;			/* --per-instruction */
	enum lnt_root root;		/* --root-frame */
};

struct lnt_cli {
	struct lnt_opts opts;		/* drawing options */
	int table;			/* --table */
	const char *write_v2;		/* --write-v2 FILE, or NULL */
	struct cliopt_files io;		/* inputs, -o */
};

/* The options an LNT profile takes in flame as well, over a struct
 * lnt_cli. */
extern const struct cliopt_family lnt_cli_family;

/* The tool's command line over a struct lnt_cli: cliopt_tool_parse(&lnt_cli_tool,
 * &cli, argc, argv, &cli.io) returns -1 to run, else the exit status. */
extern const struct cliopt_tool lnt_cli_tool;

#endif
