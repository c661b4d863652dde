/* speedscope: reading the document into frame indices, then stacks. */
#include "speedscope.h"
#include "folded.h"
#include "json.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ssev {
	double at;		/* when */
	int64_t iat;		/* the same exactly, when isint */
	uint32_t frame;		/* index into the shared frames */
	char open;		/* 1: 'O', 0: 'C' */
	char isint;		/* at is an integer */
};

struct ssprof {
	char *name;		/* the profile's name (owned) */
	int evented;		/* type "evented" */
	uint32_t *idx;		/* every sample's frame indices, root first */
	size_t nidx, idxcap;	/* used, room */
	size_t *end;		/* where each sample's indices end in idx */
	size_t nsamp, endcap;	/* samples, room */
	struct fcount *w;	/* weights */
	size_t nw, wcap;	/* used, room */
	struct ssev *ev;	/* events in order */
	size_t nev, evcap;	/* used, room */
};

struct ss {
	struct json *j;			/* the tokens */
	struct speedscope_opts *o;	/* where stacks go */
	char *names;			/* every frame name, back to back */
	size_t nlen, ncap;		/* bytes used, room */
	size_t *noff;			/* where frame i ends in names */
	size_t nframes, fcap;		/* frames, room */
	struct ssprof *p;		/* profiles */
	size_t np, pcap;		/* used, room */
	char unit[16];			/* the first profile's unit, flame's name */
	unsigned long bad;		/* values of the wrong kind, skipped */
	uint64_t bad_at;		/* the first one's byte offset */
	unsigned long noweight;		/* samples without a weight */
	unsigned long past;		/* naming a frame that is not there */
	unsigned long disorder;		/* profiles with events out of order */
	unsigned long unmatched;	/* close events not closing the top */
	unsigned long unclosed;		/* frames left open */
	char *stk;			/* the stack being built */
	size_t slen, scap;		/* its length, room */
};

/* A value of the wrong kind where a known member was: skipped, counted. */
static int odd(struct ss *s, int tok)
{
	if (!s->bad++)
		s->bad_at = json_offset(s->j);
	return json_skip(s->j, tok);
}

static int frame(struct ss *s)
{
	int tok, named = 0;
	size_t n, i;

	while ((tok = json_next(s->j)) == JSON_KEY) {
		const char *k = json_text(s->j, &n);
		int named_key = n == 4 && memcmp(k, "name", 4) == 0;

		tok = json_next(s->j);
		if (named_key && tok == JSON_STRING && !named) {
			const char *v = json_text(s->j, &n);

			xgrow(&s->names, &s->ncap, s->nlen + n + 1, 1);
			for (i = 0; i < n; i++)
				s->names[s->nlen + i] = v[i] == ';' ? ':' :
							(v[i] == '\n' || v[i] == '\r') ? ' ' : v[i];
			s->nlen += n;
			named = 1;
		} else if (json_skip(s->j, tok) < 0) {
			return -1;
		}
	}
	if (tok != JSON_OBJECT_END)
		return -1;
	xgrow(&s->noff, &s->fcap, s->nframes + 1, sizeof(*s->noff));
	s->noff[s->nframes++] = s->nlen;
	return 0;
}

/* "frames": [ {"name": ...}, ... ] */
static int frames(struct ss *s, int tok)
{
	if (tok != JSON_ARRAY)
		return odd(s, tok);
	while ((tok = json_next(s->j)) != JSON_ARRAY_END) {
		if (tok == JSON_OBJECT) {
			if (frame(s) < 0)
				return -1;
		} else if (odd(s, tok) < 0) {
			return -1;
		}
	}
	return 0;
}

/* The members of an object (tok its first token), each to fn. */
static int object(struct ss *s, int tok, json_member_fn *fn, void *arg)
{
	if (tok != JSON_OBJECT)
		return odd(s, tok);
	return json_members(s->j, fn, s, arg) == JSON_OBJECT_END ? 0 : -1;
}

static int shared_member(void *ctx, const char *key, size_t klen, int tok, void *arg)
{
	struct ss *s = ctx;

	(void)arg;
	(void)klen;
	if (strcmp(key, "frames") == 0)
		return frames(s, tok);
	return json_skip(s->j, tok);
}

