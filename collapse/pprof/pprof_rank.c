/* pprof_rank: the ranks of frame names' keys for pprof_set's sort, and
 * the radix sort of packed keys the names and pprof_keys sort by (see
 * pprof_rank.h). */
#include "pprof_rank.h"
#include "bytes.h"
#include "strsort.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Byte d (0: the highest) of rkey k's pre. */
#define BYTE(k, d) ((size_t)((k)->pre[(d) / 8] >> (56 - (d) % 8 * 8) & 0xff))

/* Below this many, keys are sorted by insertion, not by bytes. */
#define SMALL 32

static int rkey_less(const struct pprof_rkey *a, const struct pprof_rkey *b)
{
	return a->pre[0] != b->pre[0] ? a->pre[0] < b->pre[0] : a->pre[1] < b->pre[1];
}

static void insertion(struct pprof_rkey *v, size_t n)
{
	size_t i, j;
	struct pprof_rkey x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && rkey_less(&x, &v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* The first byte of pre at which the n keys of v differ (16: none). */
static unsigned first_diff(const struct pprof_rkey *v, size_t n)
{
	uint64_t x0 = 0, x1 = 0;
	size_t i;

	for (i = 1; i < n; i++) {
		x0 |= v[i].pre[0] ^ v[0].pre[0];
		x1 |= v[i].pre[1] ^ v[0].pre[1];
	}
	if (x0)
		return (unsigned)__builtin_clzll(x0) / 8;
	return x1 ? 8 + (unsigned)__builtin_clzll(x1) / 8 : 16;
}

void pprof_rkey_sort(struct pprof_rkey *v, struct pprof_rkey *tmp, size_t n)
{
	size_t cnt[256], i, at, c, b, lo = 255, hi = 0;
	unsigned d;

	if (n <= SMALL) {
		insertion(v, n);
		return;
	}
	if ((d = first_diff(v, n)) == 16)
		return;
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++) {
		cnt[b = BYTE(&v[i], d)]++;
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	/* Only the buckets from the lowest byte to the highest are walked:
	 * names' bytes keep to a few (digits, letters), and walking all 256
	 * twice was most of a small group's cost. */
	for (at = 0, i = lo; i <= hi; i++) {
		c = cnt[i];
		cnt[i] = at;
		at += c;
	}
	for (i = 0; i < n; i++)
		tmp[cnt[BYTE(&v[i], d)]++] = v[i];
	/* Back by a loop: memcpy's rep movsb of many keys is counted
	 * (callgrind) a byte at a time. */
	for (i = 0; i < n; i++)
		v[i] = tmp[i];
	/* cnt[i] is now where bucket i ends. */
	for (at = 0, i = lo; i <= hi; at = cnt[i++])
		if (cnt[i] - at > 1)
			pprof_rkey_sort(v + at, tmp, cnt[i] - at);
}

/* The 16 bytes of name id from byte d, big-endian, 0 past its end.  Read
 * as two words, the bytes past the end masked off: pprof_names keeps 16
 * and more readable after every name (a byte at a time into a zeroed
 * buffer took ten times the instructions). */
static void name_words(const struct pprof_names *f, uint32_t id, size_t d, uint64_t w[2])
{
	size_t len = f->len[id], k = d < len ? len - d : 0;

	w[0] = w[1] = 0;
	if (!k)
		return;
	w[0] = bytes_be64(f->name[id] + d);
	w[1] = bytes_be64(f->name[id] + d + 8);
	if (k < 8) {
		w[0] &= ~(~(uint64_t)0 >> (8 * k));
		w[1] = 0;
	} else if (k < 16)
		w[1] &= k > 8 ? ~(~(uint64_t)0 >> (8 * (k - 8))) : 0;
}

#if PPROF_NAMES_PAD < 16
#error "pprof_names keeps too few bytes after a name for name_words"
#endif

/* Names past this many bytes in common are sorted by strsort. */
#define NAME_DEEP 256

/* v[0..n) (names alike in their first end bytes, counting bytes past a
 * name's end as 0): those of at most end bytes are the others' starts,
 * so they go first, shorter first (two names are never the same), the
 * rest after them in their order; returns how many went first. */
static size_t ended_first(const struct pprof_names *f, struct pprof_rkey *v, size_t n, size_t end)
{
	size_t k = 0, i, j;
	struct pprof_rkey x;

	for (i = 0; i < n; i++) {
		if (f->len[v[i].i] > end)
			continue;
		for (x = v[i], j = i; j > k; j--)
			v[j] = v[j - 1];
		for (; j > 0 && f->len[v[j - 1].i] > f->len[x.i]; j--)
			v[j] = v[j - 1];
		v[j] = x;
		k++;
	}
	return k;
}

/* Sorts v (n names alike in their first d bytes, pre holding the 16
 * after) bytewise: by pre (radix), then each run alike there by the
 * bytes after.  Names share long starts (a package's path): 16 bytes at
 * a time, each read once, not at every compare. */
static void name_sort(const struct pprof_names *f, struct pprof_rkey *v, struct pprof_rkey *tmp, size_t n,
		      size_t d)
{
	struct strsort_key *k;
	size_t a, i, j, e;

	pprof_rkey_sort(v, tmp, n);
	for (a = 0; a < n; a = i) {
		for (i = a + 1; i < n && v[i].pre[0] == v[a].pre[0] && v[i].pre[1] == v[a].pre[1]; i++)
			;
		e = a + ended_first(f, v + a, i - a, d + 16);
		if (i - e < 2)
			continue;
		if (d + 16 < NAME_DEEP) {
			for (j = e; j < i; j++)
				name_words(f, (uint32_t)v[j].i, d + 16, v[j].pre);
			name_sort(f, v + e, tmp, i - e, d + 16);
			continue;
		}
		k = xmalloc((i - e) * sizeof(*k));
		for (j = e; j < i; j++) {
			k[j - e].s = f->name[v[j].i] + d + 16;
			k[j - e].len = f->len[v[j].i] - d - 16;
			k[j - e].id = (uint32_t)v[j].i;
		}
		strsort(k, i - e);
		for (j = e; j < i; j++)
			v[j].i = k[j - e].id;
		free(k);
	}
}

/* Whether name b goes on from name a with a byte below ';': a's key
 * "a;" then sorts after b's keys. */
static int goes_on_below(const struct pprof_names *f, uint32_t a, uint32_t b)
{
	size_t n = f->len[a];

	return f->len[b] > n && (unsigned char)f->name[b][n] < ';' &&
	       memcmp(f->name[a], f->name[b], n) == 0;
}

uint32_t *pprof_key_ranks(const struct pprof_names *f)
{
	size_t n = f->n, i, top = 0;
	struct pprof_rkey *v = xmalloc((2 * n + 1) * sizeof(*v));
	uint32_t *rank = xmalloc((2 * n + 1) * sizeof(*rank));
	uint32_t *wait = xmalloc((n + 1) * sizeof(*wait)), next = 1;

	for (i = 0; i < n; i++) {
		v[i].i = i;
		name_words(f, (uint32_t)i, 0, v[i].pre);
	}
	name_sort(f, v, v + n, n, 0);
	for (i = 0; i <= n; i++) {
		while (top && (i == n || !goes_on_below(f, wait[top - 1], (uint32_t)v[i].i)))
			rank[(size_t)wait[--top] * 2] = next++;
		if (i < n) {
			rank[v[i].i * 2 + 1] = next++;
			wait[top++] = (uint32_t)v[i].i;
		}
	}
	free(v);
	free(wait);
	return rank;
}
