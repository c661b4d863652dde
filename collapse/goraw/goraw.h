/* goraw: `go tool pprof -raw` text to collapsed stacks, as
 * stackcollapse-go.pl does.  After "Samples:", each "COUNT VALUE: ID ID
 * ..." line is a stack of location ids, leaf first, weighing COUNT; after
 * "Locations", each "ID: 0xADDR M=N func file:line" line names a location
 * (and, unlike the script, its inlined callers' lines under it too). */
#ifndef FLAME_GORAW_H
#define FLAME_GORAW_H

#include <stddef.h>

#include "format.h"
#include "linefmt.h"

extern const struct linefmt goraw_linefmt;

int goraw_sniff(const char *head, size_t len);
int goraw_collect(const struct format_job *j);

#endif