/* One sample: [i, j, ...] */
/* The plain indices that come next, many at a time. */
static void indices(struct ss *s, struct ssprof *p)
{
	uint64_t v[64];
	size_t n, i;

	do {
		n = json_uints(s->j, v, 64);
		xgrow(&p->idx, &p->idxcap, p->nidx + n, sizeof(*p->idx));
		for (i = 0; i < n; i++)	/* past any frame: UINT32_MAX */
			p->idx[p->nidx++] = v[i] > UINT32_MAX ? UINT32_MAX : (uint32_t)v[i];
	} while (n == 64);
}

static int sample(struct ss *s, struct ssprof *p, int tok)
{
	uint64_t v;

	if (tok != JSON_ARRAY)
		return odd(s, tok);
	for (indices(s, p); (tok = json_next(s->j)) == JSON_NUMBER; indices(s, p)) {
		if (json_num_u64(s->j, &v) < 0 || v > UINT32_MAX)
			v = UINT32_MAX;	/* past any frame: the sample is skipped */
		if (p->nidx == p->idxcap)
			xgrow(&p->idx, &p->idxcap, p->nidx + 1, sizeof(*p->idx));
		p->idx[p->nidx++] = (uint32_t)v;
	}
	if (tok != JSON_ARRAY_END) {
		if (tok == JSON_ERROR || json_skip(s->j, tok) < 0)
			return -1;
		xgrow(&p->idx, &p->idxcap, p->nidx + 1, sizeof(*p->idx));
		p->idx[p->nidx++] = UINT32_MAX;	/* spoilt: skipped later */
		if (!s->bad++)
			s->bad_at = json_offset(s->j);
		while ((tok = json_next(s->j)) != JSON_ARRAY_END)
			if (json_skip(s->j, tok) < 0)
				return -1;
	}
	xgrow(&p->end, &p->endcap, p->nsamp + 1, sizeof(*p->end));
	p->end[p->nsamp++] = p->nidx;
	return 0;
}

static int samples(struct ss *s, struct ssprof *p, int tok)
{
	if (tok != JSON_ARRAY)
		return odd(s, tok);
	while ((tok = json_next(s->j)) != JSON_ARRAY_END)
		if (tok == JSON_ERROR || sample(s, p, tok) < 0)
			return -1;
	return 0;
}

static int weights(struct ss *s, struct ssprof *p, int tok)
{
	const char *t;
	size_t n;

	if (tok != JSON_ARRAY)
		return odd(s, tok);
	while ((tok = json_next(s->j)) != JSON_ARRAY_END) {
		struct fcount c = { 0, 0 };

		if (tok == JSON_ERROR)
			return -1;
		if (p->nw == p->wcap)
			xgrow(&p->w, &p->wcap, p->nw + 1, sizeof(*p->w));
		if (tok == JSON_NUMBER && json_num_u64(s->j, &c.n) == 0) {
			p->w[p->nw++] = c;	/* a plain integer, as json_weight has it */
			continue;
		}
		t = json_text(s->j, &n);
		if (tok != JSON_NUMBER || json_weight(t, n, &c) < 0) {
			c.frac = -1;	/* no weight: the sample is skipped */
			if (odd(s, tok) < 0)
				return -1;
		}
		p->w[p->nw++] = c;
	}
	return 0;
}

static int event_member(void *ctx, const char *key, size_t klen, int tok, void *arg)
{
	struct ss *s = ctx;
	struct ssev *e = arg;
	size_t n;
	const char *t = json_text(s->j, &n);
	uint64_t v;

	(void)klen;
	if (strcmp(key, "type") == 0 && tok == JSON_STRING && n == 1 && (*t == 'O' || *t == 'C'))
		e->open = *t == 'O' ? 1 : 0;
	else if (strcmp(key, "frame") == 0 && tok == JSON_NUMBER && json_u64(t, n, &v) == 0)
		e->frame = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	else if (strcmp(key, "at") == 0 && tok == JSON_NUMBER && json_double(t, n, &e->at) == 0)
		e->isint = json_i64(t, n, &e->iat) == 0;
	else if (strcmp(key, "type") == 0 || strcmp(key, "frame") == 0 || strcmp(key, "at") == 0)
		return odd(s, tok);
	else
		return json_skip(s->j, tok);
	return 0;
}

