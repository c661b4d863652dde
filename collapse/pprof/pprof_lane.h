/* pprof_lane: pprof_fast's reading of samples, the per-sample path and
 * the loops over samples, built twice: in pprof_fast.c for every
 * x86-64, and in pprof_fast_v3.c for processors with AVX2 and BMI2
 * (of x86-64-v3), where the compare of keys and the reading of values take
 * fewer instructions (pprof_fast picks one when it starts).  Included by
 * those two alone: all of it static but the three at its end. */
#ifndef FLAME_PPROF_LANE_H
#define FLAME_PPROF_LANE_H

#include "pprof.h"
#include "pprof_kset.h"
#include "pprof_stack.h"
#include "pbuf.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

/* Value types a sample may have here: more go to pprof_stack_add. */
#define TYPES 4
/* How far ahead (in samples) the slots, and the keys in them, are
 * fetched. */
#define AHEAD 16
#define AHEAD_KEY 8
/* A key's slot is fetched ahead at every size; its record, through the
 * probe to the slot of its tag (pprof_kset_prefetch_rec), only once the
 * table is larger than FAR bytes (looked at every FAR_EVERY samples).  A
 * smaller table stays in the cache, where the hint costs more than it
 * saves (a tenth of the run with 1,000 keys, as a call); hinting the
 * record of the slot's first probe inline made no difference there
 * (1,000 keys: 64.8 -> 64.9 ms; 10,000: 29.9 -> 29.8).  For a large
 * table the first slot is looked at inline, the others by a call. */
#define FAR ((size_t)1 << 20)
#define FAR_EVERY 1024

/* A sample read, not yet looked up: 64 bytes, a place of the ring
 * found by a shift. */
struct pend {
	const unsigned char *key;	/* its location field... */
	size_t klen;			/* ...of this many bytes */
	uint64_t h;			/* their hash */
	uint64_t v[TYPES];		/* its values */
	uint64_t at;			/* where its record was found ahead
					   (pprof_kset_prefetch_rec's), or
					   an earlier sample's place or 0 */
};

/* The keys one thread has met: the caller's, or a worker's of the pool
 * (merged at the end).  Lanes side by side share no cache line: each
 * thread writes its own at every sample. */
struct lane {
	struct pprof_kset *seen;	/* keys met, made at the first sample */
	const uint64_t *mix;		/* pprof_kset_mix(1): the keys' hash's */
	size_t nv;			/* values per sample (the first's) */
	int bad;			/* a sample not taken: of no use */
	int far;			/* the keys outgrew the cache: fetched ahead */
	struct pend ring[AHEAD];	/* samples read ahead */
	/* A key of the ring near the input's end, copied where pprof_kset
	 * may read WIDE bytes of it: one for each place. */
	unsigned char own[AHEAD][PPROF_KSET_WIDE];
	size_t head, tail;		/* read, looked up */
	atomic_int *quit;		/* set by a lane that went bad: the
					   others' jobs are of no use either */
	int v3;				/* read by the x86-64-v3 build */
	unsigned char gap[128];		/* away from the next lane's lines */
};

/* Runs of samples (whole fields) in p's input, for one lane. */
struct job {
	const struct pprof_prof *p;	/* the profile */
	const unsigned char *at, *end;	/* the fields */
};

/* The value at s[*i] (a varint before s[n]) into e's next, as long as
 * there is room and it is not negative; else -1. */
static int value(const unsigned char *s, size_t *i, size_t n, struct pend *e, size_t *cnt)
{
	if (*cnt == TYPES || pb_short_varint(s, i, n, &e->v[*cnt]) < 0 || e->v[*cnt] >> 63)
		return -1;
	++*cnt;
	return 0;
}

/* Field 1 (a packed run, tag 0x0a, or one varint, 0x08) from s[at] to
 * s[end] into e's key: the key is the location fields side by side, so
 * one after other fields is not taken (-1). */
static int key_part(const unsigned char *s, size_t at, size_t end, struct pend *e)
{
	if (!e->key)
		e->key = s + at;
	else if (e->key + e->klen != s + at)
		return -1;
	e->klen = (size_t)(s + end - e->key);
	return 0;
}

