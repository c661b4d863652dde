/* xalloc: the one allocation API.  Every function either succeeds or
 * prints "PROG: out of memory (N bytes)" to stderr and exits 1, so callers
 * never check for NULL. */
#ifndef FLAME_XALLOC_H
#define FLAME_XALLOC_H

#include <stddef.h>

/* Returns n bytes of uninitialised memory; the caller frees it. */
void *xmalloc(size_t n);

/* xmalloc for a big block filled soon after (an arena's chunk, a table):
 * aligned to 2 MB, so that where the system backs every process's memory
 * with transparent huge pages a block fills with one page fault per 2 MB
 * instead of one per 4 KB.  It does not ask for them itself
 * (MADV_HUGEPAGE): where the system gives them only on request, a fault
 * may then wait for memory to be compacted.  The caller frees it with
 * free(). */
void *xmalloc_big(size_t n);

/* A big array grown by doubling (an arena of records, say), its
 * contents kept: from 2 MB on, on Linux, a mapping of its own at a 2 MB
 * boundary, grown by moving its pages, not by copying its bytes into
 * fresh ones (each doubling of a 100 MB arena copied it, and the kernel
 * cleared twice the memory it ended with), and asked to be huge pages.
 * An array read at random then misses the TLB less; one filled in order
 * takes a fault per 2 MB, not per 4 KB: here (a virtual machine) 0.9 us
 * per 4 KB filled against 2.2-2.7 small, once the memory has been the
 * guest's before.  Memory the host backs only as first touched costs
 * more on huge pages (a first 145 MB: 177 ms against 100; 370 against
 * 185 in an earlier session), but that is paid once per machine, and a
 * run of pprof's 100k-stack profile on small pages took 4,600 faults
 * more and 5-7% longer.  Elsewhere, and while small, realloc's.  Start
 * with { NULL, 0 }. */
struct xbig {
	void *p;		/* the bytes */
	size_t n;		/* how many (0: none yet) */
};

/* Grows b to at least n bytes (doing nothing when it has them); the
 * bytes past its old size are not set. */
void xbig_grow(struct xbig *b, size_t n);

/* Grows b to hold at least n elements of elem bytes (exits when that
 * passes SIZE_MAX), as xbig_grow; returns its bytes, and in *cap (when
 * not NULL) how many elements they hold. */
void *xbig_hold(struct xbig *b, size_t n, size_t elem, size_t *cap);

/* Frees b's bytes; b is then empty.  A mapping's pages are kept for
 * the next xbig to start (xbig_trim gives them back). */
void xbig_free(struct xbig *b);

/* Gives back to the system the pages xbig_free kept. */
void xbig_trim(void);

/* Returns nmemb * size zeroed bytes; exits on overflow.  Caller frees. */
void *xcalloc(size_t nmemb, size_t size);

/* Resizes p to n bytes (p may be NULL).  Caller frees the result. */
void *xrealloc(void *p, size_t n);

/* Returns a NUL-terminated copy of the first len bytes of s.  Caller frees. */
char *xstrndup(const char *s, size_t len);

/* Grows the array *p of elements of size elem so it holds at least need
 * elements, doubling its capacity *cap; exits on size overflow.  Does
 * nothing when *cap >= need. */
void xgrow(void *p, size_t *cap, size_t need, size_t elem);

/* Appends n bytes of src to the buffer *buf of *len bytes and *cap room
 * (grown with xgrow, one byte more kept for a NUL). */
void xappend(char **buf, size_t *len, size_t *cap, const void *src, size_t n);

/* Reports running out of memory (n bytes wanted) and exits 1, for
 * allocations made elsewhere (open_memstream, a full id space). */
_Noreturn void xalloc_fail(size_t n);

#endif