static int events(struct ss *s, struct ssprof *p, int tok)
{
	if (tok != JSON_ARRAY)
		return odd(s, tok);
	while ((tok = json_next(s->j)) != JSON_ARRAY_END) {
		struct ssev e = { 0, 0, UINT32_MAX, 2, 0 };

		if (tok == JSON_ERROR || object(s, tok, event_member, &e) < 0)
			return -1;
		if (e.open == 2 || e.frame == UINT32_MAX) {
			if (!s->bad++)
				s->bad_at = json_offset(s->j);
			continue;
		}
		xgrow(&p->ev, &p->evcap, p->nev + 1, sizeof(*p->ev));
		p->ev[p->nev++] = e;
	}
	return 0;
}

static const char *const units[][2] = {
	{ "nanoseconds", "ns" }, { "microseconds", "us" }, { "milliseconds", "ms" },
	{ "seconds", "s" }, { "bytes", "bytes" }, { NULL, NULL }
};

const char *speedscope_unit_name(const char *u)
{
	size_t i;

	for (i = 0; u && units[i][0]; i++)
		if (strcmp(u, units[i][1]) == 0)
			return units[i][0];
	return "none";
}

static void unit(struct ss *s, const char *t)
{
	size_t i;

	for (i = 0; units[i][0] && !s->unit[0]; i++)
		if (strcmp(t, units[i][0]) == 0)
			snprintf(s->unit, sizeof(s->unit), "%s", units[i][1]);
}

static int profile_member(void *ctx, const char *key, size_t klen, int tok, void *arg)
{
	struct ss *s = ctx;
	struct ssprof *p = arg;
	size_t n;
	const char *t = json_text(s->j, &n);

	(void)klen;
	if (strcmp(key, "samples") == 0)
		return samples(s, p, tok);
	if (strcmp(key, "weights") == 0)
		return weights(s, p, tok);
	if (strcmp(key, "events") == 0)
		return events(s, p, tok);
	if (tok == JSON_STRING && strcmp(key, "name") == 0 && !p->name)
		p->name = xstrndup(t, n);
	else if (tok == JSON_STRING && strcmp(key, "type") == 0)
		p->evented = strcmp(t, "evented") == 0;
	else if (tok == JSON_STRING && strcmp(key, "unit") == 0 && s->np == 1)
		unit(s, t);
	return json_skip(s->j, tok);
}

static int profiles(struct ss *s, int tok)
{
	if (tok != JSON_ARRAY)
		return odd(s, tok);
	while ((tok = json_next(s->j)) != JSON_ARRAY_END) {
		if (tok == JSON_ERROR)
			return -1;
		if (tok != JSON_OBJECT) {
			if (odd(s, tok) < 0)
				return -1;
			continue;
		}
		xgrow(&s->p, &s->pcap, s->np + 1, sizeof(*s->p));
		memset(&s->p[s->np++], 0, sizeof(*s->p));
		if (object(s, tok, profile_member, &s->p[s->np - 1]) < 0)
			return -1;
	}
	return 0;
}

static int top_member(void *ctx, const char *key, size_t klen, int tok, void *arg)
{
	struct ss *s = ctx;

	(void)klen;
	if (strcmp(key, "shared") == 0)
		return object(s, tok, shared_member, arg);
	if (strcmp(key, "profiles") == 0)
		return profiles(s, tok);
	return json_skip(s->j, tok);
}

/* The stack so far starts with the profile's name when there are
 * several. */
static void root(struct ss *s, const struct ssprof *p)
{
	const char *n = p->name ? p->name : "(unnamed profile)";
	size_t i, len = strlen(n);

	s->slen = 0;
	if (s->np < 2)
		return;
	xgrow(&s->stk, &s->scap, len + 1, 1);
	for (i = 0; i < len; i++)
		s->stk[i] = n[i] == ';' ? ':' : (n[i] == '\n' || n[i] == '\r') ? ' ' : n[i];
	s->slen = len;
}

/* Appends frame f; returns -1 when there is no such frame. */
static int push_frame(struct ss *s, uint32_t f)
{
	size_t from, n;

	if (f >= s->nframes)
		return -1;
	from = f ? s->noff[f - 1] : 0;
	n = s->noff[f] - from;
	xgrow(&s->stk, &s->scap, s->slen + n + 2, 1);
	if (s->slen)
		s->stk[s->slen++] = ';';
	if (n)	/* names is NULL while every name is empty */
		memcpy(s->stk + s->slen, s->names + from, n);
	s->slen += n;
	return 0;
}

