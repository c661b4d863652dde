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

struct lentry;

/* Reorders the n entries of e, stacks of t in line order, so that below
 * every frame the widest child comes first (--sort weight); children of
 * equal weight keep their order, and samples that end at a frame come
 * after its children. */
void order_by_weight(const struct stree *t, struct lentry *e, size_t n);

#endif
