/* pprof_build: a location's frames are ids in a pool, copied into the
 * set for each key that names it; its record is found by id when the ids
 * are dense (nearly always), else through pprof_loc. */
#include "pprof_build.h"
#include "pprof_kset.h"
#include "pprof_set.h"
#include "pprof_stack.h"
#include "pbuf.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A location's frames, once built. */
struct lrec {
	uint32_t a;		/* its frames' place in pool; not built:
				   its index in p->loc + 1 */
	uint32_t cnt;		/* how many (0: not built, or with a 0 no such
				   location) */
	uint32_t tlen;		/* their text's bytes (PPROF_MAX_STACK + 1: more) */
};

/* A function's frame, once named. */
struct fname {
	uint32_t id;		/* its frame, UINT32_MAX: not yet */
	size_t len;		/* its name's length */
};

/* Turning keys into stacks. */
struct pprof_build {
	const struct pprof_prof *p;	/* the profile */
	struct pprof_set *set;		/* where the stacks go */
	size_t type;			/* the value type drawn */
	struct lrec *rec;		/* each location's frames: by id when
					   direct, else by index in p->loc
					   (all built first, in order, unless
					   lazy) */
	size_t nrec;			/* how many */
	int direct;			/* ids run from 1 with few gaps (as
					   nearly always): rec by id, no search */
	int lazy;			/* few keys: locations built as met */
	uint32_t *pool;			/* the locations' frames */
	size_t npool, poolcap;		/* ids used, room */
	struct fname *fname;		/* each function's frame, by index */
	const struct lrec **locs;	/* a key's locations' records */
	size_t lcap;			/* room */
	char *name;			/* a name being tidied */
	size_t ncap;			/* room */
	uint64_t used, budget;		/* bytes as pprof_stack counts them; its limit */
	int bad;			/* a key pprof_stack would not take */
};

/* The frame of name (n bytes), tidied as pprof_stack tidies it. */
static uint32_t name_id(struct pprof_build *r, const char *s, size_t n)
{
	xgrow(&r->name, &r->ncap, n + 1, 1);
	pprof_tidy_name(r->name, s, n);
	return pprof_set_name(r->set, r->name, n);
}

/* Location l's frame when no function names it (pprof_where); its
 * length in *n. */
static uint32_t where_id(struct pprof_build *r, const struct pprof_loc *l, size_t *n)
{
	struct pprof_where w;

	pprof_where(r->p, l, &w);
	*n = w.n + 2 * (size_t)w.bracket;
	xgrow(&r->name, &r->ncap, *n + 1, 1);
	if (w.bracket) {
		r->name[0] = '[';
		memcpy(r->name + 1, w.s, w.n);
		r->name[*n - 1] = ']';
	} else
		memcpy(r->name, w.s, w.n);
	/* name_id tidies in place: the copy is its own source. */
	return name_id(r, r->name, *n);
}

/* Function fn's frame (its name, else its system name), named once;
 * the name's length in *n. */
static uint32_t func_id(struct pprof_build *r, const struct pprof_func *fn, size_t *n)
{
	struct fname *e = &r->fname[fn - r->p->fn];
	const char *s;

	if (e->id != UINT32_MAX) {
		*n = e->len;
		return e->id;
	}
	s = pprof_str(r->p, fn->name, n);
	if (!*n)
		s = pprof_str(r->p, fn->sysname, n);
	e->id = name_id(r, s, *n);
	e->len = *n;
	return e->id;
}