/* Sample s (n bytes) into e's key and values (*cnt) when it is a packed
 * run of locations then a packed run of values ending it; else 0. */
PPROF_COLD int quick(const unsigned char *s, size_t n, struct pend *e, size_t *cnt)
{
	size_t i = pprof_packed_locs(s, n);

	if (!i)
		return 0;
	e->key = s;
	e->klen = i;
	for (*cnt = 0, i += 2; i < n;)
		if (value(s, &i, n, e, cnt) < 0)
			return 0;
	return 1;
}

/* The varint at p when it has at most 5 bytes (a value below 2^35:
 * counts and nanoseconds of most samples), into *v; returns the byte
 * after it, or NULL when it goes on.  No loop and no bounds check: the
 * caller has 5 bytes at p.  A loop over the bytes with a check of each
 * (pb_short_varint) was a fifth of the sample pass's instructions. */
static inline const unsigned char *value5(const unsigned char *p, uint64_t *v)
{
	uint64_t x = p[0];

	if (x < 0x80)
		return *v = x, p + 1;
	x = (x & 0x7f) | (uint64_t)p[1] << 7;
	if (p[1] < 0x80)
		return *v = x, p + 2;
	x = (x & 0x3fff) | (uint64_t)p[2] << 14;
	if (p[2] < 0x80)
		return *v = x, p + 3;
	x = (x & 0x1fffff) | (uint64_t)p[3] << 21;
	if (p[3] < 0x80)
		return *v = x, p + 4;
	x = (x & 0xfffffff) | (uint64_t)p[4] << 28;
	if (p[4] < 0x80)
		return *v = x, p + 5;
	return NULL;
}

#ifdef PPROF_V3
/* The two varints that are the v bytes at p, when they have 8 bytes in
 * all at most (8 bytes at p to read): into *a and *b, by pext, with no
 * branch on their lengths; else 0.  (The decode of value5 had a branch
 * a byte.)  Each has 7 bytes at most: none is negative. */
static inline int values8(const unsigned char *p, size_t v, uint64_t *a, uint64_t *b)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7f;
	uint64_t x, ends, first, second;

	memcpy(&x, p, 8);
	/* The high bit of each byte clear where a varint ends: the first
	 * two such, the second the last of the v bytes. */
	ends = _andn_u64(x, ~low7);
	first = _blsi_u64(ends);
	second = _blsi_u64(_blsr_u64(ends));
	if (v - 2 > 6 || second != (uint64_t)0x80 << 8 * (v - 1))
		return 0;
	*a = _pext_u64(x, _blsmsk_u64(first) & low7);
	*b = _pext_u64(x, (_blsmsk_u64(second) ^ _blsmsk_u64(first)) & low7);
	return 1;
}
#endif

/* The two values of sample s (n bytes, the input ending at lim) from
 * s[i], into *a and *b, when they are its last bytes and not negative;
 * else 0.  Values of up to 5 bytes each are read by value5 where the
 * input has 5 bytes past the sample, the second only when the first
 * ends inside it (a second that would end past it then makes this 0),
 * any other the long way; in the x86-64-v3 build two of 8 bytes in all
 * by values8 first. */
PPROF_HOT int quick_values(const unsigned char *s, size_t i, size_t n, const unsigned char *lim,
		     uint64_t *a, uint64_t *b)
{
	const unsigned char *p;

#ifdef PPROF_V3
	if ((size_t)(lim - s) - i >= 8 && values8(s + i, n - i, a, b))
		return 1;
#endif
	if ((size_t)(lim - s) - n >= 5 && (p = value5(s + i, a)) != NULL && p < s + n &&
	    (p = value5(p, b)) != NULL)
		return p == s + n;
	return pb_short_varint(s, &i, n, a) == 0 && pb_short_varint(s, &i, n, b) == 0 &&
	       i == n && !((*a | *b) >> 63);
}

