/* trace: the duration events are read into an array, then, thread by
 * thread, begin/end pairs become intervals beside the complete events,
 * and the intervals nest by time (sorted by start, the longer first at a
 * tie, then input order): each weighs its duration less its children's,
 * as stackcollapse-chrome-tracing.py computes it.  An event's args may
 * come before its name, so any args.data holding a cpuProfile or
 * timeDeltas is read into a piece first, and the piece is appended to
 * its sampled profile (by pid and id) once the event proves to be one. */
#include "chrome.h"
#include "folded.h"
#include "json.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONAME UINT32_MAX

struct tev {
	double ts;		/* start, microseconds */
	double dur;		/* duration ("X"), or after pairing */
	uint32_t thread;	/* pid/tid id */
	uint32_t name;		/* name id, or NONAME */
	uint32_t seq;		/* input order */
	char ph;		/* 'X', 'B' or 'E' */
};

struct tr {
	struct json *j;			/* the tokens */
	struct chrome_opts *o;		/* where stacks go */
	struct strtab *names;		/* event names, tidied; id = index */
	struct strtab *threads;		/* "pid/tid" */
	struct tev *ev;			/* duration events */
	size_t nev, evcap;		/* used, room */
	struct tev *iv;			/* one thread's intervals */
	size_t niv, ivcap;		/* used, room */
	struct tev *open;		/* its open "B" events */
	size_t nopen, opencap;		/* used, room */
	uint32_t *stack;		/* intervals open while nesting */
	double *self;			/* their own time */
	size_t depth, stackcap, selfcap;	/* used, room */
	char *stk;			/* one stack's text */
	size_t slen, stkcap;		/* its length, room */
	unsigned long bad;		/* events lacking what they need */
	uint64_t bad_at;		/* the first one's offset */
	unsigned long unmatched;	/* "E" closing nothing open */
	unsigned long unclosed;		/* "B" never ended */
	unsigned long overlap;		/* children longer than their parent */
	struct cpuprofile *piece;	/* the event's cpuProfile, if any */
	struct strtab *profkeys;	/* sampled profiles' "pid/id" */
	struct cpuprofile **prof;	/* the profiles, by key id */
	size_t nprof, profcap;		/* how many, room */
};

/* An event under construction. */
struct raw {
	char ph;		/* phase */
	int has_ts, has_dur;	/* given */
	double ts, dur;		/* values */
	char pid[32], tid[32];	/* as written */
	char id[32];		/* as written */
	uint32_t name;		/* name id or NONAME */
	int sampled;		/* a ProfileChunk or CpuProfile event */
};

static uint32_t intern_name(struct tr *r, const char *s, size_t n)
{
	char buf[256];
	char *d = n <= sizeof(buf) ? buf : xmalloc(n);
	uint32_t id;
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = s[i] == ';' ? ':' : (s[i] == '\n' || s[i] == '\r') ? ' ' : s[i];
	id = strtab_intern(r->names, d, n, NULL);
	if (d != buf)
		free(d);
	return id;
}

/* A number, or a string holding one (some writers quote ts). */
static int num(struct tr *r, int tok, double *v)
{
	size_t n;
	const char *t = json_text(r->j, &n);

	if (tok != JSON_NUMBER && tok != JSON_STRING)
		return -1;
	return json_double(t, n, v);
}

static void id_text(struct tr *r, int tok, char *dst, size_t cap)
{
	size_t n;
	const char *t = json_text(r->j, &n);

	if (tok != JSON_NUMBER && tok != JSON_STRING)
		n = 0;
	n = n < cap - 1 ? n : cap - 1;
	memcpy(dst, t, n);
	dst[n] = '\0';
}

/* The members of an object value (tok its first token; anything else is
 * passed over) to fn. */
static int object(struct tr *r, int tok, json_member_fn *fn)
{
	if (tok != JSON_OBJECT)
		return json_skip(r->j, tok);
	return json_members(r->j, fn, r, NULL) == JSON_OBJECT_END ? 0 : -1;
}

/* A member of args.data: its cpuProfile and timeDeltas into r->piece. */
static int data_member(void *ctx, const char *k, size_t n, int tok, void *arg)
{
	struct tr *r = ctx;

	(void)arg;
	if (n == 10 && memcmp(k, "cpuProfile", 10) == 0)
		return cpuprofile_object(r->piece, tok);
	if (n == 10 && memcmp(k, "timeDeltas", 10) == 0)
		return cpuprofile_deltas(r->piece, tok);
	return json_skip(r->j, tok) < 0 ? -1 : 0;
}

/* A member of an event's args: only data matters. */
static int args_member(void *ctx, const char *k, size_t n, int tok, void *arg)
{
	struct tr *r = ctx;

	(void)arg;
	if (n == 4 && memcmp(k, "data", 4) == 0)
		return object(r, tok, data_member);
	return json_skip(r->j, tok) < 0 ? -1 : 0;
}

