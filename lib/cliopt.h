/* cliopt: small helpers for the tools' getopt_long tables. */
#ifndef FLAME_CLIOPT_H
#define FLAME_CLIOPT_H

#include <getopt.h>

/* The long name of the option whose val is val in opts, or "?". */
const char *cliopt_name(const struct option *opts, int val);

#endif
