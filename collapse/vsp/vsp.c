/* vsp: vsperfreport CallTreeSummary and CallerCalleeSummary CSV. */
#include "vsp.h"
#include "bytes.h"
#include "csv.h"
#include "folded.h"
#include "strtab.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define REPORT_MAX 5		/* malformed rows named per input */
#define MAX_DEPTH 4096		/* call graph expansion depth */
#define MIN_SHARE 1e-5		/* smaller shares of the total are not expanded:
				   at 1200 px a frame needs 0.008% to be seen */
#define MAX_PATHS 1000000	/* paths expanded at most */

enum kind { K_NONE, K_TREE, K_GRAPH, K_BAD };
enum family { F_SAMPLES, F_ELAPSED, F_APP, F_CALLS };

/* A value: column col, times column mul when mul >= 0. */
struct col {
	int col;		/* -1: not available */
	int mul;		/* -1: none */
	int integral;		/* col holds whole numbers (samples, calls) */
};

struct frame {
	size_t off;		/* name offset in names */
	size_t len;		/* name length */
	double value;		/* exclusive, or inclusive when subtracting */
	double children;	/* inclusive values of children, summed */
};

struct fnode {
	double incl;		/* Root row inclusive value */
	double excl;		/* Root row exclusive value */
	int has_root;		/* a Root row was seen */
	int has_caller;		/* a Caller row was seen */
	int on_path;		/* on the path being expanded */
	double used;		/* weight of the stacks through it so far */
	size_t first;		/* first edge (after sorting) */
	size_t nedges;		/* edges from here */
};

struct edge {
	uint32_t from;		/* caller */
	uint32_t to;		/* callee */
	double value;		/* callee inclusive within the caller */
};

struct vsp {
	const struct vsp_opts *o;	/* options */
	struct strtab *out;		/* stacks */
	vsp_warn_fn *warn;		/* messages */
	void *ctx;			/* their context */
	const char *name;		/* input name */
	enum kind kind;			/* report kind of this input */
	struct csv cs;			/* tokenizer */
	int c_level, c_type, c_name, c_proc;	/* columns */
	struct col incl, excl;		/* the metric's columns */
	int subtract;			/* tree: weight = value - children */
	unsigned reported;		/* malformed rows named */
	struct frame *st;		/* tree: the open path */
	size_t depth;			/* frames on it */
	size_t stcap;			/* capacity */
	char *names;			/* frame names of the path */
	size_t nlen;			/* bytes used */
	size_t ncap;			/* capacity */
	char *key;			/* a stack being built */
	size_t keycap;			/* capacity */
	struct strtab *fn;		/* graph: functions -> struct fnode */
	struct edge *edges;		/* graph: callee edges */
	size_t nedges;			/* how many */
	size_t ecap;			/* capacity */
	uint32_t cur;			/* graph: the current Root function */
	char *process;			/* graph: process name */
	struct vsp_stats stats;		/* counters */
};

static const char *const metric_names[] = {
	"auto", "inclusive-samples", "exclusive-samples", "elapsed-inclusive", "elapsed-exclusive",
	"application-inclusive", "application-exclusive", "calls", "calls-inferno"
};

int vsp_metric_parse(const char *s, enum vsp_metric *m)
{
	size_t i;

	for (i = 0; i < sizeof(metric_names) / sizeof(metric_names[0]); i++) {
		if (strcasecmp(s, metric_names[i]) == 0) {
			*m = (enum vsp_metric)i;
			return 0;
		}
	}
	return -1;
}

struct vsp *vsp_new(const struct vsp_opts *o, struct strtab *out, vsp_warn_fn *warn, void *ctx)
{
	struct vsp *v = xcalloc(1, sizeof(*v));

	v->o = o;
	v->out = out;
	v->warn = warn;
	v->ctx = ctx;
	v->name = "<stdin>";
	csv_init(&v->cs);
	v->ncap = 4096;
	v->names = xmalloc(v->ncap);
	return v;
}

static void graph_reset(struct vsp *v)
{
	strtab_free(v->fn);
	v->fn = NULL;
	free(v->edges);
	v->edges = NULL;
	v->nedges = v->ecap = 0;
	free(v->process);
	v->process = NULL;
}