/* An event's args (tok its first token). */
static int args(struct tr *r, int tok)
{
	return object(r, tok, args_member);
}

/* A sampled profile's piece (read into r->piece) onto its profile: by pid
 * and id (a CpuProfile event has no id: by thread). */
static void keep_piece(struct tr *r, const struct raw *e)
{
	char key[100];
	uint32_t k;
	int n, added;

	if (!cpuprofile_has(r->piece))
		return;
	n = snprintf(key, sizeof(key), "%s/%s%s", e->pid, e->id[0] ? "" : "tid ",
		     e->id[0] ? e->id : e->tid);
	k = strtab_intern(r->profkeys, key, (size_t)n, &added);
	if (added) {
		xgrow(&r->prof, &r->profcap, r->nprof + 1, sizeof(*r->prof));
		r->prof[r->nprof++] = cpuprofile_new(r->j, r->o);
	}
	cpuprofile_append(r->prof[k], r->piece);
}

static int event_member(struct tr *r, const char *k, size_t kn, int tok, struct raw *e)
{
	size_t n;
	const char *t = json_text(r->j, &n);

	if (kn == 2 && memcmp(k, "ph", 2) == 0 && tok == JSON_STRING && n == 1)
		e->ph = t[0];
	else if (kn == 4 && memcmp(k, "name", 4) == 0 && tok == JSON_STRING) {
		e->name = intern_name(r, t, n);
		e->sampled = (n == 12 && memcmp(t, "ProfileChunk", 12) == 0) ||
			     (n == 10 && memcmp(t, "CpuProfile", 10) == 0);
	} else if (kn == 4 && memcmp(k, "args", 4) == 0)
		return args(r, tok);
	else if (kn == 2 && memcmp(k, "ts", 2) == 0)
		e->has_ts = num(r, tok, &e->ts) == 0;
	else if (kn == 3 && memcmp(k, "dur", 3) == 0)
		e->has_dur = num(r, tok, &e->dur) == 0;
	else if (kn == 3 && memcmp(k, "pid", 3) == 0)
		id_text(r, tok, e->pid, sizeof(e->pid));
	else if (kn == 3 && memcmp(k, "tid", 3) == 0)
		id_text(r, tok, e->tid, sizeof(e->tid));
	else if (kn == 2 && memcmp(k, "id", 2) == 0)
		id_text(r, tok, e->id, sizeof(e->id));
	return json_skip(r->j, tok);
}

static void keep(struct tr *r, const struct raw *e)
{
	char key[66];
	struct tev *v;
	int n;

	if (e->ph != 'X' && e->ph != 'B' && e->ph != 'E')
		return;
	if (!e->has_ts || (e->ph == 'X' && (!e->has_dur || e->dur < 0)) ||
	    (e->ph != 'E' && e->name == NONAME) || r->nev >= UINT32_MAX) {
		if (!r->bad++)
			r->bad_at = json_offset(r->j);
		return;
	}
	n = snprintf(key, sizeof(key), "%s/%s", e->pid, e->tid);
	xgrow(&r->ev, &r->evcap, r->nev + 1, sizeof(*r->ev));
	v = &r->ev[r->nev];
	v->ts = e->ts;
	v->dur = e->ph == 'X' ? e->dur : 0;
	v->thread = strtab_intern(r->threads, key, (size_t)n, NULL);
	v->name = e->name;
	v->seq = (uint32_t)r->nev++;
	v->ph = e->ph;
}

static int event(struct tr *r)
{
	struct raw e;
	char key[8];
	size_t n;
	int tok;

	memset(&e, 0, sizeof(e));
	e.name = NONAME;
	cpuprofile_clear(r->piece);
	while ((tok = json_next(r->j)) == JSON_KEY) {
		const char *k = json_text(r->j, &n);

		n = n < sizeof(key) ? n : sizeof(key) - 1;
		memcpy(key, k, n);
		if (event_member(r, key, n, json_next(r->j), &e) < 0)
			return -1;
	}
	if (tok != JSON_OBJECT_END)
		return -1;
	if (e.sampled)
		keep_piece(r, &e);
	else
		keep(r, &e);
	return 0;
}

/* The event list (its '[' read). */
static int events(struct tr *r)
{
	int tok;

	while ((tok = json_next(r->j)) != JSON_ARRAY_END) {
		if (tok == JSON_OBJECT) {
			if (event(r) < 0)
				return -1;
		} else if (json_skip(r->j, tok) < 0) {
			return -1;
		}
	}
	return 0;
}

/* The document: the event list itself, or an object holding it as
 * traceEvents.  Returns 0, or -1 at a fault. */
