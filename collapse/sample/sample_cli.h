/* sample_cli: stackcollapse-sample's command line. */
#ifndef FLAME_SAMPLE_CLI_H
#define FLAME_SAMPLE_CLI_H

#include "cliopt.h"

/* The options sample reports take in flame too, over a struct sample_opts. */
extern const struct cliopt_family sample_cli_family;

/* The tool's command line (ctool_main's). */
extern const struct cliopt_tool sample_cli_tool;

#endif
