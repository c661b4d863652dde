/* dtrace_cli: stackcollapse-dtrace's command line. */
#ifndef FLAME_DTRACE_CLI_H
#define FLAME_DTRACE_CLI_H

#include "cliopt.h"

/* The options DTrace input takes in flame too, over a struct dtrace_opts. */
extern const struct cliopt_family dtrace_cli_family;

/* The tool's command line (ctool_main's). */
extern const struct cliopt_tool dtrace_cli_tool;

#endif
