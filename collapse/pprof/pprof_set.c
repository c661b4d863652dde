/* pprof_set: stacks as frame ids.  Sorting bytewise needs no text: a
 * stack's bytes are a list of keys, each frame's name followed by ';' or,
 * for the last frame, by the end (which sorts before any byte).  Names
 * hold no ';', so no key begins another, and stacks sort as the lists of
 * their keys' ranks: the keys (two per name) are ranked once, then
 * stacks are compared by ids while they agree and by the ranks of the
 * first keys that differ. */
#include "pprof_set.h"
#include "fnames.h"
#include "folded.h"
#include "outfile.h"
#include "strtab.h"
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stk {
	size_t off;		/* its first frame in the pool */
	size_t n;		/* how many frames */
	uint64_t c;		/* its weight */
};

struct pprof_set {
	struct fnames fn;	/* frame names; the id is the index */
	uint32_t *pool;		/* every stack's frames, end to end */
	size_t npool, poolcap;	/* ids used, room */
	size_t open;		/* where the stack being added begins */
	struct stk *stk;	/* the stacks */
	size_t nstk, stkcap;	/* how many, room */
};

/* A stack in the sort.  pre holds the ranks (+ 1, 0 past its end) of
 * its first keys, packed from the top bits down, so most compares need
 * no more than pre. */
struct skey {
	uint64_t pre[2];	/* the ranks of its first 2 * per keys */
	const uint32_t *id;	/* its frames */
	size_t n;		/* how many */
	uint64_t c;		/* its weight */
};

/* The packing of ranks into pre. */
struct pack {
	const uint32_t *rank;	/* key ranks */
	unsigned bits;		/* bits per rank */
	size_t per;		/* ranks per word of pre */
};

/* Output is formatted into a buffer of about this size, then written. */
#define OUTBUF ((size_t)1 << 20)

struct pprof_set *pprof_set_new(void)
{
	struct pprof_set *s = xcalloc(1, sizeof(*s));

	fnames_init(&s->fn, 4096);
	return s;
}

void pprof_set_free(struct pprof_set *s)
{
	if (!s)
		return;
	fnames_release(&s->fn);
	free(s->pool);
	free(s->stk);
	free(s);
}

uint32_t pprof_set_name(struct pprof_set *s, const char *name, size_t len)
{
	return fnames_id(&s->fn, name, len);
}

uint32_t *pprof_set_grow(struct pprof_set *s, size_t n)
{
	xgrow(&s->pool, &s->poolcap, s->npool + n, sizeof(*s->pool));
	s->npool += n;
	return s->pool + s->npool - n;
}

void pprof_set_end(struct pprof_set *s, uint64_t c)
{
	xgrow(&s->stk, &s->stkcap, s->nstk + 1, sizeof(*s->stk));
	s->stk[s->nstk].off = s->open;
	s->stk[s->nstk].n = s->npool - s->open;
	s->stk[s->nstk++].c = c;
	s->open = s->npool;
}

size_t pprof_set_mark(const struct pprof_set *s)
{
	return s->nstk;
}

void pprof_set_undo(struct pprof_set *s, size_t mark)
{
	if (mark < s->nstk)
		s->npool = s->stk[mark].off;
	else if (mark > s->nstk)
		return;
	s->nstk = mark;
	s->open = s->npool;
}

/* Key k: name k / 2 followed by ';' (k even) or by the end (k odd). */
static int key_cmp(const struct fnames *f, uint32_t a, uint32_t b)
{
	const char *x = f->name[a / 2], *y = f->name[b / 2];
	size_t nx = f->len[a / 2], ny = f->len[b / 2], n = nx < ny ? nx : ny;
	int r = n ? memcmp(x, y, n) : 0, cx, cy;

	if (r || a == b)
		return r;
	cx = nx > n ? (unsigned char)x[n] : a % 2 ? -1 : ';';
	cy = ny > n ? (unsigned char)y[n] : b % 2 ? -1 : ';';
	return (cx > cy) - (cx < cy);
}

