/* cpuprofile: the nodes are read into an array (ids, parents, names),
 * the samples and their times beside them; parents are joined by id once
 * everything is read, since children may name nodes not yet seen. */
#include "chrome.h"
#include "folded.h"
#include "json.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define NOFRAMES (UINT32_MAX - 1)	/* a node whose stack is empty */

struct cpnode {
	int64_t id;		/* the node's id */
	int64_t parent_id;	/* "parent", when has_parent */
	uint64_t hits;		/* hitCount */
	struct fcount *val;	/* its stack's count in the table, once made */
	uint32_t pidx;		/* the parent's index, or NONE */
	uint32_t name;		/* index of its name */
	uint32_t sid;		/* its stack's id in the table, once made */
	char has_parent;	/* parent_id given */
	char ignore;		/* (root) or (idle): no frame */
};

struct cpuprofile {
	struct json *j;			/* the tokens */
	struct chrome_opts *o;		/* where stacks go */
	struct cpnode *n;		/* nodes */
	size_t nn, ncap;		/* used, room */
	int64_t (*kids)[2];		/* (parent index, child id) pairs */
	size_t nk, kcap;		/* used, room */
	char *names;			/* every name back to back */
	size_t nlen, namecap;		/* bytes, room */
	size_t *noff;			/* where name i ends */
	size_t nnames, offcap;		/* names, room */
	int64_t *samples;		/* node id per sample */
	size_t ns, scap;		/* used, room */
	int64_t *times;			/* timeDeltas, or timestamps */
	size_t nt, tcap;		/* used, room */
	int absolute;			/* times are timestamps */
	uint32_t *dense;		/* node index by id - dmin (NONE: none), */
	int64_t dmin;			/* when ids are unique and close */
	uint64_t dspan;			/* ids dmin .. dmin + dspan - 1 */
	uint32_t *walk;			/* one stack's nodes, leaf first */
	char *stk;			/* one stack's text */
	size_t slen, stkcap;		/* its length, room */
	unsigned long bad;		/* values of the wrong kind */
	uint64_t bad_at;		/* the first one's offset */
	unsigned long unknown;		/* samples naming no node */
};

/* What a node says about its function, until its name is made. */
struct callframe {
	char *fn;		/* functionName (owned) */
	char *url;		/* url (owned) */
	int64_t line;		/* lineNumber, 0-based; -1 none */
};

static int odd(struct cpuprofile *c, int tok)
{
	if (!c->bad++)
		c->bad_at = json_offset(c->j);
	return json_skip(c->j, tok);
}

static int number(struct cpuprofile *c, int tok, int64_t *v)
{
	size_t n;
	const char *t;
	double d;

	if ((tok == JSON_NUMBER || tok == JSON_STRING) && json_num_i64(c->j, v) == 0)
		return 0;
	t = json_text(c->j, &n);
	if (tok == JSON_NUMBER && json_double(t, n, &d) == 0 && d > -9e18 && d < 9e18) {
		*v = (int64_t)d;
		return 0;
	}
	return odd(c, tok) < 0 ? -1 : 1;
}

static void add_name(struct cpuprofile *c, const char *s, size_t n)
{
	size_t i;

	xgrow(&c->names, &c->namecap, c->nlen + n + 1, 1);
	for (i = 0; i < n; i++)
		c->names[c->nlen + i] = s[i] == ';' ? ':' : (s[i] == '\n' || s[i] == '\r') ? ' ' : s[i];
	c->nlen += n;
	xgrow(&c->noff, &c->offcap, c->nnames + 1, sizeof(*c->noff));
	c->noff[c->nnames++] = c->nlen;
}

