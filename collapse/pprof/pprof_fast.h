/* pprof_fast: stackcollapse-pprof's reading of a profile's samples in
 * the same pass as the rest of it (pprof_read's hook), keyed by their
 * location bytes with the sums of every value type kept, then turned
 * into a pprof_set's stacks of frame ids.  It takes samples of locations
 * and values (packed or not, as Go and pprofgen write them; labels are
 * passed over, so not for --labels), values one per type and none
 * negative: when a profile has anything else (a malformed or negative
 * sample, an unknown location, stacks past pprof_stack's limits),
 * pprof_fast_finish says so and adds nothing, and the caller draws the
 * profile with pprof_stack_add, which names what is wrong. */
#ifndef FLAME_PPROF_FAST_H
#define FLAME_PPROF_FAST_H

#include "pprof.h"

struct pprof_set;
struct pprof_fast;

/* A reader with no samples yet, reading them on up to threads threads,
 * the caller's and threads - 1 workers (1 or less: the caller's alone;
 * the stacks are the same), job bytes of them at a time (0: a default of
 * 2 MB, a few milliseconds' work; tests make it small); free with
 * pprof_fast_free (NULL: does nothing). */
struct pprof_fast *pprof_fast_new(int threads, size_t job);
void pprof_fast_free(struct pprof_fast *f);

/* The hook to hand pprof_read_hooked (valid while f is). */
const struct pprof_hook *pprof_fast_hook(struct pprof_fast *f);

/* Adds the stacks of the samples f was told of, weighing their values of
 * type vi (pprof_stack_type's), to set, as pprof_stack_add would add
 * them to a table.  Returns 0, or -1 having added nothing: the samples
 * are to be drawn by pprof_stack_add. */
int pprof_fast_finish(struct pprof_fast *f, const struct pprof_prof *p, int vi,
		      struct pprof_set *set);

#endif
