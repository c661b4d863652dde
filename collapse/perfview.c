/* perfview: samples from the PerfView parsers to collapsed stacks. */
#include "perfview.h"
#include "bytes.h"
#include "lread.h"
#include "pvjson.h"
#include "pvxml.h"
#include "strtab.h"
#include "xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (1 << 20)		/* text read per refill */
#define MAX_ID (1L << 24)	/* interned IDs beyond this are refused */
#define REPORT_MAX 5		/* problems named per input */

/* A sample kept for time order. */
struct pv_timed {
	double time;		/* ms */
	uint64_t seq;		/* arrival, to keep the sort stable */
	uint32_t key;		/* stack id in out, or the XML stack ID while pending */
	int pending;		/* key is an XML stack ID of the current file */
	struct fcount c;	/* metric */
};

/* One node of the interned form's caller tree. */
struct pv_node {
	int32_t caller;		/* stack ID, -1 for none */
	int32_t frame;		/* frame ID */
	uint32_t memo;		/* id in out + 1 once resolved, 0 before */
	int defined;		/* a Stack element gave it */
	int used;		/* samples refer to it (weight is theirs) */
	struct fcount weight;	/* summed metric of its samples */
};

struct pv {
	struct pv_opts o;	/* options */
	struct strtab *out;	/* stacks -> struct fcount */
	pv_warn_fn *warn;	/* messages */
	void *ctx;		/* for warn */
	struct pv_stats stats;	/* counts */
	const char *name;	/* input being read */
	unsigned reported;	/* problems named for it */
	uint32_t *frames;	/* frame ID -> id in names + 1 (0: undefined) */
	size_t nframes;		/* slots in frames */
	struct strtab *names;	/* frame names of the current input */
	struct pv_node *nodes;	/* stack ID -> node */
	size_t nnodes;		/* slots in nodes */
	struct pv_timed *timed;	/* samples in arrival order (time_order) */
	size_t ntimed;		/* how many */
	size_t captimed;	/* room */
	size_t file_first;	/* first of timed from the current input */
	char *buf;		/* a stack being built */
	size_t cap;		/* its room */
};

struct pv *pv_new(const struct pv_opts *o, struct strtab *out, pv_warn_fn *warn, void *ctx)
{
	struct pv *p = xcalloc(1, sizeof(*p));

	p->o = *o;
	p->out = out;
	p->warn = warn;
	p->ctx = ctx;
	return p;
}

static void reset_file(struct pv *p)
{
	free(p->frames);
	free(p->nodes);
	strtab_free(p->names);
	p->frames = NULL;
	p->nodes = NULL;
	p->nframes = p->nnodes = 0;
	p->names = NULL;
}

void pv_free(struct pv *p)
{
	if (!p)
		return;
	reset_file(p);
	free(p->timed);
	free(p->buf);
	free(p);
}

const struct pv_stats *pv_stats(const struct pv *p)
{
	return &p->stats;
}

void pv_warn(struct pv *p, const struct pvin *in, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->warn(p->ctx, p->name, in ? in->line : 0, in ? in->col : 0, msg);
}

int pv_broken(struct pv *p, struct pvin *in, const char *lang, const char *what)
{
	struct pvin at;
	int c = pvin_peek(in);

	at = *in;
	at.col += c >= 0 && c != '\n';
	pv_warn(p, &at, "broken %s: %s", lang, what);
	return -1;
}

/* A sample that cannot be used: counted, the first few named. */
static void skip(struct pv *p, const struct pvin *in, const char *why)
{
	p->stats.skipped++;
	if (p->reported++ < REPORT_MAX)
		pv_warn(p, in, "sample skipped: %s", why);
}

int pv_number(const char *s, size_t len, double *d)
{
	char tmp[64], *end;

	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (len == 0 || len >= sizeof(tmp))
		return -1;
	if (bytes_decimal(s, len, d) == 0)
		return 0;
	memcpy(tmp, s, len);
	tmp[len] = 0;
	errno = 0;
	*d = strtod(tmp, &end);
	return *end || !isfinite(*d) || (s[0] != '-' && s[0] != '.' && (s[0] < '0' || s[0] > '9'))
	       ? -1 : 0;
}

