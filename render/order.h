/* order: the drawing order of a flame graph's stacks. */
#ifndef FLAME_ORDER_H
#define FLAME_ORDER_H

#include <stddef.h>
#include <stdint.h>

struct stree;

/* Returns the stack ends of t in the order flamegraph.pl sorts its lines:
 * bytewise, each stack as if followed by a space.  Their number goes to
 * *n; the caller frees the array. */
uint32_t *order_lines(const struct stree *t, size_t *n);

#endif
