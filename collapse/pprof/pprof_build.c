/* pprof_build: a location's frames are ids in its record (a few) or in
 * a pool (more), copied into the set for each key that names it; its
 * record is found by id when the ids are dense (nearly always), else
 * through pprof_loc. */
#include "pprof_build.h"
#include "pprof_kset.h"
#include "pprof_set.h"
#include "pprof_stack.h"
#include "pbuf.h"
#include "xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Frames a location's record holds: a few, copied with no pool to look
 * in.  Three, so that a record is 16 bytes: those of the 60k locations
 * of the 100k-stack profile (1 MB) then stay in the cache next to the
 * stacks being made; with four (24 bytes) making the stacks waited on
 * them for half its time. */
#define LREC_FRAMES 3

/* A location's frames, once built. */
struct lrec {
	uint32_t ct;		/* its text's bytes and a ';' (PPROF_MAX_STACK
				   + 2: more) << 8 | how many frames: up to
				   LREC_FRAMES, LREC_POOL for more (their
				   count in f[1]), 0 not built (with f[0] 0:
				   no such location) */
	uint32_t f[LREC_FRAMES];	/* up to LREC_FRAMES of them, leaf
					   first, the rest 0; more: f[0] is
					   their place in pool; not built: f[0]
					   is its index in p->loc + 1 */
};

#define LREC_POOL (LREC_FRAMES + 1)

_Static_assert(sizeof(struct lrec) == 16, "a location's record is not 16 bytes");

/* How many frames record e has (0: not built). */
static inline size_t lrec_cnt(const struct lrec *e)
{
	size_t c = e->ct & 0xff;

	return c == LREC_POOL ? e->f[1] : c;
}

/* The bytes of record e's text and a ';'. */
static inline uint32_t lrec_tlen(const struct lrec *e)
{
	return e->ct >> 8;
}

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
	size_t nfast;			/* ids below this are read from rec
					   directly (nrec when direct, else 0) */
	int lazy;			/* few keys: locations built as met */
	uint32_t *pool;			/* the frames of the locations of more
					   than LREC_FRAMES */
	size_t npool, poolcap;		/* ids used, room */
	size_t maxl;			/* the most frames of a location */
	size_t maxk;			/* keys longer make stacks of more
					   frames than PPROF_MAX_STACK */
	struct fname *fname;		/* each function's frame, by index */
	char *name;			/* a name being tidied */
	size_t ncap;			/* room */
	uint64_t used, budget;		/* bytes as pprof_stack counts them; its limit */
	int bad;			/* a key pprof_stack would not take */
};

/* Whether name (n bytes) may hold a byte pprof_tidy_name changes: one
 * below 14 (tab, line ends, and some it leaves) or a ';'.  Eight bytes
 * at a time: names are seldom tidied, and copying each a byte at a time
 * to tidy it was half the naming. */
static int may_tidy(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t x, y, hit = 0;
	size_t i = 0;

	if (n < 8) {
		for (; i < n; i++)
			hit |= (unsigned char)s[i] < 14 || s[i] == ';' ? highs : 0;
		return hit != 0;
	}
	/* The last 8 bytes read last, over some read before. */
	for (;; i += 8) {
		memcpy(&x, s + (i + 8 <= n ? i : n - 8), 8);
		y = x ^ ones * ';';
		/* Bytes below 14, bytes that are ';' (zero in y): their
		 * high bits set (exactly when there is any). */
		hit |= ((x - ones * 14) & ~x) | ((y - ones) & ~y);
		if (i + 8 >= n)
			return (hit & highs) != 0;
	}
}

/* The frame of name (n bytes), tidied as pprof_stack tidies it. */
static uint32_t name_id(struct pprof_build *r, const char *s, size_t n)
{
	if (!may_tidy(s, n))
		return pprof_set_name(r->set, s, n);
	xgrow(&r->name, &r->ncap, n + 1, 1);
	pprof_tidy_name(r->name, s, n);
	return pprof_set_name(r->set, r->name, n);
}

/* Location l's frame when no function names it (pprof_where); its
 * length in *n. */
PPROF_COLD uint32_t where_id(struct pprof_build *r, const struct pprof_loc *l, size_t *n)
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