void vsp_free(struct vsp *v)
{
	if (!v)
		return;
	graph_reset(v);
	csv_release(&v->cs);
	free(v->st);
	free(v->names);
	free(v->key);
	free(v);
}

const struct vsp_stats *vsp_stats(const struct vsp *v)
{
	return &v->stats;
}

static void malformed(struct vsp *v, unsigned long lineno, const char *what)
{
	v->stats.malformed++;
	if (v->reported++ < REPORT_MAX)
		v->warn(v->ctx, v->name, lineno, what);
}

/* ---- columns and values ---- */

static struct col column(const struct csv *cs, const char *name, const char *avg)
{
	struct col c = { csv_find(cs, name), -1, strstr(name, "Samples") != NULL };

	if (c.col < 0 && avg && csv_find(cs, avg) >= 0 && csv_find(cs, "Number of Calls") >= 0) {
		c.col = csv_find(cs, avg);
		c.mul = csv_find(cs, "Number of Calls");
	}
	return c;
}

/* The inclusive and exclusive columns of a family of measures. */
static void family_cols(const struct csv *cs, enum family f, struct col *in, struct col *ex)
{
	static const char *const names[3][4] = {
		{ "Inclusive Samples", NULL, "Exclusive Samples", NULL },
		{ "Elapsed Inclusive Time", "Avg Elapsed Inclusive Time", "Elapsed Exclusive Time",
		  "Avg Elapsed Exclusive Time" },
		{ "Application Inclusive Time", "Avg Application Inclusive Time",
		  "Application Exclusive Time", "Avg Application Exclusive Time" },
	};

	if (f == F_CALLS) {
		in->col = csv_find(cs, "Number of Calls");
		in->mul = -1;
		in->integral = 1;
		ex->col = ex->mul = -1;
		return;
	}
	*in = column(cs, names[f][0], names[f][1]);
	*ex = column(cs, names[f][2], names[f][3]);
}

/* Picks the metric's columns from the header; returns 0 or -1. */
static int choose_metric(struct vsp *v)
{
	enum vsp_metric m = v->o->metric;
	enum family f = F_SAMPLES;

	if (m == VSP_AUTO) {
		family_cols(&v->cs, F_SAMPLES, &v->incl, &v->excl);
		if (v->excl.col < 0 && v->incl.col < 0) {
			f = F_ELAPSED;
			family_cols(&v->cs, f, &v->incl, &v->excl);
		}
		if (v->excl.col < 0 && v->incl.col < 0)
			family_cols(&v->cs, F_CALLS, &v->incl, &v->excl);
	} else {
		f = m == VSP_CALLS || m == VSP_CALLS_INFERNO ? F_CALLS
		    : m <= VSP_EXCL_SAMPLES ? F_SAMPLES : m <= VSP_ELAPSED_EXCL ? F_ELAPSED : F_APP;
		family_cols(&v->cs, f, &v->incl, &v->excl);
	}
	/* Inclusive measures become exclusive by subtracting the children;
	 * a call count is the row's own, as it is. */
	v->subtract = f != F_CALLS && (v->excl.col < 0 || m == VSP_INCL_SAMPLES ||
				       m == VSP_ELAPSED_INCL || m == VSP_APP_INCL);
	if (m == VSP_INCL_SAMPLES || m == VSP_ELAPSED_INCL || m == VSP_APP_INCL)
		v->excl.col = -1;
	return v->incl.col < 0 && v->excl.col < 0 ? -1 : 0;
}

static int value(struct vsp *v, struct col c, double *out)
{
	double a, b = 1;

	if (c.col < 0 || (size_t)c.col >= v->cs.n)
		return -1;
	if (csv_number(v->cs.f[c.col].s, v->cs.f[c.col].len, c.integral, &a) < 0)
		return -1;
	/* mul is always "Number of Calls", a whole number. */
	if (c.mul >= 0 && ((size_t)c.mul >= v->cs.n ||
			   csv_number(v->cs.f[c.mul].s, v->cs.f[c.mul].len, 1, &b) < 0))
		return -1;
	*out = a * b;
	return 0;
}

/* ---- emitting stacks ---- */

