/* sswrite: collapsed stacks to a speedscope file: one sampled profile,
 * every distinct frame once in the shared list, one sample per distinct
 * stack (root first) with its count as the weight, so speedscope opens
 * it and the speedscope reader gives back the same stacks and totals. */
#ifndef FLAME_SSWRITE_H
#define FLAME_SSWRITE_H

#include <stddef.h>
#include <stdio.h>

struct strtab;

/* Writes the stacks of t (values: struct fcount), sorted bytewise, to f;
 * unit is flame's name for what the counts are ("ns", "samples"; NULL:
 * none), name the profile's name (NULL: "flame").  Returns 0, or -1 when
 * a write failed. */
int sswrite(FILE *f, const struct strtab *t, const char *unit, const char *name);

/* sswrite to path (NULL or "-": stdout), atomically.  Returns 0, or -1
 * with a message in err. */
int sswrite_save(const struct strtab *t, const char *unit, const char *name, const char *path,
		 char *err, size_t errlen);

#endif
