/* perfview_cli: stackcollapse-perfview's command line. */
#ifndef FLAME_PERFVIEW_CLI_H
#define FLAME_PERFVIEW_CLI_H

#include <stddef.h>

#include "perfview.h"

enum { PV_CLI_RUN, PV_CLI_HELP, PV_CLI_VERSION, PV_CLI_USAGE };
enum pv_mode { PV_COLLAPSE, PV_TO_XML, PV_TO_JSON };

struct pv_cli {
	struct pv_opts opts;		/* reader options */
	enum pv_mode mode;		/* read PerfView files, or write one */
	int zip;			/* --zip, or -o NAME.zip */
	const char **inputs;		/* files, "-" for stdin */
	int ninputs;			/* how many */
	const char *output;		/* -o FILE, NULL: stdout */
};

/* Parses argv.  Returns PV_CLI_RUN, PV_CLI_HELP, PV_CLI_VERSION, or
 * PV_CLI_USAGE with a message in err. */
int pv_cli_parse(struct pv_cli *cli, int argc, char **argv, char *err, size_t errlen);

/* Parses a size such as 4G, 512M, 100000 into *v; returns 0 or -1. */
int pv_cli_size(const char *s, unsigned long long *v);

/* For a result other than PV_CLI_RUN: prints help, the version or the
 * usage error; returns the exit status. */
int pv_cli_exit(int result, const char *prog, const char *err);

#endif
