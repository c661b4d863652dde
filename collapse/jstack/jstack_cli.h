/* jstack_cli: stackcollapse-jstack's command line. */
#ifndef FLAME_JSTACK_CLI_H
#define FLAME_JSTACK_CLI_H

#include "cliopt.h"

/* The options thread dumps take in flame too, over a struct jstack_opts. */
extern const struct cliopt_family jstack_cli_family;

/* The tool's command line (ctool_main's). */
extern const struct cliopt_tool jstack_cli_tool;

#endif
