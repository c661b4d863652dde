/* pprof_rank: where each frame name's two keys (the name followed by
 * ';', and the name at a stack's end, which sorts before any byte) fall
 * among all keys, bytewise, so that pprof_set sorts stacks by their
 * keys' ranks, not text; and the radix sort of packed keys the names
 * (and pprof_keys' keys, by place) are sorted by. */
#ifndef FLAME_PPROF_RANK_H
#define FLAME_PPROF_RANK_H

#include "pprof_names.h"

#include <stddef.h>
#include <stdint.h>

/* Packed ranks (or a name's first bytes) and whose they are. */
struct pprof_rkey {
	uint64_t pre[2];	/* compared as one 128-bit number, pre[0] high */
	size_t i;		/* which stack or name */
};

/* Sorts v (n keys) by pre, a byte at a time from the first at which
 * they differ, tmp as room: the first frames, which most stacks share in
 * a real profile, are passed over in one look, and the groups soon get
 * small enough for insertion. */
void pprof_rkey_sort(struct pprof_rkey *v, struct pprof_rkey *tmp, size_t n);

/* rank[k]: where key k (name k / 2 followed by ';' when k is even, by
 * the end when odd) is among all keys, from 1 (0 is left for none: the
 * ranks are packed as they are); the caller frees it.  The names
 * are sorted once (name_sort); a name's end key sorts where the name
 * does, its ';' key after the names that go on from it with a byte below
 * ';' (they follow it): with names a, a!b and ab, a's end key, then
 * a!b's two ('!' < ';'), then a;, then ab's two.  Those names whose ';'
 * key waits form a chain, each going on from the one before: a name
 * ranks the ';' keys of the chain's names it does not go on from, last
 * first, then its own end key. */
uint32_t *pprof_key_ranks(const struct pprof_names *f);

#endif