/* Location l's frames into e, root first (its last line first). */
static void build_loc(struct pprof_build *r, const struct pprof_loc *l, struct lrec *e)
{
	const struct pprof_func *fn;
	size_t i, n, first = r->npool;
	uint64_t len = 0;
	uint32_t id;

	for (i = l->nlines + !l->nlines; i-- > 0;) {
		fn = l->nlines ? pprof_func(r->p, r->p->line_fn[l->line0 + i]) : NULL;
		if (!fn)
			id = where_id(r, l, &n);
		else
			id = func_id(r, fn, &n);
		if (r->npool + PPROF_SET_SLACK >= r->poolcap)
			xgrow(&r->pool, &r->poolcap, r->npool + 1 + PPROF_SET_SLACK,
			      sizeof(*r->pool));
		r->pool[r->npool++] = id;
		len += n + (r->npool - first > 1);
	}
	/* key_stack copies PPROF_SET_SLACK ids from a location's first:
	 * those past the last location's are there and set. */
	memset(r->pool + r->npool, 0, PPROF_SET_SLACK * sizeof(*r->pool));
	e->cnt = (uint32_t)(r->npool - first);
	e->a = (uint32_t)first;
	e->tlen = len > PPROF_MAX_STACK ? (uint32_t)PPROF_MAX_STACK + 1 : (uint32_t)len;
	/* Every location is counted, used or not: more than pprof_stack
	 * counts, so a profile it would stop is not taken here either (a
	 * lazy one's were counted by loc_len). */
	if (!r->lazy)
		r->used += len;
}

/* Location l's text's bytes as build_loc makes it, its frames not
 * named. */
static uint64_t loc_len(const struct pprof_build *r, const struct pprof_loc *l)
{
	const struct pprof_func *fn;
	struct pprof_where w;
	size_t i, n, k = l->nlines + !l->nlines;
	uint64_t len = k - 1;

	for (i = 0; i < k; i++) {
		fn = l->nlines ? pprof_func(r->p, r->p->line_fn[l->line0 + i]) : NULL;
		if (fn && (pprof_str(r->p, fn->name, &n), !n))
			pprof_str(r->p, fn->sysname, &n);
		if (!fn) {
			pprof_where(r->p, l, &w);
			n = w.n + 2 * (size_t)w.bracket;
		}
		len += n;
	}
	return len;
}

/* The frames of location id, built when not yet; NULL for an id not in
 * the profile, or frames too many to number. */
static const struct lrec *loc_of(struct pprof_build *r, uint64_t id)
{
	const struct pprof_loc *l;
	struct lrec *e;

	if (r->direct)
		e = id < r->nrec ? &r->rec[id] : NULL;
	else
		e = (l = pprof_loc(r->p, id)) ? &r->rec[l - r->p->loc] : NULL;
	if (e && e->cnt)
		return e;
	if (!e || !e->a || r->npool >= UINT32_MAX - 1)
		return NULL;
	build_loc(r, &r->p->loc[e->a - 1], e);
	return e;
}

/* Location id (of the key being made a stack) appended to r->locs
 * (*n so far, room made), its frames added to *len and its text's
 * bytes and a ';' to *slen.  Returns 0, or -1 for an id not in the
 * profile or a stack past PPROF_MAX_STACK.  Inline when the ids are
 * dense and the location built (nearly every one): no call of loc_of. */
static inline int add_loc(struct pprof_build *r, uint64_t id, size_t *n, size_t *len, size_t *slen)
{
	const struct lrec *e = r->direct && id < r->nrec && r->rec[id].cnt ? &r->rec[id]
									   : loc_of(r, id);

	if (!e || (*slen += e->tlen + 1) > PPROF_MAX_STACK)
		return -1;
	r->locs[(*n)++] = e;
	*len += e->cnt;
	return 0;
}

/* The locations of key (klen bytes: field 1 entries, packed runs or
 * single varints) into r->locs, each looked up as its id is read; their
 * frames' count in *len, their text's bytes (and a ';' each) in *slen.
 * Returns how many, 0 when the key cannot be read, names a location not
 * in the profile or makes a stack past PPROF_MAX_STACK.  Packed ids are
 * read as pb_varint8 reads them (a loop over each one's bytes was
 * mispredicted a quarter of the ids: they are of 2 and 3 bytes alike),
 * a longer one, or one that would end past its run, the long way; that
 * reads 8 bytes from each id on: kset keys have room past them. */