static int is_wait(const char *s, size_t n)
{
	static const char *const waits[] = { "WaitForSingleObject", "WaitForSingleObjectEx",
		"WaitForMultipleObjects", "WaitForMultipleObjectsEx", "SleepEx", "Sleep" };
	const char *bang = NULL, *p, *paren;
	size_t i;

	/* "module!Function(args)" -> "Function". */
	for (p = s; (p = memchr(p, '!', n - (size_t)(p - s))); p++)
		bang = p;
	if (bang) {
		n -= (size_t)(bang + 1 - s);
		s = bang + 1;
	}
	paren = memchr(s, '(', n);
	if (paren)
		n = (size_t)(paren - s);
	if ((n >= 9 && memcmp(s, "NtWaitFor", 9) == 0) || (n >= 9 && memcmp(s, "ZwWaitFor", 9) == 0))
		return 1;
	for (i = 0; i < sizeof(waits) / sizeof(waits[0]); i++)
		if (strlen(waits[i]) == n && memcmp(waits[i], s, n) == 0)
			return 1;
	return 0;
}

static void key_put(struct vsp *v, size_t *o, const char *s, size_t n)
{
	size_t i;

	xgrow(&v->key, &v->keycap, *o + n + 8, 1);
	if (*o)
		v->key[(*o)++] = ';';
	for (i = 0; i < n; i++)
		v->key[(*o)++] = s[i] == ';' ? ':' : s[i];	/* ';' separates frames */
}

/* Adds the stack in v->key[0, o) whose leaf is (leaf, n). */
static void emit(struct vsp *v, size_t o, const char *leaf, size_t n, double w, int replace)
{
	struct fcount *c, add;

	if (!(w > 0) || o == 0)
		return;
	if (is_wait(leaf, n)) {
		if (v->o->exclude_waits)
			return;
		if (v->o->mark_waits) {
			xgrow(&v->key, &v->keycap, o + 5, 1);
			memcpy(v->key + o, "_[w]", 4);
			o += 4;
		}
	}
	c = strtab_val(v->out, strtab_intern(v->out, v->key, o, NULL));
	add.n = 0;
	add.frac = 0;
	if (w == floor(w) && w < 9007199254740992.0)
		add.n = (uint64_t)w;
	else
		add.frac = w;
	if (replace)
		memset(c, 0, sizeof(*c));
	fcount_add(c, &add);
	v->stats.stacks++;
}

/* ---- CallTreeSummary ---- */

/* Emits the top of the path with its weight and closes it. */
static void tree_pop(struct vsp *v)
{
	struct frame *f = &v->st[v->depth - 1];
	double w = v->subtract ? f->value - f->children : f->value;
	size_t i, o = 0, first = v->o->no_process ? 1 : 0;

	for (i = first; i < v->depth; i++)
		key_put(v, &o, v->names + v->st[i].off, v->st[i].len);
	emit(v, o, v->names + f->off, f->len, w, 0);
	if (v->depth >= 2)
		v->st[v->depth - 2].children += f->value;
	v->nlen = f->off;
	v->depth--;
}

static void tree_push(struct vsp *v, const char *name, size_t n, double value)
{
	struct frame *f;

	if (v->depth == v->stcap)
		xgrow(&v->st, &v->stcap, v->depth + 1, sizeof(*v->st));
	if (v->ncap - v->nlen < n)
		xgrow(&v->names, &v->ncap, v->nlen + n, 1);
	f = &v->st[v->depth++];
	f->off = v->nlen;
	f->len = n;
	f->value = value;
	f->children = 0;
	memcpy(v->names + v->nlen, name, n);
	v->nlen += n;
}

/* inferno's collapse-vsprof, kept for comparison with its results: the
 * process row is replaced by its first child, a stack is written when a
 * row is closed by a sibling (its calls) or when several levels close
 * (calls minus the last closed child's), later writes of the same stack
 * replace earlier ones, and at the end only the last row is written. */
static void inferno_write(struct vsp *v)
{
	struct frame *f;
	size_t i, o = 0;

	if (!v->depth)
		return;
	f = &v->st[v->depth - 1];
	for (i = 0; i < v->depth; i++)
		key_put(v, &o, v->names + v->st[i].off, v->st[i].len);
	emit(v, o, v->names + f->off, f->len, f->value, 1);
}