/* The metric (default 1) as a count; returns 0 or -1 after skip(). */
static int metric(struct pv *p, const struct pvin *in, const char *s, size_t len, struct fcount *c)
{
	double d;

	c->n = 1;
	c->frac = 0;
	if (!s)
		return 0;
	if (folded_count(s, len, c) == 0)
		return 0;
	if (pv_number(s, len, &d) < 0) {
		skip(p, in, "the Metric is not a finite number");
		return -1;
	}
	if (d < 0) {
		skip(p, in, "a negative Metric has no place in a flame graph");
		return -1;
	}
	c->n = 0;
	c->frac = d;
	return 0;
}

/* Parses the time and applies --begin/--end; 1 keep, 0 drop, -1 bad. */
static int when(struct pv *p, const struct pvin *in, const char *s, size_t len, double *t)
{
	*t = 0;
	if (s && pv_number(s, len, t) < 0) {
		skip(p, in, "the Time is not a finite number");
		return -1;
	}
	if ((p->o.has_begin && *t < p->o.begin) || (p->o.has_end && *t >= p->o.end))
		return 0;
	return 1;
}

/* Appends a frame name to buf at *len, after a ';' unless it is the first
 * (which may be empty): ';' in a name would split it, so it becomes ':';
 * line breaks become spaces. */
static void put_frame(struct pv *p, size_t *len, int first, const char *s, size_t n)
{
	size_t i;

	xgrow(&p->buf, &p->cap, *len + n + 2, 1);
	if (!first)
		p->buf[(*len)++] = ';';
	for (i = 0; i < n; i++) {
		char c = s[i];

		p->buf[(*len)++] = c == ';' ? ':' : (c == '\n' || c == '\r') ? ' ' : c;
	}
}

static void keep(struct pv *p, uint32_t key, int pending, double t, const struct fcount *c)
{
	struct pv_timed *e;

	p->stats.samples++;
	if (!p->o.time_order) {
		fcount_add(strtab_val(p->out, key), c);
		return;
	}
	xgrow(&p->timed, &p->captimed, p->ntimed + 1, sizeof(*p->timed));
	e = &p->timed[p->ntimed];
	e->time = t;
	e->seq = p->ntimed++;
	e->key = key;
	e->pending = pending;
	e->c = *c;
}

void pv_sample_frames(struct pv *p, const struct pvin *in, const char *frames,
		      const size_t *lens, size_t n, const char *mtext, size_t mlen,
		      const char *ttext, size_t tlen)
{
	const char **at;
	struct fcount c;
	size_t i, len = 0, off = 0;
	double t;

	if (when(p, in, ttext, tlen, &t) <= 0 || metric(p, in, mtext, mlen, &c) < 0)
		return;
	if (n == 0) {
		skip(p, in, "it has no frames");
		return;
	}
	at = xmalloc(n * sizeof(*at));
	for (i = 0; i < n; i++) {
		at[i] = frames + off;
		off += lens[i];
	}
	for (i = n; i-- > 0;)
		put_frame(p, &len, i == n - 1, at[i], lens[i]);
	free(at);
	keep(p, strtab_intern(p->out, p->buf, len, NULL), 0, t, &c);
}

/* Checks an interned ID; returns 0 or -1 after a warning. */
static int id_ok(struct pv *p, const struct pvin *in, long id, const char *what)
{
	if (id >= 0 && id < MAX_ID)
		return 0;
	if (p->reported++ < REPORT_MAX)
		pv_warn(p, in, "%s ID %ld is out of range (0 to %ld): ignored", what, id, MAX_ID - 1);
	p->stats.bad_input = 1;
	return -1;
}

void pv_frame(struct pv *p, const struct pvin *in, long id, const char *name, size_t len)
{
	size_t old = p->nframes;

	if (id_ok(p, in, id, "Frame") < 0)
		return;
	if (!p->names)
		p->names = strtab_new(0);
	if ((size_t)id >= p->nframes) {
		xgrow(&p->frames, &p->nframes, (size_t)id + 1, sizeof(*p->frames));
		memset(p->frames + old, 0, (p->nframes - old) * sizeof(*p->frames));
	}
	p->frames[id] = strtab_intern(p->names, name, len, NULL) + 1;
}

/* The node for a stack ID, created when new. */
static struct pv_node *node(struct pv *p, long id)
{
	size_t old = p->nnodes;

