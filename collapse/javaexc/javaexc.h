/* javaexc: Java exception stack traces (as a program prints them, many
 * in one log) to collapsed stacks, as stackcollapse-java-exceptions.pl
 * does.  Each run of "\tat pkg.Class.method(File.java:12)" lines (leaf
 * first) is one sample; a "waiting on" line inside one is passed over,
 * any other line ends it. */
#ifndef FLAME_JAVAEXC_H
#define FLAME_JAVAEXC_H

#include <stddef.h>

#include "ctool.h"
#include "format.h"
#include "linefmt.h"

struct javaexc_opts {
	struct ctool_common common;	/* -q */
	int shorten;			/* --shorten-pkgs: p.s.Class.method */
	int no_pkgs;			/* --no-pkgs: Class.method */
};

extern const struct linefmt javaexc_linefmt;
extern const struct cliopt_family javaexc_cli_family;

int javaexc_sniff(const char *head, size_t len);
int javaexc_collect(const struct format_job *j);

#endif