static int inferno_row(struct vsp *v, size_t level, const char *name, size_t n, double calls)
{
	double prev = 0;
	size_t k, pops;

	if (v->depth < level) {
		if (v->depth + 1 != level)
			return -1;
	} else if (v->depth == level) {
		inferno_write(v);
		if (v->depth) {
			v->nlen = v->st[v->depth - 1].off;
			v->depth--;
		}
	} else {
		pops = v->depth - level + 1;
		for (k = 0; k < pops && v->depth; k++) {
			struct frame *top = &v->st[v->depth - 1];

			if (prev != top->value)
				inferno_write(v);
			prev = top->value;
			v->nlen = top->off;
			if (--v->depth == 0)
				break;
			if (prev < v->st[v->depth - 1].value)
				v->st[v->depth - 1].value -= prev;
		}
	}
	tree_push(v, name, n, calls);
	return 0;
}

static void tree_row(struct vsp *v, unsigned long lineno)
{
	const struct csv_field *lv, *nm;
	double level, w;

	if ((size_t)v->c_level >= v->cs.n || (size_t)v->c_name >= v->cs.n) {
		malformed(v, lineno, "missing fields");
		return;
	}
	lv = &v->cs.f[v->c_level];
	nm = &v->cs.f[v->c_name];
	if (csv_number(lv->s, lv->len, 1, &level) < 0 || level < 0 || level > 1e6) {
		malformed(v, lineno, "the level is not a number");
		return;
	}
	if (nm->len == 0) {
		malformed(v, lineno, "no function name");
		return;
	}
	if (value(v, v->subtract || v->excl.col < 0 ? v->incl : v->excl, &w) < 0) {
		malformed(v, lineno, "the value is not a number");
		return;
	}
	if (v->o->metric == VSP_CALLS_INFERNO) {
		if (inferno_row(v, (size_t)level, nm->s, nm->len, w) < 0)
			malformed(v, lineno, "the level skips a level");
		return;
	}
	if ((size_t)level > v->depth) {
		malformed(v, lineno, "the level skips a level");
		return;
	}
	while (v->depth > (size_t)level)
		tree_pop(v);
	tree_push(v, nm->s, nm->len, w);
}

static void tree_end(struct vsp *v)
{
	if (v->o->metric == VSP_CALLS_INFERNO) {
		inferno_write(v);
		v->depth = 0;
		v->nlen = 0;
		return;
	}
	while (v->depth)
		tree_pop(v);
	v->nlen = 0;
}

/* ---- CallerCalleeSummary ---- */

static struct fnode *fnode(struct vsp *v, const char *name, size_t n, uint32_t *id)
{
	*id = strtab_intern(v->fn, name, n, NULL);
	return strtab_val(v->fn, *id);
}

static int row_type(const struct csv_field *t)
{
	if ((t->len == 4 && strncasecmp(t->s, "Root", 4) == 0) || (t->len == 1 && t->s[0] == '0'))
		return 0;
	if ((t->len == 6 && strncasecmp(t->s, "Caller", 6) == 0) || (t->len == 1 && t->s[0] == '1'))
		return 1;
	if ((t->len == 6 && strncasecmp(t->s, "Callee", 6) == 0) || (t->len == 1 && t->s[0] == '2'))
		return 2;
	return -1;
}

static void graph_row(struct vsp *v, unsigned long lineno)
{
	const struct csv_field *nm;
	double in = 0, ex = 0;
	struct fnode *f;
	uint32_t id;
	int type;

	if ((size_t)v->c_type >= v->cs.n || (size_t)v->c_name >= v->cs.n ||
	    (type = row_type(&v->cs.f[v->c_type])) < 0) {
		malformed(v, lineno, "the type is not Root, Caller or Callee");
		return;
	}
	nm = &v->cs.f[v->c_name];
	if (nm->len == 0) {
		malformed(v, lineno, "no function name");
		return;
	}
	if (value(v, v->incl, &in) < 0 || (v->excl.col >= 0 && value(v, v->excl, &ex) < 0)) {
		malformed(v, lineno, "a value is not a number");
		return;
	}
	if (type == 0) {
		f = fnode(v, nm->s, nm->len, &v->cur);
		f->incl = in;
		f->excl = v->excl.col >= 0 ? ex : 0;
		f->has_root = 1;
		if (!v->process && v->c_proc >= 0 && (size_t)v->c_proc < v->cs.n && v->cs.f[v->c_proc].len)
			v->process = xstrndup(v->cs.f[v->c_proc].s, v->cs.f[v->c_proc].len);
		return;
	}
	if (v->cur == UINT32_MAX) {
		malformed(v, lineno, "a Caller or Callee row before any Root row");
		return;
	}
	if (type == 1) {
		((struct fnode *)strtab_val(v->fn, v->cur))->has_caller = 1;
		return;
	}
	fnode(v, nm->s, nm->len, &id);
	if (v->nedges == v->ecap)
		xgrow(&v->edges, &v->ecap, v->nedges + 1, sizeof(*v->edges));
	v->edges[v->nedges].from = v->cur;
	v->edges[v->nedges].to = id;
	v->edges[v->nedges++].value = in;
}