static void put(struct ss *s, const struct fcount *c)
{
	if (s->slen)
		fseq_put(s->o->t, s->o->seq, s->stk, s->slen, c);
}

/* What a sample's frame indices make, kept per distinct run of them. */
#define SS_UNKNOWN 0	/* not made yet */
#define SS_EMPTY 1	/* an empty stack: nothing put */
#define SS_PAST 2	/* names a frame that is not there */
#define SS_ID 3		/* SS_ID + the stack's id in the table */

struct made {
	uint64_t what;		/* one of the above */
	struct fcount *val;	/* with SS_ID: the stack's count */
};

#define AHEAD 8		/* samples whose slots are prefetched ahead */

/* The indices idx[from..to) (at least one) as a stack in the table. */
static void sample_stack(struct ss *s, const struct ssprof *p, size_t from, size_t to,
			 struct made *m)
{
	size_t i;
	uint32_t id;

	root(s, p);
	for (i = from; i < to; i++)
		if (push_frame(s, p->idx[i]) < 0) {
			m->what = SS_PAST;
			return;
		}
	if (!s->slen) {
		m->what = SS_EMPTY;
		return;
	}
	id = strtab_intern(s->o->t, s->stk, s->slen, NULL);
	m->what = SS_ID + id;
	m->val = strtab_val(s->o->t, id);
}

/* Sample k's indices as the key of its run, and that key's hash. */
static const char *sample_key(const struct ssprof *p, size_t k, size_t *len)
{
	size_t from = k ? p->end[k - 1] : 0;

	*len = (p->end[k] - from) * sizeof(*p->idx);
	return *len ? (const char *)(p->idx + from) : "";	/* idx is NULL while empty */
}

static uint64_t sample_hash(const struct strtab *seen, const struct ssprof *p, size_t k)
{
	size_t len;
	const char *key = sample_key(p, k, &len);
	uint64_t h = strtab_hash(key, len);

	strtab_prefetch(seen, h);
	return h;
}

/* A sample's weight w to what its indices made. */
static void count(struct ss *s, const struct made *m, const struct fcount *w)
{
	if (m->what == SS_PAST) {
		s->past++;
	} else if (m->what != SS_EMPTY) {
		fcount_add(m->val, w);
		if (s->o->seq)
			fseq_add(s->o->seq, (uint32_t)(m->what - SS_ID), w, NULL);
	}
}

/* Past this many distinct runs, with more than one sample in three so far
 * a new one, stacks do not repeat enough to pay for the table of runs (at
 * 45% new, it took 50% more memory for no time saved). */
#define SEEN_MAX 65536

/* Samples repeat their stacks: each distinct run of indices is made into
 * text and interned once, then only its count grows (as fseq_put would
 * add it: the table's value, and the input order when kept). */
static void sampled(struct ss *s, const struct ssprof *p)
{
	struct strtab *seen = strtab_new(sizeof(struct made));
	uint64_t ring[AHEAD], h = 0;
	struct made one;
	size_t k, len;

	for (k = 0; k < AHEAD && k < p->nsamp; k++)
		ring[k] = sample_hash(seen, p, k);
	for (k = 0; k < p->nsamp; k++) {
		const char *key = sample_key(p, k, &len);
		struct made *m = &one;

		if (seen) {
			h = ring[k % AHEAD];
			if (k + AHEAD < p->nsamp)
				ring[k % AHEAD] = sample_hash(seen, p, k + AHEAD);
		}
		if (k >= p->nw || p->w[k].frac < 0) {
			s->noweight++;
			continue;
		}
		if (len == 0)
			continue;
		if (seen && strtab_count(seen) > SEEN_MAX && strtab_count(seen) > k / 3) {
			strtab_free(seen);	/* each stack made afresh from here */
			seen = NULL;
		}
		one.what = SS_UNKNOWN;
		if (seen)
			m = strtab_val(seen, strtab_intern_hashed(seen, key, len, h, NULL));
		if (m->what == SS_UNKNOWN)
			sample_stack(s, p, (size_t)(key - (const char *)p->idx) / sizeof(*p->idx),
				     p->end[k], m);
		count(s, m, &p->w[k]);
	}
	strtab_free(seen);
}