	if ((size_t)id >= p->nnodes) {
		xgrow(&p->nodes, &p->nnodes, (size_t)id + 1, sizeof(*p->nodes));
		memset(p->nodes + old, 0, (p->nnodes - old) * sizeof(*p->nodes));
	}
	return &p->nodes[id];
}

void pv_stack(struct pv *p, const struct pvin *in, long id, long caller, long fid)
{
	struct pv_node *nd;

	if (id_ok(p, in, id, "Stack") < 0 || id_ok(p, in, fid, "Frame") < 0 ||
	    (caller != -1 && id_ok(p, in, caller, "CallerID") < 0))
		return;
	nd = node(p, id);
	nd->caller = (int32_t)caller;
	nd->frame = (int32_t)fid;
	nd->defined = 1;
}

void pv_sample_stack(struct pv *p, const struct pvin *in, long sid, const char *mtext,
		     size_t mlen, const char *ttext, size_t tlen)
{
	struct pv_node *nd;
	struct fcount c;
	double t;

	if (when(p, in, ttext, tlen, &t) <= 0 || metric(p, in, mtext, mlen, &c) < 0)
		return;
	if (sid < 0 || sid >= MAX_ID) {
		skip(p, in, "its StackID is out of range");
		return;
	}
	nd = node(p, sid);
	if (p->o.time_order) {
		keep(p, (uint32_t)sid, 1, t, &c);
		return;
	}
	nd->used = 1;
	fcount_add(&nd->weight, &c);
	p->stats.samples++;
}

/* Builds the stack of node id root first into buf; returns its length,
 * or -1 when the chain is broken (undefined stack or frame, or a cycle). */
static long build(struct pv *p, long id)
{
	size_t depth = 0, len = 0, i;
	long at = id;
	int first = 1;
	uint32_t *chain = NULL;
	size_t cap = 0;

	while (at != -1) {
		if (at < 0 || (size_t)at >= p->nnodes || !p->nodes[at].defined || depth > p->nnodes)
			goto broken;
		xgrow(&chain, &cap, depth + 1, sizeof(*chain));
		chain[depth++] = (uint32_t)at;
		at = p->nodes[at].caller;
	}
	for (i = depth; i-- > 0;) {
		int32_t f = p->nodes[chain[i]].frame;
		size_t n;
		const char *name;

		if ((size_t)f >= p->nframes || !p->frames[f])
			goto broken;
		name = strtab_str(p->names, p->frames[f] - 1, &n);
		/* PerfView's own root pseudo-frame says nothing. */
		if (i == depth - 1 && depth > 1 && n == 4 && memcmp(name, "ROOT", 4) == 0)
			continue;
		put_frame(p, &len, first, name, n);
		first = 0;
	}
	free(chain);
	return (long)len;
broken:
	free(chain);
	return -1;
}

/* The id in out of XML stack sid, or UINT32_MAX when it is broken. */
static uint32_t resolve(struct pv *p, long sid)
{
	struct pv_node *nd = &p->nodes[sid];
	long len;

	if (nd->memo)
		return nd->memo - 1;
	len = build(p, sid);
	if (len < 0)
		return UINT32_MAX;
	nd->memo = strtab_intern(p->out, p->buf, (size_t)len, NULL) + 1;
	return nd->memo - 1;
}

/* End of an input: interned stacks become stacks in out. */
static void file_end(struct pv *p)
{
	size_t i, broken = 0;

	for (i = 0; i < p->nnodes && !p->o.time_order; i++) {
		struct pv_node *nd = &p->nodes[i];
		uint32_t id;

		if (!nd->used)
			continue;
		id = resolve(p, (long)i);
		if (id == UINT32_MAX) {
			broken++;
			p->stats.samples--;
			p->stats.skipped++;
			continue;
		}
		fcount_add(strtab_val(p->out, id), &nd->weight);
	}
	for (i = p->file_first; i < p->ntimed; i++) {
		struct pv_timed *e = &p->timed[i];

		if (!e->pending)
			continue;
		e->pending = 0;
		e->key = (size_t)e->key < p->nnodes ? resolve(p, (long)e->key) : UINT32_MAX;
		if (e->key == UINT32_MAX) {
			broken++;
			p->stats.samples--;
			p->stats.skipped++;
		}
	}
	if (broken) {
		pv_warn(p, NULL, "samples of %zu stacks skipped: the stacks refer to "
			"undefined stacks or frames, or loop", broken);
		p->stats.bad_input = 1;
	}
	reset_file(p);
}