/* Sample s (n bytes, the input ending at lim) into e as quick reads it
 * when it has two values (most profiles: pprofgen's, perf's): no loop
 * over the values, no count; else 0, for quick and fields to read it. */
PPROF_HOT int quick2(const unsigned char *s, size_t n, const unsigned char *lim, struct pend *e)
{
	size_t i = pprof_packed_locs(s, n);
	uint64_t a, b;

	if (!i || !quick_values(s, i + 2, n, lim, &a, &b))
		return 0;
	e->key = s;
	e->klen = i;
	e->v[0] = a;
	e->v[1] = b;
	return 1;
}

/* Sample s (n bytes) into e's key and values (*cnt) when its fields are
 * locations (field 1) and values (field 2), each packed or not, the
 * locations side by side, and labels (field 3, passed over); else 0. */
PPROF_COLD int fields(const unsigned char *s, size_t n, struct pend *e, size_t *cnt)
{
	size_t i = 0, at, len = 0;
	uint64_t x;
	int bad = 0;

	e->key = NULL;
	e->klen = 0;
	for (*cnt = 0; !bad && i < n;) {
		at = i++;
		switch (s[at]) {
		case 0x08:
			bad = pb_short_varint(s, &i, n, &x) < 0 || key_part(s, at, i, e) < 0;
			break;
		case 0x0a:
			bad = pb_short_length(s, &i, n, &len) < 0 || key_part(s, at, i += len, e) < 0;
			break;
		case 0x10:
			bad = value(s, &i, n, e, cnt) < 0;
			break;
		case 0x12:
			if ((bad = pb_short_length(s, &i, n, &len) < 0))
				break;
			for (len += i; !bad && i < len;)
				bad = value(s, &i, len, e, cnt) < 0;
			break;
		case 0x1a:
			bad = pb_short_length(s, &i, n, &len) < 0;
			i += len;
			break;
		default:
			bad = 1;
		}
	}
	return !bad && e->key;
}

/* Sample s (n bytes) into e (the packed shape looked for first, as
 * pprofgen and writers of more than two values write it, then any),
 * with values as many as the first sample's and none negative; else 0. */
PPROF_HOT int parse(struct lane *l, const unsigned char *s, size_t n, const unsigned char *lim,
	      struct pend *e)
{
	size_t cnt;

	if (l->nv == 2 && quick2(s, n, lim, e))
		return 1;
	if ((!quick(s, n, e, &cnt) && !fields(s, n, e, &cnt)) || !cnt)
		return 0;
	if (!l->nv) {
		l->nv = cnt;
		l->seen = pprof_kset_new(cnt);
	}
	return cnt == l->nv;
}

/* l gone bad: its samples are of no use, nor are the other lanes'. */
static void went_bad(struct lane *l)
{
	l->bad = 1;
	atomic_store_explicit(l->quit, 1, memory_order_relaxed);
}

/* Looks sample e up and adds its values to its key's sums; -1 when l
 * went bad.  usual: the key has at most 123 bytes and the set two sums
 * (lane_usual's samples), so the add tests neither. */
PPROF_HOT int take(struct lane *l, int far, const struct pend *e, int usual)
{
	/* A table out of the cache had the record looked for ahead (far
	 * only grows; where it was not, at is 0, or a place of an earlier
	 * sample's: a hint, which the key's compare takes or not); in one
	 * in the cache, the first slot is read here. */
	const int rc = !far ? pprof_kset_add(l->seen, e->key, e->klen, e->h, e->v) :
		       usual ? pprof_kset_add2_at(l->seen, e->at, e->key, e->klen, e->h, e->v) :
			       pprof_kset_add_at(l->seen, e->at, e->key, e->klen, e->h, e->v);

	/* A sum that would wrap (the table's count would too, but whether
	 * it wrapped to 0 is not followed here), or keys made to share a
	 * hash: pprof_stack reads the profile. */
	if (rc < 0)
		went_bad(l);
	return rc;
}

/* The lookups still pending in l's ring, done. */
static void drain(struct lane *l)
{
	while (l->tail < l->head && !l->bad)
		take(l, l->far, &l->ring[l->tail++ % AHEAD], 0);
}