/* speedscope's name for a function: its name, or where it is. */
static void name_node(struct cpuprofile *c, struct cpnode *nd, const struct callframe *cf)
{
	char buf[512];
	const char *base;

	nd->name = (uint32_t)c->nnames;
	if (cf->fn && cf->fn[0]) {
		add_name(c, cf->fn, strlen(cf->fn));
		nd->ignore = strcmp(cf->fn, "(root)") == 0 || strcmp(cf->fn, "(idle)") == 0;
		return;
	}
	if (cf->url && cf->url[0]) {
		base = strrchr(cf->url, '/');
		snprintf(buf, sizeof(buf), "(anonymous %.400s:%lld)", base ? base + 1 : cf->url,
			 (long long)cf->line + 1);
	} else {
		snprintf(buf, sizeof(buf), "(anonymous)");
	}
	add_name(c, buf, strlen(buf));
}

static int callframe_member(void *ctx, const char *k, size_t kn, int tok, void *arg)
{
	struct cpuprofile *c = ctx;
	struct callframe *cf = arg;
	size_t n;
	const char *t = json_text(c->j, &n);

	if (kn == 12 && memcmp(k, "functionName", 12) == 0 && tok == JSON_STRING && !cf->fn)
		cf->fn = xstrndup(t, n);
	else if (kn == 3 && memcmp(k, "url", 3) == 0 && tok == JSON_STRING && !cf->url)
		cf->url = xstrndup(t, n);
	else if (kn == 10 && memcmp(k, "lineNumber", 10) == 0)
		return number(c, tok, &cf->line) < 0 ? -1 : 0;
	else
		return json_skip(c->j, tok);
	return 0;
}

static int callframe(struct cpuprofile *c, int tok, struct callframe *cf)
{
	if (tok != JSON_OBJECT)
		return odd(c, tok);
	return json_members(c->j, callframe_member, c, cf) == JSON_OBJECT_END ? 0 : -1;
}

static int node(struct cpuprofile *c, uint32_t parent);

/* "children": ids, or (the old form) the child nodes themselves. */
static int children(struct cpuprofile *c, int tok, uint32_t me)
{
	int64_t id;
	int r;

	if (tok != JSON_ARRAY)
		return odd(c, tok);
	while ((tok = json_next(c->j)) != JSON_ARRAY_END) {
		if (tok == JSON_OBJECT) {
			if (node(c, me) < 0)
				return -1;
			continue;
		}
		if ((r = number(c, tok, &id)) < 0)
			return -1;
		if (r == 0) {
			xgrow(&c->kids, &c->kcap, c->nk + 1, sizeof(*c->kids));
			c->kids[c->nk][0] = me;
			c->kids[c->nk++][1] = id;
		}
	}
	return 0;
}

static int node_member(struct cpuprofile *c, const char *k, size_t kn, int tok, uint32_t me,
		       struct callframe *cf)
{
	int64_t v;
	int r;

	if (kn == 2 && memcmp(k, "id", 2) == 0)
		return number(c, tok, &c->n[me].id) < 0 ? -1 : 0;
	if (kn == 6 && memcmp(k, "parent", 6) == 0) {
		if ((r = number(c, tok, &c->n[me].parent_id)) == 0)
			c->n[me].has_parent = 1;
		return r < 0 ? -1 : 0;
	}
	if (kn == 8 && memcmp(k, "hitCount", 8) == 0) {
		if ((r = number(c, tok, &v)) == 0 && v > 0)
			c->n[me].hits = (uint64_t)v;
		return r < 0 ? -1 : 0;
	}
	if (kn == 9 && memcmp(k, "callFrame", 9) == 0)
		return callframe(c, tok, cf);
	if (kn == 8 && memcmp(k, "children", 8) == 0)
		return children(c, tok, me);
	return callframe_member(c, k, kn, tok, cf);
}

/* One node object (its '{' read); parent: the enclosing node in the old
 * tree form, else NONE. */
