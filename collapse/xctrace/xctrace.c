/* xctrace: rows, backtraces and frames, over xcxml's tags.  Frames and
 * backtraces are kept by their ids (tables keyed by the 8-byte id); a row
 * adds one to its backtrace's count, and the stacks are joined once per
 * backtrace at the end. */
#include "xctrace.h"
#include "folded.h"
#include "rustsym.h"
#include "strtab.h"
#include "xalloc.h"
#include "xcxml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WARN 10	/* problems named one by one; the rest counted */
#define NONE UINT32_MAX

/* The elements that matter, nested in this order. */
enum { T_RESULT, T_NODE, T_ROW, T_BACKTRACE, T_FRAME, T_OTHER };
static const char *const tags[] = { "trace-query-result", "node", "row", "backtrace", "frame" };

struct bt {
	uint64_t count;			/* rows of it */
	size_t off, n;			/* its frames in x->fr */
	int done;			/* its element has ended */
};

struct xctrace {
	struct strtab *t;		/* stacks out */
	struct fseq *seq;		/* row order, or NULL */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	const char *name;		/* the input */
	struct xcxml xml;		/* the tag scanner */
	int open[8];			/* the elements open, outermost first */
	int depth;			/* how many */
	int ended;			/* the result has ended */
	struct strtab *frames;		/* frame id -> name (values: uint32_t name + 1) */
	struct strtab *names;		/* frame names, unescaped */
	struct strtab *bts;		/* backtrace id -> struct bt */
	uint32_t *fr;			/* every backtrace's frames (ids in frames) */
	size_t nfr, frcap;		/* how many, and room */
	uint32_t *cur;			/* the open backtrace's frames */
	size_t ncur, curcap;		/* how many, and room */
	uint32_t row_bt;		/* the open row's backtrace, or NONE */
	uint32_t open_bt;		/* the open backtrace, or NONE */
	uint32_t *rows;			/* each row's backtrace, with seq */
	size_t nrows, rowcap;		/* how many, and room */
	char *tmp;			/* a name being decoded */
	size_t tmpcap;			/* its room */
	struct xctrace_stats st;	/* counters */
};

static int tag_fn(void *ctx, enum xcxml_kind kind, const char *name, size_t nlen,
		  const char *attrs, size_t alen);

struct xctrace *xctrace_new(struct strtab *t, struct fseq *seq, collect_warn_fn *warn, void *ctx,
			    const char *name)
{
	struct xctrace *x = xcalloc(1, sizeof(*x));

	x->t = t;
	x->seq = seq;
	x->warn = warn;
	x->ctx = ctx;
	x->name = name;
	xcxml_init(&x->xml, tag_fn, x);
	x->frames = strtab_new(sizeof(uint32_t));
	x->names = strtab_new(0);
	x->bts = strtab_new(sizeof(struct bt));
	x->row_bt = x->open_bt = NONE;
	return x;
}

void xctrace_free(struct xctrace *x)
{
	if (!x)
		return;
	xcxml_release(&x->xml);
	strtab_free(x->frames);
	strtab_free(x->names);
	strtab_free(x->bts);
	free(x->fr);
	free(x->cur);
	free(x->rows);
	free(x->tmp);
	free(x);
}

const struct xctrace_stats *xctrace_stats(const struct xctrace *x)
{
	return &x->st;
}

static void bad(struct xctrace *x, const char *why, const char *a, size_t alen)
{
	char msg[300];

	if (x->st.bad++ >= MAX_WARN)
		return;
	snprintf(msg, sizeof(msg), "%s (near byte %llu: '%.*s')", why, x->xml.at,
		 (int)(alen < 80 ? alen : 80), a);
	x->warn(x->ctx, x->name, 0, msg);
}

static int which(const char *name, size_t n)
{
	int k;

	for (k = 0; k < T_OTHER; k++)
		if (strlen(tags[k]) == n && memcmp(tags[k], name, n) == 0)
			return k;
	return T_OTHER;
}

