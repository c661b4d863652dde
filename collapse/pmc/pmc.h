/* pmc: FreeBSD pmcstat -G callgraph text to collapsed stacks, as
 * stackcollapse-pmc.pl does.  Each line "  12.5%  [42]  func @ lib" is a
 * node of a tree printed leaf first, its depth its indent; a node at no
 * greater depth than the one before ends that path, which weighs the
 * count of its last node. */
#ifndef FLAME_PMC_H
#define FLAME_PMC_H

#include <stddef.h>

#include "format.h"
#include "linefmt.h"

extern const struct linefmt pmc_linefmt;

int pmc_sniff(const char *head, size_t len);
int pmc_collect(const struct format_job *j);

#endif
