/* ghcprof_cli: stackcollapse-ghcprof's command line. */
#ifndef FLAME_GHCPROF_CLI_H
#define FLAME_GHCPROF_CLI_H

#include "cliopt.h"

/* The options GHC reports take in flame too, over a struct ghcprof_opts. */
extern const struct cliopt_family ghcprof_cli_family;

/* The tool's command line (ctool_main's). */
extern const struct cliopt_tool ghcprof_cli_tool;

#endif