static size_t key_locs(struct pprof_build *r, const unsigned char *key, size_t klen, size_t *len,
		       size_t *slen)
{
	size_t i = 0, n = 0, end, m;
	uint64_t id;

	*len = *slen = 0;
	/* A varint is at least a byte: klen of them at most. */
	if (klen > r->lcap)
		xgrow(&r->locs, &r->lcap, klen, sizeof(*r->locs));
	while (i < klen) {
		if (key[i++] == 0x08) {
			if (pb_short_varint(key, &i, klen, &id) < 0 || add_loc(r, id, &n, len, slen) < 0)
				return 0;
			continue;
		}
		if (key[i - 1] != 0x0a || pb_short_length(key, &i, klen, &end) < 0)
			return 0;
		for (end += i; i < end;) {
			if ((m = pb_varint8(key + i, &id)) != 0 && m <= end - i)
				i += m;
			else if (pb_short_varint(key, &i, end, &id) < 0)
				return 0;
			if (add_loc(r, id, &n, len, slen) < 0)
				return 0;
		}
	}
	return n;
}

/* The stack of key (klen bytes) weighing c into the set, or r->bad:
 * its locations looked up (and its length checked) first, then their
 * frames copied into the set's room. */
static void key_stack(struct pprof_build *r, const unsigned char *key, size_t klen, uint64_t c)
{
	size_t slen, len, n = key_locs(r, key, klen, &len, &slen), j;
	const struct lrec *e;
	uint32_t *d;

	if (!n) {
		r->bad = 1;
		return;
	}
	r->used += slen - 1;
	d = pprof_set_grow(r->set, len);
	while (n-- > 0) {
		e = r->locs[n];
		/* A few frames (nearly always) as one copy of a fixed size,
		 * into the slack past the room when they are the last: no
		 * branch on how many. */
		if (e->cnt <= PPROF_SET_SLACK)
			memcpy(d, r->pool + e->a, PPROF_SET_SLACK * sizeof(*d));
		else
			for (j = 0; j < e->cnt; j++)
				d[j] = r->pool[e->a + j];
		d += e->cnt;
	}
	pprof_set_end(r->set, c);
}

/* Builds r's location records, by id when the ids are dense, in the
 * order of the locations (their lines are read in order).  Returns -1
 * when the frames are too many to number or two locations share an id. */
static int res_init(struct pprof_build *r, const struct pprof_prof *p)
{
	size_t i, n;

	r->p = p;
	r->nrec = p->nloc;
	if (p->nloc && p->loc[p->nloc - 1].id < (uint64_t)p->nloc * 2 + 1024) {
		r->direct = 1;
		r->nrec = (size_t)p->loc[p->nloc - 1].id + 1;
	}
	if (!r->lazy)
		pprof_set_reserve(r->set, p->nfn);
	r->rec = xcalloc(r->nrec + 1, sizeof(*r->rec));
	r->fname = xmalloc((p->nfn + 1) * sizeof(*r->fname));
	for (i = 0; i < p->nfn; i++)
		r->fname[i].id = UINT32_MAX;
	/* Every location built: the functions named in their order (and
	 * their names' in the string table), not the locations'. */
	for (i = 0; !r->lazy && i < p->nfn; i++)
		func_id(r, &p->fn[i], &n);
	for (i = 0; i < p->nloc; i++) {
		struct lrec *e = &r->rec[r->direct ? p->loc[i].id : i];

		/* Two locations of one id: which pprof_loc finds is its own
		 * affair. */
		if ((i && p->loc[i].id == p->loc[i - 1].id) || r->npool >= UINT32_MAX - 1)
			return -1;
		if (!r->lazy)
			build_loc(r, &p->loc[i], e);
		else {
			e->a = (uint32_t)(i + 1);
			r->used += loc_len(r, &p->loc[i]);
		}
	}
	/* pprof_stack's limit on the stacks' bytes (see there). */
	r->budget = (uint64_t)p->len * 256 + ((uint64_t)64 << 20);
	return 0;
}

