/* cliopt: small helpers for the tools' getopt_long tables. */
#ifndef FLAME_CLIOPT_H
#define FLAME_CLIOPT_H

#include <getopt.h>
#include <stddef.h>

/* The long name of the option whose val is val in opts, or "?". */
const char *cliopt_name(const struct option *opts, int val);

/* Appends the numbers of "1,2,3" to the array *list of *n (the caller
 * frees it).  Returns 0, or -1 when s is not such a list. */
int cliopt_numbers(const char *s, long **list, size_t *n);

/* Appends copies of the names of "a,b,c" to the array *list of *n (the
 * caller frees each and the array). */
void cliopt_names(const char *s, char ***list, size_t *n);

#endif
