/* perfview_cli: stackcollapse-perfview's command line. */
#ifndef FLAME_PERFVIEW_CLI_H
#define FLAME_PERFVIEW_CLI_H

#include <stddef.h>

#include "cliopt.h"
#include "perfview.h"

enum pv_mode { PV_COLLAPSE, PV_TO_XML, PV_TO_JSON };

struct pv_cli {
	struct pv_opts opts;		/* reader options */
	enum pv_mode mode;		/* read PerfView files, or write one */
	int zip;			/* --zip, or -o NAME.zip */
	struct cliopt_files io;		/* inputs, -o */
};

/* Parses argv.  Returns -1 to run, else the exit status after help, the
 * version or a usage error. */
int pv_cli_parse(struct pv_cli *cli, int argc, char **argv);

#endif