/* Sample e, read and hashed into the ring at *head: its slot fetched,
 * and the sample AHEAD before it looked up (its record fetched at
 * AHEAD_KEY before, from a table out of the cache).  The ring's counters
 * and far are l's (lane_sample) or copies in registers (lane_usual, as
 * take's usual).  Returns -1 when l went bad. */
PPROF_HOT int lane_step(struct lane *l, const struct pend *e, size_t *head, size_t *tail,
			int *far, int usual)
{
	/* Whether the keys outgrew the cache is looked at now and then. */
	if ((*head & (FAR_EVERY - 1)) == 0) {
		*far = pprof_kset_bytes(l->seen) > FAR;
		pprof_kset_tune(l->seen, *tail);
	}
	pprof_kset_prefetch(l->seen, e->h);
	if (++*head - *tail < AHEAD)
		return 0;
	if (*far) {
		struct pend *f = &l->ring[(*tail + AHEAD_KEY) % AHEAD];

		f->at = pprof_kset_prefetch_rec(l->seen, f->h, f->klen);
	}
	return take(l, *far, &l->ring[(*tail)++ % AHEAD], usual);
}

/* The sample [at, end) (input ending at lim) read ahead into l; the one
 * AHEAD before it looked up. */
PPROF_HOT void lane_sample(struct lane *l, const unsigned char *at, const unsigned char *end,
		     const unsigned char *lim)
{
	const size_t place = l->head % AHEAD;
	struct pend *e = &l->ring[place];

	if (l->bad)
		return;
	pprof_read_ahead(end);
	if (!parse(l, at, (size_t)(end - at), lim, e))
		return went_bad(l);
	/* pprof_kset reads a short key as WIDE bytes: here, not past lim. */
	if (e->klen <= PPROF_KSET_WIDE && (size_t)(lim - e->key) < PPROF_KSET_WIDE)
		e->key = memcpy(memset(l->own[place], 0, PPROF_KSET_WIDE), e->key, e->klen);
	e->h = pprof_kset_hash(l->mix, e->key, e->klen);
	lane_step(l, e, &l->head, &l->tail, &l->far, 0);
}

/* How far before the end of what may be read lane_usual stops: a sample
 * of its shape has at most 129 bytes, its key is read as WIDE bytes and
 * its values as 8. */
#define USUAL_MARGIN 256
#if USUAL_MARGIN < 2 + PPROF_KSET_WIDE || USUAL_MARGIN < 2 + 127 + 8
#error "lane_usual reads past its margin"
#endif

/* The samples from q on that begin before stop, as far as one not of
 * the usual shape, into l (lane_sample's work, with no bounds to check
 * and the ring's counters in registers): a tag and a length of one
 * byte, a packed run of locations (its tag, a length of one byte), a
 * packed run of two values that ends the sample (its tag, a length of
 * one byte), the values of 8 bytes at most (10 in the baseline build).
 * The input runs USUAL_MARGIN bytes past stop.  l has its set, for two
 * values a sample, and is not bad.  Returns where it stopped (a sample
 * for lane_sample, stop, or the next sample once l went bad), how many
 * it read in *k.  Reading every sample by lane_sample took 50
 * instructions more each. */