struct expand {
	struct vsp *v;		/* the collapser */
	uint32_t *path;		/* functions, root first */
	double min;		/* smaller shares are not expanded */
	size_t paths;		/* paths expanded so far */
};

static void emit_path(struct expand *x, size_t depth, double w)
{
	struct vsp *v = x->v;
	size_t i, o = 0, len = 0;
	const char *s = NULL;

	if (v->process && !v->o->no_process)
		key_put(v, &o, v->process, strlen(v->process));
	for (i = 0; i < depth; i++) {
		s = strtab_str(v->fn, x->path[i], &len);
		key_put(v, &o, s, len);
	}
	emit(v, o, s, len, w, 0);
}

/* The part of share that g can still take, counted as taken: the stacks
 * through a function never weigh more than its inclusive value, whatever
 * the report says (float error within 1e-9 of it is let through). */
static double take_share(struct fnode *g, double share)
{
	double room = g->incl - g->used;

	if (g->has_root && share > room + g->incl * 1e-9)
		share = room > 0 ? room : 0;
	g->used += share;
	return share;
}

/* How f's weight w is split: its own part (returned) and *k, the factor
 * on each callee's share w x value / incl.  The parts never add up to
 * more than w.  In a recursive function the exclusive value and the
 * callees' inclusive values count some samples twice (a sample in
 * sort;sort is exclusive to sort and inclusive to the sort it calls):
 * the shares of calls back into the path go first, then all parts shrink
 * alike.  A report whose parts add up to less than w keeps the
 * recursive shares with the caller, up to w. */
static double split(const struct vsp *v, const struct fnode *f, double w, double *k)
{
	double self = w * f->excl / f->incl, out = 0, rec = 0, room;
	size_t e;

	for (e = f->first; e < f->first + f->nedges; e++) {
		const struct edge *ed = &v->edges[e];
		const struct fnode *g = strtab_val(v->fn, ed->to);

		if (g->on_path)
			rec += w * ed->value / f->incl;
		else
			out += w * ed->value / f->incl;
	}
	*k = 1;
	if (self + out > w) {
		*k = w / (self + out);
		return self * *k;
	}
	room = w - self - out;
	return self + (rec < room ? rec : room);
}

/* Expands function path[depth-1] carrying weight w. */
static void expand(struct expand *x, size_t depth, double w)
{
	struct vsp *v = x->v;
	uint32_t id = x->path[depth - 1];
	struct fnode *f = strtab_val(v->fn, id);
	double self, k, take;
	size_t e;

	if (!(f->incl > 0)) {
		emit_path(x, depth, w);
		return;
	}
	f->on_path = 1;
	self = split(v, f, w, &k);
	for (e = f->first; e < f->first + f->nedges; e++) {
		const struct edge *ed = &v->edges[e];
		double share = w * ed->value / f->incl * k;
		struct fnode *g = strtab_val(v->fn, ed->to);

		if (g->on_path)
			continue;
		/* Depth, tiny shares and, past the limit, everything else stay
		 * with the caller. */
		if (depth >= MAX_DEPTH || share < x->min || x->paths >= MAX_PATHS) {
			self += share;
			continue;
		}
		take = take_share(g, share);
		self += share - take;
		if (!(take > 0))
			continue;
		x->path[depth] = ed->to;
		x->paths++;
		expand(x, depth + 1, take);
	}
	f->on_path = 0;
	emit_path(x, depth, self);
}

static int cmp_edge(const void *a, const void *b, void *ctx)
{
	const struct edge *x = a, *y = b;
	const struct strtab *fn = ctx;
	size_t lx, ly;
	const char *sx, *sy;
	int r;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	sx = strtab_str(fn, x->to, &lx);
	sy = strtab_str(fn, y->to, &ly);
	r = memcmp(sx, sy, lx < ly ? lx : ly);
	return r ? r : (lx > ly) - (lx < ly);
}

