/* perf_memo: what each distinct frame text (the caller's key, in two
 * parts) came to, so a frame seen again is not tidied again: a hash from
 * the text to a small verdict and a frame id.  Grows with the distinct texts, up to a
 * bound past which new texts are simply not remembered. */
#ifndef FLAME_PERF_MEMO_H
#define FLAME_PERF_MEMO_H

#include <stddef.h>
#include <stdint.h>

struct perf_memo;

/* What a text came to (the caller's codes). */
struct perf_memo_val {
	uint32_t frame;		/* frame id, when how says there is one */
	uint32_t how;		/* the caller's verdict */
};

/* Returns an empty memo.  Free with perf_memo_free. */
struct perf_memo *perf_memo_new(void);

/* Frees m.  perf_memo_free(NULL) does nothing. */
void perf_memo_free(struct perf_memo *m);

/* The hash of a text in two parts (a, alen) and (b, blen), to pass to
 * the calls below: a text is its two parts, both compared. */
uint64_t perf_memo_hash(const char *a, size_t alen, const char *b, size_t blen);

/* What the text a, b (hash h) came to, or NULL when it is not
 * remembered; valid until the next perf_memo_put. */
const struct perf_memo_val *perf_memo_get(struct perf_memo *m, const char *a, size_t alen,
					  const char *b, size_t blen, uint64_t h);

/* Remembers v for the text a, b (absent: perf_memo_get gave NULL), in the
 * big table unless it is full or the text too long. */
void perf_memo_put(struct perf_memo *m, const char *a, size_t alen, const char *b, size_t blen,
		   uint64_t h, const struct perf_memo_val *v);

/* The hash of a whole frame line (n bytes at s), for the two calls below. */
uint64_t perf_memo_line_hash(const char *s, size_t n);

/* Asks for the slot of the line of hash h to be brought into the cache,
 * a while before perf_memo_line_get looks there. */
void perf_memo_line_fetch(const struct perf_memo *m, uint64_t h);

/* What the line s (hash h) came to when it was seen lately, or NULL;
 * valid until the next perf_memo_line_put. */
const struct perf_memo_val *perf_memo_line_get(const struct perf_memo *m, const char *s, size_t n,
					       uint64_t h);

/* Remembers v for the line s (hash h) a while, unless it is long.  The
 * caller puts only what the line alone decides. */
void perf_memo_line_put(struct perf_memo *m, const char *s, size_t n, uint64_t h,
			const struct perf_memo_val *v);

#endif
