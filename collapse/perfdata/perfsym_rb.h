/* perfsym_rb: the red-black tree perf keeps a file's symbols in, rebuilt
 * node for node.  perf finds an address by walking down that tree and
 * takes the first symbol on the way that holds it; where symbols
 * overlap (a PLT entry inside an unsized _init that perf stretched to
 * the next symbol, a label inside a function) which one is met first
 * depends on the tree's shape, that is on the order the symbols went in
 * and were taken out.  This module inserts and erases as the classic
 * red-black algorithms do (the ones Linux's rbtree implements: equal
 * keys go right, an erased node with two children is replaced by its
 * successor), so the walk meets what perf's meets.
 *
 * Nodes are indices 0..n-1 into an array of keys the caller owns. */
#ifndef FLAME_PERFSYM_RB_H
#define FLAME_PERFSYM_RB_H

#include <stddef.h>
#include <stdint.h>

#define PERFSYM_RB_NIL UINT32_MAX

struct perfsym_rb_node {
	uint32_t left, right, parent;	/* indices, PERFSYM_RB_NIL: none */
	uint32_t red;			/* 1: red, 0: black */
};

struct perfsym_rb {
	struct perfsym_rb_node *v;	/* one per index (owned) */
	size_t n;			/* indices */
	uint32_t root;			/* PERFSYM_RB_NIL: empty */
};

/* An empty tree over indices [0, n); release with perfsym_rb_release. */
void perfsym_rb_init(struct perfsym_rb *t, size_t n);
void perfsym_rb_release(struct perfsym_rb *t);

/* Inserts node i with key key[i] (equal keys go right of each other, so
 * in order they keep their insertion order). */
void perfsym_rb_insert(struct perfsym_rb *t, uint32_t i, const uint64_t *key);

/* Takes node i out of the tree. */
void perfsym_rb_erase(struct perfsym_rb *t, uint32_t i);

#endif