PPROF_HOT const unsigned char *lane_usual(struct lane *l, const unsigned char *q,
					const unsigned char *stop, size_t *k)
{
#ifdef PPROF_V3
	const size_t vmax = 8;
#else
	const size_t vmax = 10;
	const unsigned char *p;
#endif
	const uint64_t *mix = l->mix;
	size_t head = l->head, tail = l->tail, klen, v;
	const unsigned char *vals;
	struct pend *e;
	uint64_t a, b;
	uint32_t w;
	int far = l->far;

	while (q < stop) {
		/* Tags 0x12 and 0x0a, the lengths below 0x80 (one load). */
		w = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
		if ((w & 0x80ff80ffu) != 0x000a0012u)
			break;
		klen = (size_t)(w >> 24) + 2;
		v = (size_t)(w >> 8 & 0xff) - klen - 2;
		/* From here the key has at most 123 bytes (of the 127 with
		 * the values' tag, length and two bytes), under WIDE. */
		if (v - 2 > vmax - 2)
			break;
		vals = q + 4 + klen;
		if ((vals[-2] | (size_t)vals[-1] << 8) != (0x12 | v << 8))
			break;
#ifdef PPROF_V3
		if (!values8(vals, v, &a, &b))
			break;
#else
		if (!(p = value5(vals, &a)) || p >= vals + v || value5(p, &b) != vals + v)
			break;
#endif
		e = &l->ring[head % AHEAD];
		e->key = q + 2;
		e->klen = klen;
		e->v[0] = a;
		e->v[1] = b;
		q = vals + v;
		pprof_read_ahead(q);
		e->h = pprof_kset_hash_short(mix, e->key, klen);
		if (lane_step(l, e, &head, &tail, &far, 1) < 0)
			break;
	}
	*k = (size_t)(head - l->head);
	l->head = head, l->tail = tail, l->far = far;
	return q;
}

/* Where lane_usual may read samples from q up to, what may be read
 * ending at end: stop, or before it so that USUAL_MARGIN bytes follow;
 * q when fewer follow q. */
static inline const unsigned char *usual_stop(const unsigned char *q, const unsigned char *stop,
					    const unsigned char *end)
{
	if ((size_t)(end - q) <= USUAL_MARGIN)
		return q;
	return (size_t)(end - stop) >= USUAL_MARGIN ? stop : end - USUAL_MARGIN;
}

/* Job j's samples into l, every lookup done, then its pages given back:
 * they are not read again (tpool's job function: l is the worker's). */
static inline void lane_job(struct lane *l, const struct job *j)
{
	const unsigned char *q = j->at, *body, *lim = j->p->buf + j->p->len;
	size_t n, m;

	/* The fields were read and checked: a tag, a length of one or two
	 * bytes, the sample.  None is read once a lane went bad. */
	if (atomic_load_explicit(l->quit, memory_order_relaxed))
		l->bad = 1;
	while (q < j->end && !l->bad) {
		if (l->nv == 2) {
			q = lane_usual(l, q, usual_stop(q, j->end, lim), &m);
			if (q >= j->end || l->bad)
				break;
		}
		n = q[1] & 0x7f;
		body = q + 2;
		if (q[1] & 0x80)
			n |= (size_t)q[2] << 7, body++;
		lane_sample(l, body, body + n, lim);
		q = body + n;
	}
	drain(l);
	pprof_give_back(j->p, (size_t)(j->at - j->p->buf), (size_t)(j->end - j->at));
}

/* The hook's streak (pprof_hook's), on one thread: the sample fields
 * from q on, read into lane l as they are stepped over. */
static inline const unsigned char *lane_streak(struct lane *l, const unsigned char *q,
					       const unsigned char *stop,
					       const unsigned char *end,
					       const unsigned char *lim, size_t *n)
{
	const unsigned char *body, *next;
	size_t k = 0, m;

	while (q < stop && *q == PPROF_SAMPLE_TAG && (next = pprof_quick_sample(q, end, &body))) {
		if (l->nv == 2 && !l->bad) {
			q = lane_usual(l, q, usual_stop(q, stop, end), &m);
			k += m;
			if (q >= stop || *q != PPROF_SAMPLE_TAG ||
			    !(next = pprof_quick_sample(q, end, &body)))
				break;
		}
		lane_sample(l, body, next, lim);
		q = next;
		k++;
	}
	*n = k;
	return q;
}

/* Whether this processor runs pprof_fast_v3.c's build (FLAME_BASELINE
 * not set), and the same two loops as that build has them. */
int pprof_lane_v3(void);
void pprof_lane_job_v3(struct lane *l, const struct job *j);
const unsigned char *pprof_lane_streak_v3(struct lane *l, const unsigned char *q,
					  const unsigned char *stop, const unsigned char *end,
					  const unsigned char *lim, size_t *n);

#endif