static int document(struct tr *r)
{
	int tok = json_next(r->j);
	size_t n;

	if (tok == JSON_ARRAY)
		return events(r) < 0 || json_next(r->j) != JSON_END ? -1 : 0;
	if (tok != JSON_OBJECT)
		return -1;
	while ((tok = json_next(r->j)) == JSON_KEY) {
		const char *k = json_text(r->j, &n);
		int is_events = n == 11 && memcmp(k, "traceEvents", 11) == 0;

		tok = json_next(r->j);
		if (is_events && tok == JSON_ARRAY) {
			if (events(r) < 0)
				return -1;
		} else if (json_skip(r->j, tok) < 0) {
			return -1;
		}
	}
	return tok == JSON_OBJECT_END && json_next(r->j) == JSON_END ? 0 : -1;
}

static int cmp_input(const void *a, const void *b)
{
	const struct tev *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Starts first; at a tie the longer (the parent) first, then a
 * begin/end pair before a complete event, then input order. */
static int cmp_nest(const void *a, const void *b)
{
	const struct tev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	if (x->ph != y->ph)
		return x->ph == 'B' ? -1 : 1;	/* as speedscope nests them */
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void interval(struct tr *r, const struct tev *b, double end)
{
	xgrow(&r->iv, &r->ivcap, r->niv + 1, sizeof(*r->iv));
	r->iv[r->niv] = *b;
	r->iv[r->niv++].dur = end - b->ts;
}

/* An "E": ends the innermost open "B" (of its name, when it has one),
 * and whatever was opened inside that. */
static void end_event(struct tr *r, const struct tev *e)
{
	size_t d = r->nopen;

	while (d > 0 && e->name != NONAME && r->open[d - 1].name != e->name)
		d--;
	if (d == 0) {
		r->unmatched++;
		return;
	}
	while (r->nopen >= d)
		interval(r, &r->open[--r->nopen], e->ts);
}

/* One thread's events (sorted by time) to intervals in r->iv. */
static void pair(struct tr *r, const struct tev *ev, size_t n)
{
	double last = 0;
	size_t i;

	r->niv = r->nopen = 0;
	for (i = 0; i < n; i++) {
		const struct tev *e = &ev[i];

		if (i == 0 || e->ts + e->dur > last)
			last = e->ts + e->dur;
		if (e->ph == 'X') {
			interval(r, e, e->ts + e->dur);
		} else if (e->ph == 'B') {
			xgrow(&r->open, &r->opencap, r->nopen + 1, sizeof(*r->open));
			r->open[r->nopen++] = *e;
		} else {
			end_event(r, e);
		}
	}
	r->unclosed += r->nopen;
	while (r->nopen)
		interval(r, &r->open[--r->nopen], last);
}

/* The open intervals as a stack, weighing the innermost's own time. */
static void save(struct tr *r)
{
	double w = r->self[r->depth - 1];
	struct fcount c;
	size_t i, len;

	if (w < 0) {
		r->overlap++;
		return;
	}
	if (w == 0)
		return;
	r->slen = 0;
	for (i = 0; i < r->depth; i++) {
		const char *s = strtab_str(r->names, r->iv[r->stack[i]].name, &len);

		xgrow(&r->stk, &r->stkcap, r->slen + len + 2, 1);
		if (i)
			r->stk[r->slen++] = ';';
		memcpy(r->stk + r->slen, s, len);
		r->slen += len;
	}
	json_fcount(w, &c);
	fseq_put(r->o->t, r->o->seq, r->stk, r->slen, &c);
}

static void nest(struct tr *r)
{
	size_t i;

	if (r->niv)	/* qsort takes no NULL, even for nothing */
		qsort(r->iv, r->niv, sizeof(*r->iv), cmp_nest);
	r->depth = 0;
	for (i = 0; i < r->niv; i++) {
		const struct tev *e = &r->iv[i];

		while (r->depth &&
		       r->iv[r->stack[r->depth - 1]].ts + r->iv[r->stack[r->depth - 1]].dur <= e->ts) {
			save(r);
			r->depth--;
		}
		if (r->depth)
			r->self[r->depth - 1] -= e->dur;
		xgrow(&r->stack, &r->stackcap, r->depth + 1, sizeof(*r->stack));
		xgrow(&r->self, &r->selfcap, r->depth + 1, sizeof(*r->self));
		r->stack[r->depth] = (uint32_t)i;
		r->self[r->depth++] = e->dur;
	}
	for (; r->depth; r->depth--)
		save(r);
}

static void note(struct tr *r, unsigned long n, const char *what)
{
	char msg[200];

	if (!n)
		return;
	snprintf(msg, sizeof(msg), "%lu %s", n, what);
	r->o->warn(r->o->ctx, r->o->name, 0, msg);
}

/* The sampled profiles, when the trace has any: they are what is drawn.
 * Returns 1 when there were some. */
static int emit_profiles(struct tr *r)
{
	char msg[200];
	size_t i, empty = 0;

	if (!r->nprof)
		return 0;
	for (i = 0; i < r->nprof; i++)
		if (cpuprofile_nodes(r->prof[i]))
			cpuprofile_emit(r->prof[i]);
		else
			empty++;
	note(r, empty, "sampled profiles whose chunks hold samples but no nodes skipped");
	if (r->nev) {
		snprintf(msg, sizeof(msg), "%zu duration events left out: the trace's sampled "
			 "profiles (ProfileChunk, CpuProfile events) are drawn instead", r->nev);
		r->o->warn(r->o->ctx, r->o->name, 0, msg);
	}
	return 1;
}

/* Whether ev[0..n) (one thread's, in input order) is already in start
 * order; a NaN start says no (cmp_input's order is then qsort's own). */
static int in_order(const struct tev *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ev[i].ts != ev[i].ts || (i && ev[i].ts < ev[i - 1].ts))
			return 0;
	return 1;
}

/* The events in cmp_input's order (thread, start, input order: a total
 * order, so any sort gives the same): grouped by thread keeping input
 * order, and only a thread whose starts go back sorted. */
static void sort_events(struct tr *r)
{
	size_t nt = strtab_count(r->threads), i, *at;
	struct tev *by;

	if (r->nev > UINT32_MAX || nt == 0) {	/* seq would repeat */
		qsort(r->ev, r->nev, sizeof(*r->ev), cmp_input);
		return;
	}
	at = xcalloc(nt + 1, sizeof(*at));
	by = xmalloc(r->nev * sizeof(*by));
	for (i = 0; i < r->nev; i++)
		at[r->ev[i].thread + 1]++;
	for (i = 0; i < nt; i++)
		at[i + 1] += at[i];
	for (i = 0; i < r->nev; i++)
		by[at[r->ev[i].thread]++] = r->ev[i];
	free(r->ev);
	r->ev = by;
	r->evcap = r->nev;
	for (i = nt; i > 0; i--)	/* at[t] is now where thread t + 1 starts */
		at[i] = at[i - 1];
	at[0] = 0;
	for (i = 0; i < nt; i++)
		if (!in_order(by + at[i], at[i + 1] - at[i]))
			qsort(by + at[i], at[i + 1] - at[i], sizeof(*by), cmp_input);
	free(at);
}

static void emit(struct tr *r)
{
	size_t i = 0, k;

	if (emit_profiles(r))
		return;
	if (r->nev)
		sort_events(r);
	while (i < r->nev) {
		for (k = i; k < r->nev && r->ev[k].thread == r->ev[i].thread; k++)
			;
		pair(r, r->ev + i, k - i);
		nest(r);
		i = k;
	}
	if (r->bad) {
		char msg[160];

		snprintf(msg, sizeof(msg), "%lu events without a name, ts or dur skipped (the first at byte %llu)",
			 r->bad, (unsigned long long)r->bad_at);
		r->o->warn(r->o->ctx, r->o->name, 0, msg);
	}
	note(r, r->unmatched, "end events (\"E\") with no begin event open skipped");
	note(r, r->unclosed, "begin events (\"B\") never ended: closed at the thread's last time");
	note(r, r->overlap, "events overlapping the end of their parent: their parent's own time was negative, left out");
}

int trace_read(struct json *j, struct chrome_opts *o)
{
	struct tr r;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	r.j = j;
	r.o = o;
	r.names = strtab_new(1);
	r.threads = strtab_new(1);
	r.profkeys = strtab_new(1);
	r.piece = cpuprofile_new(j, o);
	o->timed = 1;
	if (document(&r) < 0) {
		if (json_truncated(j) && r.nev) {
			o->warn(o->ctx, o->name, 0, "the trace ends without closing its event list (a partial trace): read as far as it goes");
		} else {
			o->warn(o->ctx, o->name, 0, json_next(j) == JSON_ERROR ? json_error(j) : "not a trace-event array or object");
			rc = 1;
		}
	}
	emit(&r);
	if (r.nev == 0 && r.nprof == 0 && rc == 0) {
		o->warn(o->ctx, o->name, 0, "no duration events (\"X\", \"B\", \"E\")");
		rc = 1;
	}
	strtab_free(r.names);
	strtab_free(r.threads);
	strtab_free(r.profkeys);
	cpuprofile_free(r.piece);
	while (r.nprof)
		cpuprofile_free(r.prof[--r.nprof]);
	free(r.prof);
	free(r.ev);
	free(r.iv);
	free(r.open);
	free(r.stack);
	free(r.self);
	free(r.stk);
	return rc;
}