/* The decimal attribute key of a tag: 1 and *v, else 0. */
static int number(const char *a, size_t alen, const char *key, uint64_t *v)
{
	const char *s;
	size_t n, i;

	if (!xcxml_attr(a, alen, key, &s, &n) || n == 0 || n > 19)
		return 0;
	for (*v = 0, i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return 1;
}

/* The frame of a <frame id= name=>: its index, or NONE after a warning. */
static uint32_t frame_new(struct xctrace *x, const char *a, size_t alen)
{
	const char *nm;
	size_t nlen, len;
	uint64_t id;
	uint32_t f, *v;
	int added;

	if (!number(a, alen, "id", &id) || !xcxml_attr(a, alen, "name", &nm, &nlen)) {
		bad(x, "a frame without an id and a name (left out)", a, alen);
		return NONE;
	}
	f = strtab_intern(x->frames, (const char *)&id, sizeof(id), &added);
	v = strtab_val(x->frames, f);
	if (!added && *v) {
		bad(x, "a frame id given twice (the first kept)", a, alen);
		return f;
	}
	xgrow(&x->tmp, &x->tmpcap, nlen + 1, 1);
	len = xcxml_unescape(nm, nlen, x->tmp);
	*v = strtab_intern(x->names, x->tmp, len, NULL) + 1;
	return f;
}

/* The frame of a <frame ref=>, or NONE after a warning. */
static uint32_t frame_ref(struct xctrace *x, const char *a, size_t alen)
{
	uint64_t id;
	uint32_t f;

	if (!number(a, alen, "ref", &id))
		return frame_new(x, a, alen);
	f = strtab_find(x->frames, (const char *)&id, sizeof(id));
	if (f == UINT32_MAX || !*(uint32_t *)strtab_val(x->frames, f)) {
		bad(x, "a frame ref to no frame given before (left out)", a, alen);
		return NONE;
	}
	return f;
}

static void add_frame(struct xctrace *x, uint32_t f)
{
	if (f == NONE)
		return;
	xgrow(&x->cur, &x->curcap, x->ncur + 1, sizeof(*x->cur));
	x->cur[x->ncur++] = f;
}

/* A backtrace given with its id: its index, or NONE after a warning. */
static uint32_t bt_new(struct xctrace *x, const char *a, size_t alen)
{
	uint64_t id;
	uint32_t b;
	int added;

	if (!number(a, alen, "id", &id)) {
		bad(x, "a backtrace without an id (its row left out)", a, alen);
		return NONE;
	}
	b = strtab_intern(x->bts, (const char *)&id, sizeof(id), &added);
	if (!added) {
		bad(x, "a backtrace id given twice (its row left out)", a, alen);
		return NONE;
	}
	x->ncur = 0;
	return b;
}

/* The open backtrace ends: its frames are kept. */
static void bt_done(struct xctrace *x, uint32_t b)
{
	struct bt *t = strtab_val(x->bts, b);

	xgrow(&x->fr, &x->frcap, x->nfr + x->ncur, sizeof(*x->fr));
	if (x->ncur)
		memcpy(x->fr + x->nfr, x->cur, x->ncur * sizeof(*x->fr));
	t->off = x->nfr;
	t->n = x->ncur;
	t->done = 1;
	x->nfr += x->ncur;
	x->ncur = 0;
}

/* A <backtrace ref=/> or <backtrace id=/> of a row. */
static uint32_t bt_empty(struct xctrace *x, const char *a, size_t alen)
{
	uint64_t id;
	uint32_t b;

	if (!number(a, alen, "ref", &id)) {
		if ((b = bt_new(x, a, alen)) != NONE)
			bt_done(x, b);
		return b;
	}
	b = strtab_find(x->bts, (const char *)&id, sizeof(id));
	if (b == UINT32_MAX || !((struct bt *)strtab_val(x->bts, b))->done) {
		bad(x, "a backtrace ref to no backtrace given before (its row left out)", a, alen);
		return NONE;
	}
	return b;
}

static void row_done(struct xctrace *x)
{
	if (x->row_bt == NONE)
		return;
	((struct bt *)strtab_val(x->bts, x->row_bt))->count++;
	x->st.rows++;
	if (x->seq) {
		xgrow(&x->rows, &x->rowcap, x->nrows + 1, sizeof(*x->rows));
		x->rows[x->nrows++] = x->row_bt;
	}
}

/* A start tag of an element that matters where it is: pushed. */
static void start(struct xctrace *x, int k, const char *a, size_t alen)
{
	int top = x->depth ? x->open[x->depth - 1] : -1;

	if (k == T_OTHER || k != top + 1)
		return;
	if (k == T_ROW)
		x->row_bt = NONE;
	else if (k == T_BACKTRACE) {
		x->ncur = 0;
		x->open_bt = bt_new(x, a, alen);
	}
	else if (k == T_FRAME)
		add_frame(x, frame_ref(x, a, alen));
	x->open[x->depth++] = k;
}

static void end(struct xctrace *x, int k, const char *name, size_t nlen)
{
	if (k == T_OTHER)
		return;
	if (!x->depth || x->open[x->depth - 1] != k) {
		bad(x, "an end tag that closes no open element (ignored)", name, nlen);
		return;
	}
	x->depth--;
	if (k == T_ROW)
		row_done(x);
	else if (k == T_BACKTRACE && x->open_bt != NONE) {
		bt_done(x, x->open_bt);
		x->row_bt = x->open_bt;
		x->open_bt = NONE;
	} else if (k == T_RESULT)
		x->ended = 1;
}

static int tag_fn(void *ctx, enum xcxml_kind kind, const char *name, size_t nlen,
		  const char *attrs, size_t alen)
{
	struct xctrace *x = ctx;
	int k = which(name, nlen), top = x->depth ? x->open[x->depth - 1] : -1;

	if (kind == XCXML_START)
		start(x, k, attrs, alen);
	else if (kind == XCXML_END)
		end(x, k, name, nlen);
	else if (k == T_BACKTRACE && top == T_ROW)
		x->row_bt = bt_empty(x, attrs, alen);
	else if (k == T_FRAME && top == T_BACKTRACE)
		add_frame(x, frame_ref(x, attrs, alen));
	return x->ended ? -1 : 0;
}

int xctrace_feed(struct xctrace *x, const char *s, size_t n)
{
	unsigned long long where;
	char msg[160];
	int rc;

	if (x->ended)
		return -1;
	rc = xcxml_feed(&x->xml, s, n, &where);
	if (rc == -2) {
		snprintf(msg, sizeof(msg), "a tag of more than %u bytes at byte %llu: not xctrace's XML",
			 XCXML_MAX_TAG, where);
		x->warn(x->ctx, x->name, 0, msg);
		x->ended = -1;
	}
	return rc < 0 ? -1 : 0;
}

/* Joins backtrace b's stack, root first, into *buf; returns its length. */
static size_t join(struct xctrace *x, const struct bt *b, char **buf, size_t *cap)
{
	size_t i, o = 0, n, fixed;
	const char *s;
	uint32_t nid;

	for (i = b->n; i-- > 0;) {
		nid = *(uint32_t *)strtab_val(x->frames, x->fr[b->off + i]) - 1;
		s = strtab_str(x->names, nid, &n);
		xgrow(buf, cap, o + n + 2, 1);
		if (o)
			(*buf)[o++] = ';';
		if ((fixed = rustsym_fix(s, n, *buf + o)) == (size_t)-1) {
			memcpy(*buf + o, s, n);
			fixed = n;
		}
		o += fixed;
	}
	return o;
}

/* Every backtrace with rows into the table, or each row in order. */
static void output(struct xctrace *x)
{
	char *buf = NULL;
	size_t cap = 0, i, len;
	const struct bt *b;
	struct fcount c;
	uint32_t id;

	for (i = 0; !x->seq && i < strtab_count(x->bts); i++) {
		b = strtab_val(x->bts, (uint32_t)i);
		if (!b->count || !b->n)
			continue;
		len = join(x, b, &buf, &cap);
		c = (struct fcount){ b->count, 0 };
		id = strtab_intern(x->t, buf, len, NULL);
		fcount_add(strtab_val(x->t, id), &c);
	}
	for (i = 0; i < x->nrows; i++) {
		b = strtab_val(x->bts, x->rows[i]);
		if (!b->n)
			continue;
		len = join(x, b, &buf, &cap);
		c = (struct fcount){ 1, 0 };
		fseq_put(x->t, x->seq, buf, len, &c);
	}
	free(buf);
}

int xctrace_end(struct xctrace *x)
{
	char msg[160];
	int rc = 0;

	output(x);
	if (x->st.bad > MAX_WARN) {
		snprintf(msg, sizeof(msg), "%llu elements could not be used",
			 (unsigned long long)x->st.bad);
		x->warn(x->ctx, x->name, 0, msg);
	}
	if (x->ended == 0 && x->depth == 0) {
		x->warn(x->ctx, x->name, 0, "no <trace-query-result>: not xctrace's XML");
		rc = 1;
	} else if (x->ended == 0) {
		x->warn(x->ctx, x->name, 0, "the document ends inside <trace-query-result>; "
			"the rows read are kept");
		rc = 1;
	}
	return rc | (x->ended < 0);
}
