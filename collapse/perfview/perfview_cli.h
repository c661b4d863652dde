/* perfview_cli: stackcollapse-perfview's command line. */
#ifndef FLAME_PERFVIEW_CLI_H
#define FLAME_PERFVIEW_CLI_H

#include <stddef.h>

#include "cliopt.h"
#include "perfview.h"

/* pv_cli_parse's results are cliopt's. */
enum { PV_CLI_RUN = CLIOPT_RUN };
enum pv_mode { PV_COLLAPSE, PV_TO_XML, PV_TO_JSON };

struct pv_cli {
	struct pv_opts opts;		/* reader options */
	enum pv_mode mode;		/* read PerfView files, or write one */
	int zip;			/* --zip, or -o NAME.zip */
	const char **inputs;		/* files, "-" for stdin */
	int ninputs;			/* how many */
	const char *output;		/* -o FILE, NULL: stdout */
};

/* Parses argv.  Returns CLIOPT_RUN or another of cliopt_parse's results
 * (a message in err for CLIOPT_USAGE). */
int pv_cli_parse(struct pv_cli *cli, int argc, char **argv, char *err, size_t errlen);

/* For a result other than PV_CLI_RUN: prints help, the version or the
 * usage error; returns the exit status. */
int pv_cli_exit(int result, const char *prog, const char *err);

#endif