static int node(struct cpuprofile *c, uint32_t parent)
{
	struct callframe cf = { NULL, NULL, -1 };
	uint32_t me;
	char key[16];
	size_t n;
	int tok, rc = 0;

	if (c->nn >= NONE - 1)
		return -1;
	xgrow(&c->n, &c->ncap, c->nn + 1, sizeof(*c->n));
	me = (uint32_t)c->nn++;
	memset(&c->n[me], 0, sizeof(c->n[me]));
	c->n[me].pidx = parent;
	c->n[me].sid = NONE;
	while (rc == 0 && (tok = json_next(c->j)) == JSON_KEY) {
		const char *k = json_text(c->j, &n);

		n = n < sizeof(key) ? n : sizeof(key) - 1;
		memcpy(key, k, n);
		rc = node_member(c, key, n, json_next(c->j), me, &cf);
	}
	if (rc == 0 && tok != JSON_OBJECT_END)
		rc = -1;
	name_node(c, &c->n[me], &cf);
	free(cf.fn);
	free(cf.url);
	return rc;
}

/* The plain non-negative ids that come next, many at a time. */
static void plain_ids(struct cpuprofile *c, int64_t **v, size_t *nv, size_t *cap)
{
	uint64_t u[64];
	size_t n, i;

	do {
		n = json_uints(c->j, u, 64);
		xgrow(v, cap, *nv + n, sizeof(**v));
		for (i = 0; i < n; i++)	/* at most 18 digits: they fit */
			(*v)[(*nv)++] = (int64_t)u[i];
	} while (n == 64);
}

static int ids(struct cpuprofile *c, int tok, int64_t **v, size_t *nv, size_t *cap)
{
	int64_t x;
	int r;

	if (tok != JSON_ARRAY)
		return odd(c, tok);
	for (plain_ids(c, v, nv, cap); (tok = json_next(c->j)) != JSON_ARRAY_END;
	     plain_ids(c, v, nv, cap)) {
		if ((r = number(c, tok, &x)) < 0)
			return -1;
		if (*nv == *cap)
			xgrow(v, cap, *nv + 1, sizeof(**v));
		(*v)[(*nv)++] = r == 0 ? x : INT64_MIN;
	}
	return 0;
}

static int top_member(void *ctx, const char *k, size_t kn, int tok, void *arg)
{
	struct cpuprofile *c = ctx;

	(void)arg;
	if ((kn == 5 && memcmp(k, "nodes", 5) == 0 && tok == JSON_ARRAY)) {
		while ((tok = json_next(c->j)) != JSON_ARRAY_END)
			if (tok != JSON_OBJECT ? odd(c, tok) < 0 : node(c, NONE) < 0)
				return -1;
		return 0;
	}
	if (kn == 4 && memcmp(k, "head", 4) == 0 && tok == JSON_OBJECT)
		return node(c, NONE);
	if (kn == 7 && memcmp(k, "samples", 7) == 0)
		return ids(c, tok, &c->samples, &c->ns, &c->scap);
	if ((kn == 10 && memcmp(k, "timeDeltas", 10) == 0) ||
	    (kn == 10 && memcmp(k, "timestamps", 10) == 0)) {
		c->absolute = k[4] == 's';
		c->nt = 0;
		return ids(c, tok, &c->times, &c->nt, &c->tcap);
	}
	return json_skip(c->j, tok);
}

struct idpair {
	int64_t id;		/* a node's id */
	uint32_t idx;		/* its index */
};

