/* strsort: byte strings sorted bytewise (LC_ALL=C sort order, a prefix
 * before the longer strings it starts) by a merge sort that keeps the
 * length each string shares with the one before it, so two strings with
 * a long common start are compared from where they may differ, not from
 * their first byte: stacks share most of their frames. */
#ifndef FLAME_STRSORT_H
#define FLAME_STRSORT_H

#include <stddef.h>
#include <stdint.h>

struct strsort_key {
	const char *s;	/* the string (any bytes) */
	size_t len;	/* its length */
	uint32_t id;	/* the caller's, carried along */
};

/* Sorts the n keys at k in place; equal strings keep their order. */
void strsort(struct strsort_key *k, size_t n);

#endif