/* The stack of open frames (the first depth of open) as text. */
static int open_stack(struct ss *s, const struct ssprof *p, const uint32_t *open, size_t depth)
{
	size_t i;

	root(s, p);
	for (i = 0; i < depth; i++)
		if (push_frame(s, open[i]) < 0)
			return -1;
	return 0;
}

/* The time from a to b, or -1 when b comes first. */
static int span(const struct ssev *a, const struct ssev *b, struct fcount *c)
{
	if (a->isint && b->isint) {
		if (b->iat < a->iat)
			return -1;
		c->n = (uint64_t)b->iat - (uint64_t)a->iat;
		c->frac = 0;
		return 0;
	}
	if (b->at < a->at)
		return -1;
	json_fcount(b->at - a->at, c);
	return 0;
}

/* Closes frame f: the innermost open f and everything inside it. */
static size_t close_frame(struct ss *s, const uint32_t *open, size_t depth, uint32_t f)
{
	size_t d = depth;

	while (d > 0 && open[d - 1] != f)
		d--;
	if (d == 0) {
		s->unmatched++;
		return depth;
	}
	if (d != depth)
		s->unmatched++;
	return d - 1;
}

static void evented(struct ss *s, const struct ssprof *p)
{
	uint32_t *open = NULL;
	size_t ocap = 0, depth = 0, k;
	struct fcount c = { 0, 0 };

	for (k = 0; k < p->nev; k++) {
		const struct ssev *e = &p->ev[k];

		if (k && span(e - 1, e, &c) < 0) {
			s->disorder++;
			break;
		}
		if (k && depth && (c.n || c.frac > 0)) {
			if (open_stack(s, p, open, depth) == 0)
				put(s, &c);
			else
				s->past++;
		}
		if (e->open) {
			xgrow(&open, &ocap, depth + 1, sizeof(*open));
			open[depth++] = e->frame;
		} else {
			depth = close_frame(s, open, depth, e->frame);
		}
	}
	s->unclosed += depth;
	free(open);
}

static void note(struct ss *s, unsigned long n, const char *what)
{
	char msg[200];

	if (!n)
		return;
	snprintf(msg, sizeof(msg), "%lu %s", n, what);
	s->o->warn(s->o->ctx, s->o->name, 0, msg);
}

/* Every profile's stacks into the table; 1 when there was none. */
static int ss_emit(struct ss *s)
{
	size_t i;

	for (i = 0; i < s->np; i++) {
		if (s->p[i].evented)
			evented(s, &s->p[i]);
		else
			sampled(s, &s->p[i]);
	}
	note(s, s->noweight, "samples without a weight skipped");
	note(s, s->past, "samples or events naming a frame past the shared frames skipped");
	note(s, s->disorder, "profiles with events out of time order: the rest of each skipped");
	note(s, s->unmatched, "close events not matching the innermost open frame");
	note(s, s->unclosed, "frames never closed");
	if (s->np == 0) {
		s->o->warn(s->o->ctx, s->o->name, 0, "no profiles: not a speedscope file");
		return 1;
	}
	return 0;
}

int speedscope_read(struct json *j, struct speedscope_opts *o)
{
	struct ss s;
	int rc = 0, tok;
	size_t i;
	char msg[256];

	memset(&s, 0, sizeof(s));
	s.j = j;
	s.o = o;
	tok = json_next(j);
	if (object(&s, tok, top_member, NULL) < 0 || json_next(j) != JSON_END) {
		snprintf(msg, sizeof(msg), "%s", json_error(j));
		o->warn(o->ctx, o->name, 0, msg);
		rc = 1;
	}
	if (s.bad) {
		snprintf(msg, sizeof(msg), "%lu values of the wrong kind skipped (the first at byte %llu)",
			 s.bad, (unsigned long long)s.bad_at);
		o->warn(o->ctx, o->name, 0, msg);
	}
	snprintf(o->unit, sizeof(o->unit), "%s", s.unit);
	rc |= ss_emit(&s);
	for (i = 0; i < s.np; i++) {
		free(s.p[i].name);
		free(s.p[i].idx);
		free(s.p[i].end);
		free(s.p[i].w);
		free(s.p[i].ev);
	}
	free(s.p);
	free(s.names);
	free(s.noff);
	free(s.stk);
	return rc;
}
