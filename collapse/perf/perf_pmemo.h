/* perf_pmemo: what each frame a reader of binary recordings handed over
 * came to, keyed by where its texts lie rather than by the texts: the
 * perf.data reader interns every symbol and file name once, so the
 * addresses of the two texts (and their lengths) name the frame, and a
 * frame seen before costs one probe of a few words instead of a hash of
 * its text.  Only sound while the texts stay unchanged at those
 * addresses: the caller empties the memo before they may go. */
#ifndef FLAME_PERF_PMEMO_H
#define FLAME_PERF_PMEMO_H

#include "perf_memo.h"	/* struct perf_memo_val: what a frame came to */

#include <stddef.h>
#include <stdint.h>

struct perf_pmemo;

/* Returns an empty memo.  Free with perf_pmemo_free. */
struct perf_pmemo *perf_pmemo_new(void);

/* Frees m.  perf_pmemo_free(NULL) does nothing. */
void perf_pmemo_free(struct perf_pmemo *m);

/* Forgets everything m holds (the texts it was keyed by may go). */
void perf_pmemo_clear(struct perf_pmemo *m);

/* What the frame of the texts at a (alen bytes) and b (blen bytes) came
 * to under flag (the caller's: any small number that changes the
 * verdict), or NULL when it is not remembered; valid until the next
 * perf_pmemo_put or perf_pmemo_clear. */
const struct perf_memo_val *perf_pmemo_get(const struct perf_pmemo *m, const char *a,
					    size_t alen, const char *b, size_t blen,
					    unsigned flag);

/* Remembers v for that frame (absent: perf_pmemo_get gave NULL).  The
 * texts are not copied: they must stay, unchanged, until the memo is
 * cleared or freed. */
void perf_pmemo_put(struct perf_pmemo *m, const char *a, size_t alen, const char *b, size_t blen,
		    unsigned flag, const struct perf_memo_val *v);

#endif
