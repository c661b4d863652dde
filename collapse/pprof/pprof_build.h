/* pprof_build: the keys of a profile's samples (their location fields'
 * bytes, as pprof_kset keeps them) made stacks of frame ids in a
 * pprof_set, as pprof_stack would spell them: every location's frames
 * built once, every function named once, and the stacks' bytes counted
 * against pprof_stack's limit. */
#ifndef FLAME_PPROF_BUILD_H
#define FLAME_PPROF_BUILD_H

#include "pprof.h"

struct pprof_kset;
struct pprof_set;
struct pprof_build;

/* Readies the stacks of p's keys, weighing their sums of value type
 * type, for set: p's locations and functions numbered and, unless lazy
 * (few keys: each location built when a key first names it), every
 * location built and every function named, in the profile's order.
 * Returns NULL when they cannot be numbered so (two locations of one id,
 * frames past 2^32). */
struct pprof_build *pprof_build_new(const struct pprof_prof *p, struct pprof_set *set,
				    size_t type, int lazy);

/* Every key of seen with a sum not 0 made a stack in the set, those from
 * the middle on on a second thread when par is set, there are many and
 * b is not lazy.  Returns 0, or -1 when a key names a location that is
 * not there or is too long, the weights pass 2^64 together (their sum
 * would then go on in floating point, in an order pprof_stack defines),
 * or the stacks' bytes pass pprof_stack's limit: the set then holds some
 * of them (the caller undoes them). */
int pprof_build_stacks(struct pprof_build *b, const struct pprof_kset *seen, int par);

/* Frees b (NULL: does nothing). */
void pprof_build_free(struct pprof_build *b);

#endif