static int cmp_id(const void *a, const void *b)
{
	const struct idpair *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static uint32_t lookup(const struct idpair *byid, size_t n, int64_t id)
{
	struct idpair key = { id, 0 };
	const struct idpair *p = bsearch(&key, byid, n, sizeof(*byid), cmp_id);

	return p ? p->idx : NONE;
}

/* lookup, straight through the dense table when there is one. */
static uint32_t find(const struct cpuprofile *c, const struct idpair *byid, int64_t id)
{
	uint64_t k = (uint64_t)id - (uint64_t)c->dmin;

	if (c->dense)
		return k < c->dspan ? c->dense[k] : NONE;
	return lookup(byid, c->nn, id);
}

/* The dense table for sorted ids when they are unique and span at most
 * a few times their number (as DevTools numbers nodes: 1, 2, 3, ...). */
static void make_dense(struct cpuprofile *c, const struct idpair *byid)
{
	uint64_t span;
	size_t i;

	c->dense = NULL;
	if (c->nn == 0)
		return;
	span = (uint64_t)byid[c->nn - 1].id - (uint64_t)byid[0].id + 1;
	if (span == 0 || span > 4 * (uint64_t)c->nn + 64)
		return;
	for (i = 1; i < c->nn; i++)
		if (byid[i].id == byid[i - 1].id)
			return;
	c->dmin = byid[0].id;
	c->dspan = span;
	c->dense = xmalloc((size_t)span * sizeof(*c->dense));
	for (i = 0; i < span; i++)
		c->dense[i] = NONE;
	for (i = 0; i < c->nn; i++)
		c->dense[(uint64_t)byid[i].id - (uint64_t)c->dmin] = byid[i].idx;
}

/* Sets every node's parent from "parent" ids and "children" lists. */
static struct idpair *join(struct cpuprofile *c)
{
	struct idpair *byid = xmalloc((c->nn ? c->nn : 1) * sizeof(*byid));
	size_t i;

	for (i = 0; i < c->nn; i++) {
		byid[i].id = c->n[i].id;
		byid[i].idx = (uint32_t)i;
	}
	qsort(byid, c->nn, sizeof(*byid), cmp_id);
	make_dense(c, byid);
	for (i = 0; i < c->nn; i++)
		if (c->n[i].has_parent)
			c->n[i].pidx = lookup(byid, c->nn, c->n[i].parent_id);
	for (i = 0; i < c->nk; i++) {
		uint32_t child = lookup(byid, c->nn, c->kids[i][1]);

		if (child != NONE && child != (uint32_t)c->kids[i][0])
			c->n[child].pidx = (uint32_t)c->kids[i][0];
	}
	return byid;
}

/* The stack of node x, root first, into stk; a cycle of parents stops
 * after every node was visited once. */
static void stack_of(struct cpuprofile *c, uint32_t x)
{
	size_t k = 0, i;

	while (x != NONE && k < c->nn && !c->n[x].ignore) {
		c->walk[k++] = x;
		x = c->n[x].pidx;
	}
	c->slen = 0;
	for (i = k; i-- > 0;) {
		uint32_t nm = c->n[c->walk[i]].name;
		size_t from = nm ? c->noff[nm - 1] : 0, len = c->noff[nm] - from;

		xgrow(&c->stk, &c->stkcap, c->slen + len + 2, 1);
		if (i + 1 < k)
			c->stk[c->slen++] = ';';
		if (len)
			memcpy(c->stk + c->slen, c->names + from, len);
		c->slen += len;
	}
}

static void put(struct cpuprofile *c, const struct idpair *byid, int64_t id, uint64_t w)
{
	uint32_t x = find(c, byid, id);
	struct fcount fc = { w, 0 };
	struct cpnode *nd;

	if (x == NONE) {
		c->unknown++;
		return;
	}
	nd = &c->n[x];
	if (nd->sid == NONE) {	/* a node's stack is made once */
		stack_of(c, x);
		nd->sid = c->slen ? strtab_intern(c->o->t, c->stk, c->slen, NULL) : NOFRAMES;
		if (nd->sid != NOFRAMES)
			nd->val = strtab_val(c->o->t, nd->sid);
	}
	if (nd->sid == NOFRAMES)
		return;
	fcount_add(nd->val, &fc);
	if (c->o->seq)
		fseq_add(c->o->seq, nd->sid, &fc, NULL);
}

#define AHEAD 16	/* samples whose counts are prefetched ahead */

/* Starts loading the count of the node with id, when known already.
 * Inlined always: GCC takes a function of loads and prefetches only for
 * one without effects and drops its calls (this one was, unseen). */
static inline __attribute__((always_inline)) void prefetch(const struct cpuprofile *c, int64_t id)
{
	uint64_t k = (uint64_t)id - (uint64_t)c->dmin;

	if (c->dense && k < c->dspan && c->dense[k] != NONE && c->n[c->dense[k]].val)
		__builtin_prefetch(c->n[c->dense[k]].val, 1);
}

/* The samples, a run of one node summed: each weighs the time to the
 * next (times clamped so they never go back), or 1 without times. */
static void emit_samples(struct cpuprofile *c, const struct idpair *byid)
{
	int timed = c->nt >= c->ns;
	int64_t raw = 0, t = 0, prev;
	uint64_t acc = 0;
	size_t i;

	c->o->timed = timed;
	for (i = 0; i < c->ns; i++) {
		if (timed) {
			raw = i == 0 || c->absolute ? c->times[i]
						    : (int64_t)((uint64_t)raw + (uint64_t)c->times[i]);
			prev = t;
			t = i && raw < prev ? prev : raw;
			if (i)
				acc += (uint64_t)t - (uint64_t)prev;
		} else if (i) {
			acc++;
		}
		if (i + AHEAD < c->ns)
			prefetch(c, c->samples[i + AHEAD]);
		if (i && c->samples[i] != c->samples[i - 1]) {
			if (acc)
				put(c, byid, c->samples[i - 1], acc);
			acc = 0;
		}
	}
	acc += !timed;
	if (c->ns && acc)
		put(c, byid, c->samples[c->ns - 1], acc);
}

static void note(struct cpuprofile *c, unsigned long n, const char *what)
{
	char msg[200];

	if (!n)
		return;
	snprintf(msg, sizeof(msg), "%lu %s", n, what);
	c->o->warn(c->o->ctx, c->o->name, 0, msg);
}

static int emit(struct cpuprofile *c)
{
	struct idpair *byid = join(c);
	size_t i;

	c->walk = xmalloc((c->nn ? c->nn : 1) * sizeof(*c->walk));
	if (c->ns) {
		emit_samples(c, byid);
	} else {
		for (i = 0; i < c->nn; i++)
			if (c->n[i].hits)
				put(c, byid, c->n[i].id, c->n[i].hits);
	}
	if (c->bad) {
		char msg[160];

		snprintf(msg, sizeof(msg), "%lu values of the wrong kind skipped (the first at byte %llu)",
			 c->bad, (unsigned long long)c->bad_at);
		c->o->warn(c->o->ctx, c->o->name, 0, msg);
	}
	note(c, c->unknown, "samples naming no node skipped");
	free(byid);
	free(c->dense);
	c->dense = NULL;
	if (c->nn == 0) {
		c->o->warn(c->o->ctx, c->o->name, 0, "no nodes: not a .cpuprofile");
		return 1;
	}
	return 0;
}

int cpuprofile_read(struct json *j, struct chrome_opts *o)
{
	struct cpuprofile c;
	int tok, rc = 0;

	memset(&c, 0, sizeof(c));
	c.j = j;
	c.o = o;
	if ((tok = json_next(j)) == JSON_OBJECT)
		tok = json_members(j, top_member, &c, NULL);
	if (tok != JSON_OBJECT_END || json_next(j) != JSON_END) {
		o->warn(o->ctx, o->name, 0, tok == JSON_ERROR || json_next(j) == JSON_ERROR ?
			json_error(j) : "not a JSON object");
		rc = 1;
	}
	rc |= emit(&c);
	free(c.n);
	free(c.kids);
	free(c.names);
	free(c.noff);
	free(c.samples);
	free(c.times);
	free(c.walk);
	free(c.stk);
	return rc;
}

/* A profile in pieces (a trace's sampled profiles): see chrome.h. */
struct cpuprofile *cpuprofile_new(struct json *j, struct chrome_opts *o)
{
	struct cpuprofile *c = xcalloc(1, sizeof(*c));

	c->j = j;
	c->o = o;
	return c;
}

void cpuprofile_free(struct cpuprofile *c)
{
	if (!c)
		return;
	free(c->n);
	free(c->kids);
	free(c->names);
	free(c->noff);
	free(c->samples);
	free(c->times);
	free(c->walk);
	free(c->stk);
	free(c);
}

void cpuprofile_clear(struct cpuprofile *c)
{
	c->nn = c->nk = c->nlen = c->nnames = c->ns = c->nt = 0;
	c->absolute = 0;
	c->bad = 0;
}

int cpuprofile_object(struct cpuprofile *c, int tok)
{
	if (tok != JSON_OBJECT)
		return odd(c, tok);
	return json_members(c->j, top_member, c, NULL) == JSON_OBJECT_END ? 0 : -1;
}

int cpuprofile_deltas(struct cpuprofile *c, int tok)
{
	c->absolute = 0;
	c->nt = 0;
	return ids(c, tok, &c->times, &c->nt, &c->tcap);
}

int cpuprofile_has(const struct cpuprofile *c)
{
	return c->nn || c->ns;
}

size_t cpuprofile_nodes(const struct cpuprofile *c)
{
	return c->nn;
}

/* src's names and nodes after dst's, their indices moved along. */
static void append_nodes(struct cpuprofile *dst, const struct cpuprofile *src)
{
	size_t i, base = dst->nlen;

	xgrow(&dst->names, &dst->namecap, dst->nlen + src->nlen + 1, 1);
	if (src->nlen)
		memcpy(dst->names + dst->nlen, src->names, src->nlen);
	dst->nlen += src->nlen;
	xgrow(&dst->noff, &dst->offcap, dst->nnames + src->nnames, sizeof(*dst->noff));
	xgrow(&dst->n, &dst->ncap, dst->nn + src->nn, sizeof(*dst->n));
	xgrow(&dst->kids, &dst->kcap, dst->nk + src->nk, sizeof(*dst->kids));
	for (i = 0; i < src->nn; i++) {
		dst->n[dst->nn + i] = src->n[i];
		dst->n[dst->nn + i].name += (uint32_t)dst->nnames;
		if (src->n[i].pidx != NONE)
			dst->n[dst->nn + i].pidx += (uint32_t)dst->nn;
	}
	for (i = 0; i < src->nk; i++) {
		dst->kids[dst->nk + i][0] = src->kids[i][0] + (int64_t)dst->nn;
		dst->kids[dst->nk + i][1] = src->kids[i][1];
	}
	for (i = 0; i < src->nnames; i++)
		dst->noff[dst->nnames + i] = src->noff[i] + base;
	dst->nn += src->nn;
	dst->nk += src->nk;
	dst->nnames += src->nnames;
}

void cpuprofile_append(struct cpuprofile *dst, const struct cpuprofile *src)
{
	size_t i;

	if (dst->nn + src->nn >= NONE - 1 || dst->ns + src->ns >= SIZE_MAX / 16)
		return;
	append_nodes(dst, src);
	/* One time delta a sample: a piece without them adds nothing to the
	 * clock (zeros), surplus ones are dropped. */
	xgrow(&dst->samples, &dst->scap, dst->ns + src->ns, sizeof(*dst->samples));
	xgrow(&dst->times, &dst->tcap, dst->ns + src->ns, sizeof(*dst->times));
	for (i = 0; i < src->ns; i++) {
		dst->samples[dst->ns + i] = src->samples[i];
		dst->times[dst->ns + i] = i < src->nt ? src->times[i] : 0;
	}
	dst->ns += src->ns;
	dst->nt = dst->ns;
	if (src->bad && !dst->bad++)
		dst->bad_at = src->bad_at;
}

int cpuprofile_emit(struct cpuprofile *c)
{
	return emit(c);
}
