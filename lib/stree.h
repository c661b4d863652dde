/* stree: a call tree of stacks.  Frame names are interned once into ids;
 * a stack "f1;f2;...;fk" is the path root -> f1 -> ... -> fk, every ';'
 * ending a field (empty and trailing fields included, so distinct strings
 * are distinct nodes and "" is the root).  A node that ends an added stack
 * carries a fixed-size value that starts zeroed.  Memory follows the
 * distinct stacks, not how often they repeat. */
#ifndef FLAME_STREE_H
#define FLAME_STREE_H

#include <stddef.h>
#include <stdint.h>

#define STREE_ROOT 0u	/* the root node: the empty stack */

struct stree;

/* Returns an empty tree whose stack ends carry valsize bytes of value
 * (0: none).  Free with stree_free. */
struct stree *stree_new(size_t valsize);

/* Frees the tree, its names and values.  stree_free(NULL) does nothing. */
void stree_free(struct stree *t);

/* Returns the node of the stack s (len bytes, any bytes), adding the
 * missing nodes, and marks it as a stack end (its value zeroed the first
 * time).  Fastest when stacks come sorted: the prefix shared with the
 * previous stack is not looked up again. */
uint32_t stree_add(struct stree *t, const char *s, size_t len);

/* The value of node, owned by the tree and valid until the next
 * stree_add; NULL when node ends no added stack or valsize is 0. */
void *stree_val(const struct stree *t, uint32_t node);

/* The parent of node (the root is its own parent). */
uint32_t stree_parent(const struct stree *t, uint32_t node);

/* Fields from the root to node: 0 for the root. */
uint32_t stree_depth(const struct stree *t, uint32_t node);

/* The frame name of node (NUL-terminated, "" for the root), its length in
 * *len if not NULL; it stays at the same address until stree_free. */
const char *stree_name(const struct stree *t, uint32_t node, size_t *len);

/* 1 when the path from the root to node spells the stack s (len bytes). */
int stree_spells(const struct stree *t, uint32_t node, const char *s, size_t len);

/* Gives back the memory that only adding uses (the edge index), for when
 * the tree is done; a later stree_add builds it again. */
void stree_trim(struct stree *t);

/* Nodes, the root included. */
size_t stree_count(const struct stree *t);

/* Rebuilds the stack string of node into *buf (grown as needed, *cap its
 * size; the caller frees it); returns its length. */
size_t stree_str(const struct stree *t, uint32_t node, char **buf, size_t *cap);

/* 1 when node ends an added stack. */
int stree_is_end(const struct stree *t, uint32_t node);

/* Returns the stack ends in the order they were first added; their number
 * goes to *n.  The caller frees the array. */
uint32_t *stree_ends(const struct stree *t, size_t *n);

/* 1 when every stack was added in flamegraph.pl's line order: sorting,
 * as if followed by a space, bytewise after (or the same as) the one
 * before.  stree_ends is then in line order. */
int stree_in_order(const struct stree *t);

/* Bytes of memory held, for benchmarks. */
size_t stree_bytes(const struct stree *t);

/* Stacks given as frame ids instead of text, for a caller that has its
 * frames interned already: stree_frame returns the id of a frame name
 * (len bytes, no ';'), added when new; stree_frame_name gives it back
 * (its length in *len), at the same address until stree_free. */
uint32_t stree_frame(struct stree *t, const char *name, size_t len);
const char *stree_frame_name(const struct stree *t, uint32_t frame, size_t *len);

/* stree_add of the stack whose fields are the frames f[0..n) (ids from
 * stree_frame): the same node, the same order tracking (stree_in_order),
 * and text and ids may be mixed.  Fastest when stacks come in line order:
 * only the frames after those shared with the stack before are looked
 * up, and no byte of a name is read. */
uint32_t stree_add_ids(struct stree *t, const uint32_t *f, size_t n);

#endif
