/* recursive: direct recursion folded away, as inferno-collapse-recursive
 * and stackcollapse-recursive.pl do: "main;f;f;f;g" becomes "main;f;g",
 * so a deep recursion is one frame wide instead of a tower. */
#ifndef FLAME_RECURSIVE_H
#define FLAME_RECURSIVE_H

#include <stddef.h>

/* Writes stack s (n bytes, frames split by ';') to out (room for n bytes)
 * with each run of the same frame kept once; returns its length. */
size_t recursive_fold(const char *s, size_t n, char *out);

struct strtab;

/* Adds every stack of in, folded, to out, summing counts (values of both:
 * struct fcount). */
void recursive_table(const struct strtab *in, struct strtab *out);

#endif