static void graph_end(struct vsp *v)
{
	struct expand x;
	uint32_t *order;
	size_t i, n = v->fn ? strtab_count(v->fn) : 0;
	double total = 0;
	uint32_t root = UINT32_MAX;

	if (!n)
		return;
	if (v->nedges)	/* edges is NULL when there are none */
		qsort_r(v->edges, v->nedges, sizeof(*v->edges), cmp_edge, v->fn);
	for (i = 0; i < v->nedges; i++) {
		struct fnode *f = strtab_val(v->fn, v->edges[i].from);

		if (!f->nedges)
			f->first = i;
		f->nedges++;
	}
	if (v->o->root) {
		root = strtab_find(v->fn, v->o->root, strlen(v->o->root));
		if (root == UINT32_MAX) {
			v->warn(v->ctx, v->name, 0, "--root: no such function in the call graph");
			v->stats.bad_input = 1;
			return;
		}
	}
	order = strtab_sorted(v->fn);
	for (i = 0; i < n; i++) {
		const struct fnode *f = strtab_val(v->fn, order[i]);

		if (root == UINT32_MAX ? f->has_root && !f->has_caller : order[i] == root)
			total += f->incl;
	}
	x.v = v;
	x.path = xcalloc(MAX_DEPTH + 1, sizeof(*x.path));
	x.min = total * MIN_SHARE;
	x.paths = 0;
	for (i = 0; i < n; i++) {
		const struct fnode *f = strtab_val(v->fn, order[i]);

		if (root == UINT32_MAX ? !(f->has_root && !f->has_caller) : order[i] != root)
			continue;
		x.path[0] = order[i];
		expand(&x, 1, take_share(strtab_val(v->fn, order[i]), f->incl));
	}
	free(x.path);
	free(order);
}

/* ---- input ---- */

static int header(struct vsp *v, const char *line, size_t len, unsigned long lineno)
{
	if (csv_split(&v->cs, line, len) < 0 || csv_find(&v->cs, "Function Name") < 0 ||
	    ((v->c_level = csv_find(&v->cs, "Level")) < 0 &&
	     (v->c_type = csv_find(&v->cs, "Type")) < 0)) {
		v->warn(v->ctx, v->name, lineno, "not a Visual Studio CallTreeSummary or "
			"CallerCalleeSummary report (the header names no Level or Type column)");
		return -1;
	}
	v->c_name = csv_find(&v->cs, "Function Name");
	v->c_proc = csv_find(&v->cs, "Process Name");
	v->kind = v->c_level >= 0 ? K_TREE : K_GRAPH;
	if (choose_metric(v) < 0) {
		v->warn(v->ctx, v->name, lineno, "the report has no column for the chosen --metric");
		return -1;
	}
	if (v->kind == K_GRAPH) {
		graph_reset(v);
		v->fn = strtab_new(sizeof(struct fnode));
		v->cur = UINT32_MAX;
	}
	return 0;
}

void vsp_begin(struct vsp *v, const char *name)
{
	vsp_end(v);
	v->name = name;
	v->kind = K_NONE;
	v->reported = 0;
	v->c_level = v->c_type = -1;
}

int vsp_line(struct vsp *v, const char *line, size_t len, unsigned long lineno)
{
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
		len--;
	if (v->kind == K_BAD)
		return -1;
	if (v->kind == K_NONE) {
		if (len == 0)
			return 0;
		if (header(v, line, len, lineno) < 0) {
			v->kind = K_BAD;
			v->stats.bad_input = 1;
			return -1;
		}
		return 0;
	}
	if (len == 0)
		return 0;
	v->stats.rows++;
	if (csv_split(&v->cs, line, len) < 0) {
		malformed(v, lineno, "a quoted field is not closed");
		return 0;
	}
	if (v->kind == K_TREE)
		tree_row(v, lineno);
	else
		graph_row(v, lineno);
	return 0;
}

void vsp_end(struct vsp *v)
{
	if (v->kind == K_TREE)
		tree_end(v);
	else if (v->kind == K_GRAPH)
		graph_end(v);
	if (v->kind == K_GRAPH)
		graph_reset(v);
	v->kind = K_NONE;
}
