/* stree_int: the call tree's insides, shared by stree.c and stree_ids.c
 * (stacks added as frame ids) only; private to lib/stree. */
#ifndef FLAME_STREE_INT_H
#define FLAME_STREE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "fnames.h"

#define NONE UINT32_MAX
#define EMPTY 0		/* an unused hash slot (slots hold node + 1) */
#define FULL(n, slots) ((n) * 4 > (slots) * 3)	/* load above 3/4 */

struct snode {
	uint32_t parent;	/* the root is its own parent */
	uint32_t frame;		/* id in frames */
	uint32_t depth;		/* fields from the root */
	uint32_t val;		/* index of its value, or NONE */
};

struct stree {
	struct fnames fn;	/* frame names and their ids; "" is id 0 */
	struct snode *node;	/* nodes, [0] the root */
	size_t n;		/* nodes in use */
	size_t cap;		/* capacity of node */
	uint64_t *slot;		/* hash slots: tag << 32 | (node + 1), 0 empty */
	size_t nkeys;		/* nodes in the table */
	size_t mask;		/* slots - 1 (a power of two) */
	uint64_t key;		/* mixed into every edge's hash (hkey_words') */
	char *vals;		/* values of stack ends */
	size_t valsize;		/* bytes per value */
	size_t nvals;		/* values in use */
	size_t valcap;		/* capacity of vals, in values */
	char *prev;		/* the previous stack */
	size_t prevlen;		/* its length */
	size_t prevcap;		/* capacity of prev */
	uint32_t *pnode;	/* node of each of its fields */
	size_t *pend;		/* offset where each field ends */
	size_t pn;		/* its fields */
	size_t pcap;		/* capacity of pnode and pend */
	int sorted;		/* every stack came in line order (then
				   there is no edge table: see stree_begun) */
	int prev_ids;		/* the previous stack came as ids: prev is
				   not spelled yet, pnode[0..pn) is it */
	uint32_t *enode;	/* in line order: the stack ends that begin the... */
	size_t *elen;		/* ...previous stack, and their lengths, ascending */
	size_t en;		/* entries in enode and elen */
	size_t ecap;		/* their capacity */
	uint32_t *byval;	/* value index -> node: ends in order added */
	size_t bvcap;		/* capacity of byval */
};

/* Builds the table of every node but the root, with room to spare: once
 * the stacks are out of line order. */
void stree_rehash(struct stree *t);

/* A new node: frame under parent, known to be absent. */
uint32_t stree_add_node(struct stree *t, uint32_t parent, uint32_t frame);

/* The child of parent for frame id frame, added when absent; out of line
 * order only (it looks in the table). */
uint32_t stree_child_id(struct stree *t, uint32_t parent, uint32_t frame);

/* Notes that field k of the stack being added is node, ending at byte end. */
void stree_remember(struct stree *t, size_t k, uint32_t node, size_t end);

/* In line order: the node of the stack being added up to byte end when it
 * was added before and the previous stack begins with it (end <= p, the
 * byte where the two first differ), else NONE; stree_begin_next keeps
 * that list after a stack of len bytes ending at node. */
uint32_t stree_begun(const struct stree *t, size_t end, size_t p);
void stree_begin_next(struct stree *t, size_t len, size_t p, uint32_t node);

/* Marks node as a stack end (its value zeroed the first time); returns it. */
uint32_t stree_end_of(struct stree *t, uint32_t node);

#endif