/* Names function fn's frame (its name, else its system name) into e. */
PPROF_COLD void name_func(struct pprof_build *r, const struct pprof_func *fn, struct fname *e)
{
	const char *s;
	size_t n;

	s = pprof_str(r->p, fn->name, &n);
	if (!n)
		s = pprof_str(r->p, fn->sysname, &n);
	e->id = name_id(r, s, n);
	e->len = n;
}

/* Function fn's frame, named once (inline: every line of every location
 * asks, nearly always after the first time); the name's length in *n. */
static inline uint32_t func_id(struct pprof_build *r, const struct pprof_func *fn, size_t *n)
{
	struct fname *e = &r->fname[fn - r->p->fn];

	if (e->id == UINT32_MAX)
		name_func(r, fn, e);
	*n = e->len;
	return e->id;
}

/* The function of id fid: by index when the ids are dense (as nearly
 * always), else through pprof_func.  NULL for none. */
static inline const struct pprof_func *func_of(const struct pprof_prof *p, uint64_t fid)
{
	if (fid - 1 < p->nfn && p->fn[fid - 1].id == fid)
		return &p->fn[fid - 1];
	return pprof_func(p, fid);
}

/* Line i's frame of location l (its where when it names no function, or
 * l has no lines), its name's length in *n. */
static inline uint32_t line_id(struct pprof_build *r, const struct pprof_loc *l, size_t i,
			       size_t *n)
{
	const struct pprof_func *fn = l->nlines ? func_of(r->p, r->p->line_fn[l->line0 + i]) : NULL;

	return fn ? func_id(r, fn, n) : where_id(r, l, n);
}

/* Location l's frames into e, leaf first (its first line first): into
 * e itself when a few, else into the pool (its room grown once, not at
 * each frame). */
static void build_loc(struct pprof_build *r, const struct pprof_loc *l, struct lrec *e)
{
	size_t k = l->nlines + !l->nlines, j, n;
	uint64_t len = k - 1;
	uint32_t *d;

	if (k <= LREC_FRAMES)
		d = e->f;
	else {
		xgrow(&r->pool, &r->poolcap, r->npool + k, sizeof(*r->pool));
		d = r->pool + r->npool;
		e->f[0] = (uint32_t)r->npool;
		e->f[1] = (uint32_t)k;
		r->npool += k;
	}
	for (j = 0; j < k; j++) {
		d[j] = line_id(r, l, j, &n);
		len += n;
	}
	e->ct = (len > PPROF_MAX_STACK ? (uint32_t)PPROF_MAX_STACK + 2 : (uint32_t)len + 1) << 8 |
		(k <= LREC_FRAMES ? (uint32_t)k : LREC_POOL);
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
	if (e && lrec_cnt(e))
		return e;
	if (!e || !e->f[0] || r->npool >= UINT32_MAX - 1)
		return NULL;
	build_loc(r, &r->p->loc[e->f[0] - 1], e);
	return e;
}

/* Where the frames of a key of klen bytes are written, in the set: room
 * for no more frames than a location has for each byte of the key, nor
 * than a stack of PPROF_MAX_STACK bytes holds (every frame a byte or a
 * ';'), and PPROF_SET_SLACK after (a location's frames are copied as
 * LREC_FRAMES + 1 ids). */
static uint32_t *stk_room(struct pprof_build *r, size_t klen)
{
#if LREC_FRAMES + 1 > PPROF_SET_SLACK
#error "a location's record is copied past what pprof_set leaves room for"
#endif
	return pprof_set_next(r->set, klen > r->maxk ? PPROF_MAX_STACK + 1 : klen * r->maxl);
}

/* The frames of the locations whose ids are packed at *sp, up to send,
 * copied to *dp on (a key is leaf first, as the set keeps a stack),
 * their text's bytes added to *tlen; *sp, *dp and *tlen moved on.  Returns -1 for an
 * id that cannot be read or names no location, or for a location's
 * frames too many to number or making *tlen pass PPROF_MAX_STACK; that
 * last is tested at each location only when checked (else the caller
 * tests the sum: a key that short cannot fill its room before it ends).
 * Ids by pb_varint4, a longer one the long way, one that would end past
 * send left for the caller to find (*sp past send).  The records and the
 * sums are locals: through r, each copy made the compiler reload them;
 * the bound on ids is read from r, so the records keep a register (the
 * loop's values live across loc_of's call are one more than the
 * registers a call keeps). */
