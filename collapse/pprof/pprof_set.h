/* pprof_set: stackcollapse-pprof's stacks as arrays of frame ids, each
 * frame name interned once, gathered from every input and written
 * sorted as collapsed stacks: no stack is spelled out as a string,
 * interned and sorted as text.  Stacks that are the same (two keys of a
 * profile naming the same frames, or two inputs) are summed as they are
 * written. */
#ifndef FLAME_PPROF_SET_H
#define FLAME_PPROF_SET_H

#include <stddef.h>
#include <stdint.h>

struct strtab;
struct pprof_set;

/* An empty set; free with pprof_set_free (NULL: does nothing). */
struct pprof_set *pprof_set_new(void);
void pprof_set_free(struct pprof_set *s);

/* With threads above 1, a large set is written (pprof_set_save) on two
 * threads; the bytes are the same. */
void pprof_set_threads(struct pprof_set *s, int threads);

/* Readies s for about n more frame names (no more than a hint). */
void pprof_set_reserve(struct pprof_set *s, size_t n);

/* Readies s for about this many more stacks and frames (no more than a
 * hint): room made at once, not grown by doubling, each doubling below
 * the size xbig maps copying what came before. */
void pprof_set_room(struct pprof_set *s, size_t stacks, size_t frames);

/* The id of the frame called name (len bytes, no ';': collapsed stacks
 * split there, so ranks of whole names sort the stacks), added when new. */
uint32_t pprof_set_name(struct pprof_set *s, const char *name, size_t len);

/* Ids that may be written past the room pprof_set_add gives (what the
 * next call's room will be): a copy of a fixed size may overrun. */
#define PPROF_SET_SLACK 4

/* Adds a stack of n frames weighing c; returns the room for its frame
 * ids (leaf first: the order a profile lists them), to be filled before
 * the next call, and PPROF_SET_SLACK more after it that may be written
 * over.  One call a stack, not one to grow and one to end it. */
uint32_t *pprof_set_add(struct pprof_set *s, size_t n, uint64_t c);

/* The room the next pprof_set_add of up to max frames returns (it does
 * not move till then), with PPROF_SET_SLACK more after: frames can be
 * written there before their number is known. */
uint32_t *pprof_set_next(struct pprof_set *s, size_t max);

/* Moves every stack of src (of frames named in dst: src's own names are
 * not looked at) to the end of dst, leaving src with none. */
void pprof_set_take(struct pprof_set *dst, struct pprof_set *src);

/* How many stacks there are; pprof_set_undo(s, mark) forgets those
 * added (and their frames) since. */
size_t pprof_set_mark(const struct pprof_set *s);
void pprof_set_undo(struct pprof_set *s, size_t mark);

/* Adds every stack of the set, spelled "frame;frame", to t (values:
 * struct fcount), summing those t holds. */
void pprof_set_spell(const struct pprof_set *s, struct strtab *t);

struct stack_sink;

/* Hands the stacks to sink (stacksink.h): every frame named, then the
 * stacks sorted bytewise, the same ones summed.  Returns 0, or -1 with
 * nothing handed when the weights together pass 2^64 (the sums might
 * not fit sink's counts): pprof_set_spell them into a table then. */
int pprof_set_emit(struct pprof_set *s, const struct stack_sink *sink);

/* Writes the stacks sorted bytewise, as folded_save does, to path (NULL
 * or "-": stdout).  When t (values: struct fcount) holds stacks too, or
 * the weights together pass 2^64 (so sums of equal stacks might not fit
 * a uint64_t), the set's are added to it and t is written with
 * folded_save.  Returns 0,
 * or -1 with a message in err. */
int pprof_set_save(struct pprof_set *s, struct strtab *t, const char *path, char *err,
		   size_t errlen);

#endif
