/* sample_tree: the stacks of sample reports kept as the call tree they
 * come as, for stackcollapse-sample: a node is (parent, frame), frame
 * names are interned once, and a node that ends a stack carries its
 * count.  The stacks are written sorted by a walk of the tree, so the
 * joined stacks (most of the output's bytes) are never stored, interned
 * nor sorted as strings. */
#ifndef FLAME_SAMPLE_TREE_H
#define FLAME_SAMPLE_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SAMPLE_TREE_ROOT 0u	/* the root node: the empty stack */

struct sample_tree;
struct strtab;

/* Returns an empty tree.  Free with sample_tree_free. */
struct sample_tree *sample_tree_new(void);

/* Frees t.  sample_tree_free(NULL) does nothing. */
void sample_tree_free(struct sample_tree *t);

/* The node for the frame name (len bytes) under parent, added when
 * absent.  A ';' in name splits it, as in the stacks written: the node
 * of the part after the last one, under those of the parts before. */
uint32_t sample_tree_child(struct sample_tree *t, uint32_t parent, const char *name, size_t len);

/* The frame name of node (not the root), its length in *len. */
const char *sample_tree_name(const struct sample_tree *t, uint32_t node, size_t *len);

/* Adds a sample count to the stack ending at node (not the root), which
 * is written from then on (with a count of 0 too). */
void sample_tree_add(struct sample_tree *t, uint32_t node, uint64_t count);

/* Writes the stacks to f as folded_save would the table holding them:
 * "stack COUNT" lines sorted bytewise.  Returns 0, or -1 on a write
 * error (errno set). */
int sample_tree_write(const struct sample_tree *t, FILE *f);

/* Adds the stacks to tab (values: struct fcount). */
void sample_tree_spell(const struct sample_tree *t, struct strtab *tab);

struct stack_sink;

/* Hands the stacks to sink (stacksink.h): the frames named, then the
 * stacks in the order sample_tree_write writes them. */
void sample_tree_emit(const struct sample_tree *t, const struct stack_sink *sink);

/* Writes the stacks of t and of tab (values: struct fcount) to path
 * (NULL or "-": stdout), sorted, atomically, as folded_save would the two
 * in one table.  Returns 0, or -1 with a message in err. */
int sample_tree_save(const struct sample_tree *t, struct strtab *tab, const char *path, char *err,
		     size_t errlen);

#endif