int pvin_fill(struct pvin *in)
{
	ssize_t n;

	if (in->eof)
		return in->eof < 0 ? -1 : 0;
	n = lread_read(in->lr, in->buf, in->cap);
	if (n <= 0) {
		in->eof = n < 0 ? -1 : 1;
		return (int)(n < 0 ? -1 : 0);
	}
	in->pos = 0;
	in->len = (size_t)n;
	return 1;
}

/* Skips white space; returns the first other byte (not taken) or -1. */
static int first_byte(struct pvin *in)
{
	int c;

	while ((c = pvin_peek(in)) == ' ' || c == '\t' || c == '\r' || c == '\n')
		pvin_get(in);
	return c;
}

int pv_read_lread(struct pv *p, struct lread *lr)
{
	struct pvin in = { 0 };
	uint64_t seen = p->stats.samples + p->stats.skipped;
	int c, rc = -1;

	p->name = lread_name(lr);
	p->reported = 0;
	p->file_first = p->ntimed;
	if (p->o.max_inflate)
		lread_set_max_inflate(lr, p->o.max_inflate);
	in.lr = lr;
	in.cap = p->o.chunk >= 16 ? p->o.chunk : CHUNK;
	in.buf = xmalloc(in.cap);
	in.line = 1;
	c = first_byte(&in);
	if (c >= 0 && (p->o.format == PV_XML || (p->o.format == PV_ANY && c == '<')))
		rc = pvxml_parse(p, &in);
	else if (c >= 0 && (p->o.format == PV_JSON || (p->o.format == PV_ANY && (c == '{' || c == '['))))
		rc = pvjson_parse(p, &in, lread_bom(lr));
	else if (in.eof >= 0 && c < 0) {
		/* No samples, as in every tool: not an unreadable input. */
		pv_warn(p, NULL, "empty input");
		rc = 0;
	}
	else if (in.eof >= 0) {
		in.col++;	/* at the byte that does not fit */
		pv_warn(p, &in, "not PerfView JSON or XML (it should start with '{' or '<')");
	}
	if (in.eof < 0) {
		pv_warn(p, NULL, "%s", lread_error(lr));
		rc = -1;
	}
	file_end(p);
	free(in.buf);
	/* Well-formed but no sample at all: most likely some other JSON or
	 * XML (a Chrome trace, a speedscope file), which deserves a word. */
	if (rc == 0 && c >= 0 && p->stats.samples + p->stats.skipped == seen)
		pv_warn(p, NULL, "no samples: not a PerfView stack file (no Sample elements "
			"or \"Samples\" array)?");
	if (rc < 0)
		p->stats.bad_input = 1;
	return rc;
}

int pv_read(struct pv *p, const char *path)
{
	struct lread *lr = lread_open(path);
	int rc;

	if (!lr) {
		char msg[256];

		snprintf(msg, sizeof(msg), "cannot open '%s': %s", path, strerror(errno));
		p->warn(p->ctx, NULL, 0, 0, msg);
		p->stats.bad_input = 1;
		return -1;
	}
	rc = pv_read_lread(p, lr);
	lread_free(lr);
	return rc;
}

static int by_time(const void *a, const void *b)
{
	const struct pv_timed *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int pv_each_in_order(struct pv *p, pv_stack_fn *fn, void *ctx)
{
	size_t i = 0, j;
	int rc = 0;

	if (p->ntimed)
		qsort(p->timed, p->ntimed, sizeof(*p->timed), by_time);
	while (i < p->ntimed && rc == 0) {
		struct fcount sum = { 0, 0 };
		const char *s;
		size_t len;

		for (j = i; j < p->ntimed && p->timed[j].key == p->timed[i].key; j++)
			fcount_add(&sum, &p->timed[j].c);
		if (p->timed[i].key != UINT32_MAX) {
			s = strtab_str(p->out, p->timed[i].key, &len);
			rc = fn(ctx, s, len, &sum);
		}
		i = j;
	}
	return rc;
}