static void key_sort(const struct fnames *f, uint32_t *v, uint32_t *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	key_sort(f, v, tmp, h);
	key_sort(f, v + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = key_cmp(f, v[j], v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	memcpy(v, tmp, k * sizeof(*v));
}

/* rank[k]: where key k is among all keys; the caller frees it. */
static uint32_t *key_ranks(const struct fnames *f)
{
	size_t nk = fnames_count(f) * 2, i;
	uint32_t *v = xmalloc((nk + 1) * sizeof(*v)), *rank = xmalloc((nk + 1) * sizeof(*rank));

	for (i = 0; i < nk; i++)
		v[i] = (uint32_t)i;
	key_sort(f, v, rank, nk);
	for (i = 0; i < nk; i++)
		rank[v[i]] = (uint32_t)i;
	free(v);
	return rank;
}

/* Stacks in bytewise order of their text; 0 only for the same frames. */
static int stk_cmp(const struct pack *pk, const struct skey *a, const struct skey *b)
{
	size_t n = a->n < b->n ? a->n : b->n, k = 2 * pk->per;
	uint32_t ra, rb;

	if (a->pre[0] != b->pre[0])
		return a->pre[0] < b->pre[0] ? -1 : 1;
	if (a->pre[1] != b->pre[1])
		return a->pre[1] < b->pre[1] ? -1 : 1;
	/* The same first keys: the same stack when one ends among them,
	 * else both go on. */
	if (n <= k)
		return 0;
	while (k + 1 < n && a->id[k] == b->id[k])
		k++;
	ra = pk->rank[a->id[k] * 2 + (k + 1 == a->n)];
	rb = pk->rank[b->id[k] * 2 + (k + 1 == b->n)];
	return (ra > rb) - (ra < rb);
}

static void stk_sort(const struct pack *pk, struct skey *v, struct skey *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	stk_sort(pk, v, tmp, h);
	stk_sort(pk, v + h, tmp, n - h);
	if (stk_cmp(pk, &v[h - 1], &v[h]) <= 0)
		return;
	while (i < h && j < n)
		tmp[k++] = stk_cmp(pk, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	memcpy(v, tmp, k * sizeof(*v));
}

/* Stack i of s as a key of the sort. */
static void skey_of(const struct pprof_set *s, const struct pack *pk, size_t i, struct skey *k)
{
	size_t j, w;

	k->id = s->pool + s->stk[i].off;
	k->n = s->stk[i].n;
	k->c = s->stk[i].c;
	for (w = 0; w < 2; w++) {
		k->pre[w] = 0;
		for (j = w * pk->per; j < (w + 1) * pk->per; j++) {
			uint64_t r = j < k->n ? pk->rank[k->id[j] * 2 + (j + 1 == k->n)] + (uint64_t)1 : 0;

			k->pre[w] = k->pre[w] << pk->bits | r;
		}
	}
}

/* The stacks in output order, the same ones merged into one (weights
 * summed as the table would); their number in *n.  The caller frees. */
static struct skey *sorted(const struct pprof_set *s, size_t *n)
{
	struct skey *v = xmalloc((s->nstk + 1) * sizeof(*v)), *tmp;
	struct pack pk;
	size_t i, k = 0, nk = fnames_count(&s->fn) * 2;

	pk.rank = key_ranks(&s->fn);
	for (pk.bits = 1; pk.bits < 32 && ((uint64_t)1 << pk.bits) <= nk; pk.bits++)
		;
	pk.per = 64 / pk.bits;
	for (i = 0; i < s->nstk; i++)
		skey_of(s, &pk, i, &v[i]);
	tmp = xmalloc((s->nstk + 1) * sizeof(*tmp));
	stk_sort(&pk, v, tmp, s->nstk);
	free(tmp);
	free((void *)(uintptr_t)pk.rank);
	for (i = 0; i < s->nstk; i++) {
		if (k && v[k - 1].n == v[i].n &&
		    memcmp(v[k - 1].id, v[i].id, v[i].n * sizeof(*v[i].id)) == 0)
			v[k - 1].c += v[i].c;
		else
			v[k++] = v[i];
	}
	*n = k;
	return v;
}

/* c in decimal at o (room for 20 digits); returns the end. */
static char *put_u64(char *o, uint64_t c)
{
	char d[24];
	size_t n = 0;

	do
		d[n++] = (char)('0' + c % 10);
	while ((c /= 10) != 0);
	while (n)
		*o++ = d[--n];
	return o;
}

/* The line of stack k at o (room enough); returns its end. */
static char *put_line(const struct fnames *f, const struct skey *k, char *o)
{
	size_t j;

	for (j = 0; j < k->n; j++) {
		uint32_t id = k->id[j];

		if (j)
			*o++ = ';';
		memcpy(o, f->name[id], f->len[id]);
		o += f->len[id];
	}
	*o++ = ' ';
	o = put_u64(o, k->c);
	*o++ = '\n';
	return o;
}

/* Writes the n stacks v as lines to out, a buffer at a time. */
static void write_lines(const struct pprof_set *s, const struct skey *v, size_t n, FILE *out)
{
	size_t cap = OUTBUF, len = 0, i, j, need;
	char *buf = xmalloc(cap);

	for (i = 0; i < n; i++) {
		need = v[i].n + 24;
		for (j = 0; j < v[i].n; j++)
			need += s->fn.len[v[i].id[j]];
		if (cap - len < need && len) {
			fwrite(buf, 1, len, out);
			len = 0;
		}
		if (cap < need)
			xgrow(&buf, &cap, need, 1);
		len = (size_t)(put_line(&s->fn, &v[i], buf + len) - buf);
	}
	if (len)
		fwrite(buf, 1, len, out);
	free(buf);
}

/* Adds the set's stacks to t, spelled. */
static void spell(const struct pprof_set *s, struct strtab *t)
{
	char *buf = NULL;
	size_t cap = 0, i, j, len;

	for (i = 0; i < s->nstk; i++) {
		const uint32_t *id = s->pool + s->stk[i].off;
		struct fcount c = { s->stk[i].c, 0 };

		for (len = 0, j = 0; j < s->stk[i].n; j++) {
			if (j)
				xappend(&buf, &len, &cap, ";", 1);
			xappend(&buf, &len, &cap, s->fn.name[id[j]], s->fn.len[id[j]]);
		}
		fcount_add(strtab_val(t, strtab_intern(t, buf ? buf : "", len, NULL)), &c);
	}
	free(buf);
}

int pprof_set_save(struct pprof_set *s, struct strtab *t, const char *path, char *err,
		   size_t errlen)
{
	struct outfile *o;
	struct skey *v;
	size_t n;

	if (strtab_count(t)) {
		spell(s, t);
		return folded_save(t, path, err, errlen);
	}
	if (!(o = outfile_open(path))) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	v = sorted(s, &n);
	write_lines(s, v, n, outfile_stream(o));
	free(v);
	if (outfile_commit(o) < 0) {
		snprintf(err, errlen, "write error on '%s': %s", path ? path : "<stdout>", strerror(errno));
		return -1;
	}
	return 0;
}
