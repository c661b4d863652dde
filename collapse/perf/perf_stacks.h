/* perf_stacks: the perf collapser's stacks as arrays of frame ids.  Frame
 * names are interned once into ids; an event's stack is its ids, root
 * first, found in an index of the stacks seen by one hash of the ids and
 * one compare of them (a few bytes per frame, not its name), and each
 * distinct stack carries a struct fcount.  No stack is spelled out as a
 * string until the end.  Memory follows the distinct frames and stacks,
 * not the input. */
#ifndef FLAME_PERF_STACKS_H
#define FLAME_PERF_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "folded.h"

struct strtab;
struct perf_stacks;

/* Returns an empty set.  Free with perf_stacks_free. */
struct perf_stacks *perf_stacks_new(void);

/* With threads above 1, sorting and writing a large set use a second
 * thread (the output is the same).  A new set uses one. */
void perf_stacks_threads(struct perf_stacks *t, int threads);

/* Frees t.  perf_stacks_free(NULL) does nothing. */
void perf_stacks_free(struct perf_stacks *t);

/* The id of the frame name (len bytes, any bytes but ';': the caller
 * splits a name there, else perf_stacks_save would not sort bytewise),
 * added when new. */
uint32_t perf_stacks_frame(struct perf_stacks *t, const char *name, size_t len);

/* The name of frame id (the set's copy, valid until perf_stacks_free). */
const char *perf_stacks_frame_name(const struct perf_stacks *t, uint32_t id, size_t *len);

/* Adds c to the count of the stack of n frame ids (root first, n > 0). */
void perf_stacks_add(struct perf_stacks *t, const uint32_t *frames, size_t n,
		     const struct fcount *c);

/* Moves the stacks of from into t, summing the counts of stacks both
 * hold; from is left with no stacks (its names stay).  When t holds no
 * name yet, the two tables are swapped instead: from then holds no names
 * either, so ids handed out from it before are no longer valid. */
void perf_stacks_absorb(struct perf_stacks *t, struct perf_stacks *from);

/* Adds every stack of t, its frames joined root first with ';', to out
 * (values: struct fcount), then forgets the stacks, so flushing again
 * adds only what came since. */
void perf_stacks_flush(struct perf_stacks *t, struct strtab *out);

/* perf_stacks_flush into a sink instead of a table: every frame named,
 * then every stack, in the order flush adds them; no stack spelled out. */
struct stack_sink;
void perf_stacks_emit(struct perf_stacks *t, const struct stack_sink *sink);

/* Writes the stacks as folded lines ("frames count"), sorted bytewise as
 * folded_save sorts a table, to path (NULL or "-": stdout).  Returns 0,
 * or -1 with a message in err when it cannot be written. */
int perf_stacks_save(struct perf_stacks *t, const char *path, char *err, size_t errlen);

#endif