/* The stacks of count keys of seen from *pos on (SIZE_MAX: to the end)
 * into r's set, or r->bad; returns their weights' total. */
static uint64_t key_stacks(struct pprof_build *r, const struct pprof_kset *seen, size_t pos,
			   size_t count)
{
	const unsigned char *key;
	const uint64_t *sums;
	uint64_t total = 0;
	size_t klen;

	while (count-- > 0 && !r->bad && pprof_kset_next(seen, &pos, &key, &klen, &sums)) {
		/* Weights passing 2^64 together go on in floating point,
		 * where the order of the adds shows in the last digits: such
		 * a profile is read sample by sample (pprof_stack), in the
		 * order its figures are defined by. */
		if ((r->bad = total + sums[r->type] < total))
			break;
		total += sums[r->type];
		if (sums[r->type])
			key_stack(r, key, klen, sums[r->type]);
	}
	return total;
}

/* The keys from the middle on, turned into stacks on a thread of their
 * own: a copy of the caller's res (its records and frames only read, all
 * built before) with buffers and a set of its own. */
struct half {
	struct pprof_build r;			/* the copy */
	const struct pprof_kset *seen;	/* the keys */
	size_t skip;			/* the caller's, before the middle */
	uint64_t total;			/* the weights of the stacks made */
};

static void *second_half(void *arg)
{
	struct half *h = arg;
	const unsigned char *key;
	const uint64_t *sums;
	size_t pos = 0, klen;

	while (h->skip-- > 0)
		pprof_kset_next(h->seen, &pos, &key, &klen, &sums);
	h->total = key_stacks(&h->r, h->seen, pos, SIZE_MAX);
	return NULL;
}

/* Keys from this many on are made stacks on two threads (when read on
 * more than one: their locations are all built first then). */
#define HALVES 8192

/* Every key of seen made a stack in r->set, the second half on another
 * thread when par is set, there are many and r->lazy is not set; r->bad
 * as key_stacks. */
static void all_stacks(struct pprof_build *r, const struct pprof_kset *seen, int par)
{
	struct half h = { 0 };
	pthread_t th;
	size_t n = pprof_kset_count(seen);
	uint64_t total;

	if (!par || r->lazy || n < HALVES)
		return (void)key_stacks(r, seen, 0, SIZE_MAX);
	h.r = *r;
	h.r.locs = NULL, h.r.lcap = 0;
	h.r.name = NULL, h.r.ncap = 0, h.r.used = 0;
	h.r.set = pprof_set_new();
	h.seen = seen;
	h.skip = n / 2;
	if (pthread_create(&th, NULL, second_half, &h) != 0) {
		pprof_set_free(h.r.set);
		return (void)key_stacks(r, seen, 0, SIZE_MAX);
	}
	total = key_stacks(r, seen, 0, n / 2);
	pthread_join(th, NULL);
	r->bad |= h.r.bad || total + h.total < total;
	r->used += h.r.used;
	pprof_set_take(r->set, h.r.set);
	pprof_set_free(h.r.set);
	free(h.r.locs), free(h.r.name);
}

struct pprof_build *pprof_build_new(const struct pprof_prof *p, struct pprof_set *set,
				    size_t type, int lazy)
{
	struct pprof_build *b = xcalloc(1, sizeof(*b));

	b->set = set;
	b->type = type;
	b->lazy = lazy;
	if (res_init(b, p) < 0) {
		pprof_build_free(b);
		return NULL;
	}
	return b;
}

int pprof_build_stacks(struct pprof_build *b, const struct pprof_kset *seen, int par)
{
	all_stacks(b, seen, par);
	return b->bad || b->used > b->budget ? -1 : 0;
}

void pprof_build_free(struct pprof_build *b)
{
	if (!b)
		return;
	free(b->rec), free(b->pool), free(b->fname);
	free(b->locs), free(b->name);
	free(b);
}
