/* vtune_cli: stackcollapse-vtune's command line. */
#ifndef FLAME_VTUNE_CLI_H
#define FLAME_VTUNE_CLI_H

#include "cliopt.h"

/* The options VTune CSV takes in flame too, over a struct vtune_opts. */
extern const struct cliopt_family vtune_cli_family;

/* The tool's command line (ctool_main's). */
extern const struct cliopt_tool vtune_cli_tool;

#endif