PPROF_HOT int loc_run(struct pprof_build *r, const unsigned char **sp, const unsigned char *send,
		uint32_t **dp, uint64_t *tlen, int checked)
{
	const struct lrec *rec = r->rec, *e;
	const unsigned char *s = *sp;
	size_t m, cnt;
	uint32_t *d = *dp, id4;
	uint64_t t = *tlen, id;

	while (s < send) {
		if ((m = pb_varint4(s, &id4)) != 0)
			s += m, id = id4;
		else if (m = 0, pb_short_varint(s, &m, (size_t)(send - s), &id) < 0)
			return -1;
		else
			s += m;
		/* A location built, of a few frames (nearly always): they are
		 * one copy of a fixed size from its record, the ids after
		 * them written over later (or past the stack), with no
		 * branch on how many. */
		if (id < r->nfast && (cnt = rec[id].ct & 0xff) - 1 < LREC_FRAMES) {
			e = &rec[id];
			t += lrec_tlen(e);
			if (checked && t > PPROF_MAX_STACK)
				return -1;
			/* 16 bytes: its frames and the next record's first
			 * word (rec has one past the last location). */
			memcpy(d, e->f, (LREC_FRAMES + 1) * sizeof(*d));
			d += cnt;
			continue;
		}
		if (!(e = loc_of(r, id)) || (t += lrec_tlen(e)) > PPROF_MAX_STACK)
			return -1;
		cnt = lrec_cnt(e);
		memcpy(d, cnt <= LREC_FRAMES ? e->f : r->pool + e->f[0], cnt * sizeof(*d));
		d += cnt;
	}
	*sp = s, *dp = d, *tlen = t;
	return 0;
}

/* The stack of key (klen bytes: field 1 entries, packed runs or single
 * varints) weighing c into the set, or r->bad when the key cannot be
 * read, names a location not in the profile or makes a stack past
 * PPROF_MAX_STACK.  One pass: each location is looked up as its id is
 * read and its frames copied (loc_run) where the set takes them.  A
 * single id is read as a packed run of one.  Reads 4 bytes from each
 * packed id on: kset keys have room past them. */
static void key_stack(struct pprof_build *r, const unsigned char *key, size_t klen, uint64_t c)
{
	const unsigned char *s = key, *send;
	size_t i, m;
	uint32_t *start = stk_room(r, klen), *d = start;
	uint64_t tlen = 0, id;
	int checked = klen > r->maxk;

	for (; s < key + klen; s = send) {
		i = (size_t)(s - key);
		if (key[i] == 0x08) {
			m = ++i;
			if (pb_short_varint(key, &m, klen, &id) < 0)
				goto bad;
		} else if (key[i++] != 0x0a || pb_short_length(key, &i, klen, &m) < 0)
			goto bad;
		else
			m += i;
		s = key + i, send = key + m;
		if ((checked ? loc_run(r, &s, send, &d, &tlen, 1) : loc_run(r, &s, send, &d, &tlen, 0)) < 0 ||
		    s > send)
			goto bad;
	}
	if (!tlen || tlen > PPROF_MAX_STACK)
		goto bad;
	r->used += tlen - 1;
	pprof_set_add(r->set, (size_t)(d - start), c);
	return;
bad:
	r->bad = 1;
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
		if (p->loc[i].nlines > r->maxl)
			r->maxl = p->loc[i].nlines;
		if (!r->lazy)
			build_loc(r, &p->loc[i], e);
		else {
			e->f[0] = (uint32_t)(i + 1);
			r->used += loc_len(r, &p->loc[i]);
		}
	}
	r->nfast = r->direct ? r->nrec : 0;
	/* A location of no lines has a frame (pprof_where's). */
	r->maxl += !r->maxl;
	r->maxk = PPROF_MAX_STACK / r->maxl;
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

/* Frames a stack is guessed to have, for the room made for them (more
 * are made room for as they come). */
#define FRAMES_GUESS 16

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

	pprof_set_room(r->set, n, n < SIZE_MAX / FRAMES_GUESS ? n * FRAMES_GUESS : n);
	if (!par || r->lazy || n < HALVES)
		return (void)key_stacks(r, seen, 0, SIZE_MAX);
	h.r = *r;
	h.r.name = NULL, h.r.ncap = 0, h.r.used = 0;
	h.r.set = pprof_set_new();
	pprof_set_room(h.r.set, n - n / 2, (n - n / 2) * FRAMES_GUESS);
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
	free(h.r.name);
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
	free(b->name);
	free(b);
}
