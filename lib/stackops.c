/* stackops: each operator is one pass over the stacks' frame ids, in
 * place (no operator makes a stack longer).  A pattern's verdict on a
 * frame is computed the first time the frame is met and kept in an array
 * indexed by frame id, so regexec runs once per distinct name whatever
 * the number of stacks. */
#include "stackops.h"
#include "stackset.h"
#include "strtab.h"
#include "xalloc.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

enum kind { K_GROUP = 3000, K_FOLD, K_FOLD_PCT, K_INCLUDE, K_EXCLUDE, K_FOCUS, K_CALLERS, K_CALLEES };

/* One PATTERN->NAME of a --group list. */
struct rule {
	regex_t re;		/* the pattern */
	char *name;		/* NAME, with $0..$9 references; "": left as is */
	int entry;		/* 1 for PATTERN=>NAME, an entry group */
};

struct op {
	int kind;		/* enum kind: the option */
	char *pat;		/* the pattern as given, for messages */
	regex_t re;		/* it compiled (not for K_GROUP, K_FOLD_PCT) */
	double pct;		/* --fold-pct */
	struct rule *rule;	/* K_GROUP: consecutive --group options */
	size_t nrule;		/* how many */
};

struct stackops {
	struct op *op;		/* the operators in order */
	size_t n;		/* how many */
	size_t cap;		/* room */
};

static const struct cliopt opts[] = {
	{ "group", K_GROUP, "PAT->NAME", "rename frames matching PAT to NAME ($1..$9: its\n"
	  "groups); equal neighbours merge.  PAT=>NAME: entry\ngroup, 'NAME <<entry frame>>'; "
	  "repeated: first\nmatch wins; empty NAME: leave the frame alone" },
	{ "fold", K_FOLD, "PAT", "remove frames matching PAT, their cost to the caller" },
	{ "fold-pct", K_FOLD_PCT, "P", "fold frames whose inclusive share is under P%" },
	{ "include", K_INCLUDE, "PAT", "keep only stacks with a frame matching PAT" },
	{ "exclude", K_EXCLUDE, "PAT", "drop stacks with a frame matching PAT" },
	{ "focus", K_FOCUS, "PAT", "the outermost frame matching PAT becomes the root;\n"
	  "other stacks dropped" },
	{ "callers", K_CALLERS, "PAT", "inverted: the outermost match as root, its callers\n"
	  "above it (a butterfly's upper half)" },
	{ "callees", K_CALLEES, "PAT", "the innermost match as root, what it calls above\n"
	  "(recursion merged: the butterfly's lower half)" },
	{ NULL, 0, NULL, NULL }
};

static const char *opt_name(int kind)
{
	return opts[kind - K_GROUP].name;
}

/* Compiles pat for option kind; -1 with the regex error in err. */
static int compile(regex_t *re, int kind, const char *pat, int sub, char *err, size_t errlen)
{
	char msg[256];
	int rc;

	if (!*pat) {
		snprintf(err, errlen, "--%s: empty pattern", opt_name(kind));
		return -1;
	}
	rc = regcomp(re, pat, REG_EXTENDED | (sub ? 0 : REG_NOSUB));
	if (rc == 0)
		return 0;
	regerror(rc, re, msg, sizeof(msg));
	regfree(re);
	snprintf(err, errlen, "--%s '%s': %s", opt_name(kind), pat, msg);
	return -1;
}

static struct op *push(struct stackops *o, int kind, const char *arg)
{
	struct op *p;

	xgrow(&o->op, &o->cap, o->n + 1, sizeof(*o->op));
	p = &o->op[o->n++];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->pat = xstrndup(arg, strlen(arg));
	return p;
}

/* The last "->" or "=>" of arg, or NULL. */
static const char *arrow(const char *arg)
{
	const char *a = NULL, *p;

	for (p = arg; (p = strchr(p, '>')) != NULL; p++)
		if (p > arg && (p[-1] == '-' || p[-1] == '='))
			a = p - 1;
	return a;
}

/* Adds a PATTERN->NAME rule, to the group operator just before when the
 * previous option was --group too (one list: the first match wins). */
static int add_group(struct stackops *o, const char *arg, char *err, size_t errlen)
{
	const char *a = arrow(arg);
	char *pat;
	struct rule r;
	struct op *p;

	if (!a) {
		snprintf(err, errlen, "--group '%s': expected PATTERN->NAME or PATTERN=>NAME", arg);
		return -1;
	}
	pat = xstrndup(arg, (size_t)(a - arg));
	if (compile(&r.re, K_GROUP, pat, 1, err, errlen) < 0) {
		free(pat);
		return -1;
	}
	free(pat);
	r.name = xstrndup(a + 2, strlen(a + 2));
	r.entry = *a == '=';
	p = o->n && o->op[o->n - 1].kind == K_GROUP ? &o->op[o->n - 1] : push(o, K_GROUP, arg);
	p->rule = xrealloc(p->rule, (p->nrule + 1) * sizeof(*p->rule));
	p->rule[p->nrule++] = r;
	return 0;
}

int stackops_add(struct stackops *o, int key, const char *arg, char *err, size_t errlen)
{
	regex_t re;
	double v;
	char *end;

	if (key == K_GROUP)
		return add_group(o, arg, err, errlen);
	if (key == K_FOLD_PCT) {
		v = strtod(arg, &end);
		if (end == arg || *end || !(v >= 0 && v <= 100)) {
			snprintf(err, errlen, "--fold-pct '%s': not a percentage from 0 to 100", arg);
			return -1;
		}
		push(o, key, arg)->pct = v;
		return 0;
	}
	if (key < K_GROUP || key > K_CALLEES) {
		snprintf(err, errlen, "unknown operator");
		return -1;
	}
	if (compile(&re, key, arg, 0, err, errlen) < 0)
		return -1;
	push(o, key, arg)->re = re;
	return 0;
}

size_t stackops_count(const struct stackops *o)
{
	return o->n;
}

static void ops_release(void *obj)
{
	struct stackops *o = obj;
	size_t i, j;

	for (i = 0; i < o->n; i++) {
		struct op *p = &o->op[i];

		for (j = 0; j < p->nrule; j++) {
			regfree(&p->rule[j].re);
			free(p->rule[j].name);
		}
		if (p->kind != K_GROUP && p->kind != K_FOLD_PCT)
			regfree(&p->re);
		free(p->rule);
		free(p->pat);
	}
	free(o->op);
	memset(o, 0, sizeof(*o));
}

static int ops_set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	return stackops_add(ctx, key, arg, err, errlen);
}

const struct cliopt_family stackops_family = {
	"Stack operators (applied in the order given)", opts, ops_set, sizeof(struct stackops),
	NULL, NULL, ops_release
};

/* ---- applying ---- */

/* What one operator knows while it runs over a set. */
struct pass {
	const struct op *op;	/* the operator */
	struct stackset *s;	/* the stacks */
	unsigned char *hit;	/* frame id -> 0 unknown, 1 no match, 2 match */
	size_t nf;		/* frames when the pass began */
};

static int hit(struct pass *p, uint32_t id)
{
	if (!p->hit[id])
		p->hit[id] = regexec(&p->op->re, p->s->name[id], 0, NULL, 0) == 0 ? 2 : 1;
	return p->hit[id] == 2;
}

/* Index of the first (or, last set, the last) frame of stack i that
 * matches, or -1. */
static long find(struct pass *p, size_t i, int last)
{
	const uint32_t *f = stackset_frames(p->s, i);
	long j, n = p->s->st[i].len;

	if (!last) {
		for (j = 0; j < n; j++)
			if (hit(p, f[j]))
				return j;
		return -1;
	}
	for (j = n - 1; j >= 0; j--)
		if (hit(p, f[j]))
			return j;
	return -1;
}

/* Reshapes or drops stack i for a filtering operator; returns 1 when
 * dropped. */
static int filter_one(struct pass *p, size_t i)
{
	struct sstack *x = &p->s->st[i];
	uint32_t *f = stackset_frames(p->s, i);
	long j = find(p, i, p->op->kind == K_CALLEES), k;

	switch (p->op->kind) {
	case K_INCLUDE: return j < 0;
	case K_EXCLUDE: return j >= 0;
	case K_CALLERS:
		if (j < 0)
			return 1;
		x->len = (uint32_t)j + 1;
		for (k = 0; k < j - k; k++) {
			uint32_t t = f[k];

			f[k] = f[j - k];
			f[j - k] = t;
		}
		return 0;
	default:	/* K_FOCUS, K_CALLEES: the match becomes the root */
		if (j < 0)
			return 1;
		memmove(f, f + j, (x->len - (size_t)j) * sizeof(*f));
		x->len -= (uint32_t)j;
		return 0;
	}
}

/* Writes c with thousands separators into buf (64 bytes). */
static void grouped(const struct fcount *c, char *buf)
{
	char num[32];
	size_t len = fcount_format(c, num), digits = strcspn(num, "."), i, o = 0;

	for (i = 0; i < len; i++) {
		if (i && i < digits && (digits - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = num[i];
	}
	buf[o] = '\0';
}

static void filter(struct pass *p, stackops_say_fn *say, void *ctx)
{
	struct fcount all = { 0, 0 }, gone = { 0, 0 };
	char a[64], b[64], msg[512];
	size_t i;

	for (i = 0; i < p->s->n; i++) {
		struct sstack *x = &p->s->st[i];

		if (x->dropped)
			continue;
		fcount_add(&all, &x->c);
		if (filter_one(p, i)) {
			x->dropped = 1;
			fcount_add(&gone, &x->c);
		}
	}
	if (!say)
		return;
	grouped(&gone, a);
	grouped(&all, b);
	snprintf(msg, sizeof(msg), "--%s '%s' dropped %s of %s samples", opt_name(p->op->kind),
		 p->op->pat, a, b);
	say(ctx, msg);
}

/* Whether frame id folds: by the pattern, decided when first met, or by
 * the share fold_pct left in hit. */
static int folds(struct pass *p, uint32_t id)
{
	return p->op->kind == K_FOLD ? hit(p, id) : p->hit[id];
}

/* Removes the frames of each stack that fold; a stack that would be left
 * empty keeps its root frame. */
static void fold_by(struct pass *p)
{
	struct stackset *s = p->s;
	size_t i, j, w;

	for (i = 0; i < s->n; i++) {
		uint32_t *f = stackset_frames(s, i);
		struct sstack *x = &s->st[i];

		if (x->dropped)
			continue;
		for (j = w = 0; j < x->len; j++)
			if (!folds(p, f[j]))
				f[w++] = f[j];
		x->len = w || !x->len ? (uint32_t)w : 1;
	}
}

/* PerfView's Fold%: a frame whose inclusive count, by name (each stack
 * counted once however often the frame recurs in it), is under pct of the
 * total is folded into its caller. */
static void fold_pct(struct pass *p)
{
	struct stackset *s = p->s;
	double *inc = xcalloc(p->nf ? p->nf : 1, sizeof(*inc)), total = 0;
	size_t *seen = xcalloc(p->nf ? p->nf : 1, sizeof(*seen)), i, j;

	for (i = 0; i < s->n; i++) {
		const uint32_t *f = stackset_frames(s, i);
		double v = fcount_value(&s->st[i].c);

		if (s->st[i].dropped)
			continue;
		total += v;
		for (j = 0; j < s->st[i].len; j++)
			if (seen[f[j]] != i + 1) {
				seen[f[j]] = i + 1;
				inc[f[j]] += v;
			}
	}
	for (j = 0; j < p->nf; j++)
		p->hit[j] = inc[j] < total * p->op->pct / 100;
	fold_by(p);
	free(inc);
	free(seen);
}

/* A frame's fate under a --group list. */
struct gdec {
	uint32_t key;		/* its group (NAME's id, top bit set for an entry
				   group), NONE: in no group */
	uint32_t out;		/* the frame it becomes when it starts a run */
	int known;		/* 1 once decided */
};

/* NAME of rule r with $0..$9 replaced by what the groups of m matched in
 * name, and $$ by $, into *buf (length *len). */
static void substitute(const struct rule *r, const char *name, const regmatch_t *m, char **buf,
		       size_t *len, size_t *cap)
{
	const char *n;

	*len = 0;
	xappend(buf, len, cap, "", 0);
	for (n = r->name; *n; n++) {
		if (n[0] == '$' && n[1] >= '0' && n[1] <= '9') {
			const regmatch_t *g = &m[n[1] - '0'];

			if (g->rm_so >= 0)
				xappend(buf, len, cap, name + g->rm_so, (size_t)(g->rm_eo - g->rm_so));
			n++;
		} else {
			xappend(buf, len, cap, n, 1);
			n += n[0] == '$' && n[1] == '$';
		}
	}
}

/* Decides frame id: the first rule that matches names its group. */
static void group_decide(const struct op *op, struct stackset *s, struct gdec *d, uint32_t id,
			 char **buf, size_t *cap)
{
	const char *name = s->name[id];	/* stays put while s grows */
	regmatch_t m[10];
	size_t i, len;

	d->known = 1;
	d->key = NONE;
	for (i = 0; i < op->nrule; i++) {
		const struct rule *r = &op->rule[i];

		if (regexec(&r->re, name, 10, m, 0) != 0)
			continue;
		if (!*r->name)
			return;	/* PerfView: an empty NAME keeps the frame out */
		substitute(r, name, m, buf, &len, cap);
		d->key = stackset_intern(s, *buf, len) | (r->entry ? 0x80000000u : 0);
		d->out = d->key & 0x7fffffffu;
		if (r->entry) {
			xappend(buf, &len, cap, " <<", 3);
			xappend(buf, &len, cap, name, strlen(name));
			xappend(buf, &len, cap, ">>", 2);
			d->out = stackset_intern(s, *buf, len);
		}
		return;
	}
}

/* Renames each frame to its group and merges a run of frames of one
 * group into the first. */
static void group(struct pass *p)
{
	struct stackset *s = p->s;
	struct gdec *d = xcalloc(p->nf ? p->nf : 1, sizeof(*d));
	char *buf = NULL;
	size_t cap = 0, i, j, w;

	for (i = 0; i < s->n; i++) {
		uint32_t *f = stackset_frames(s, i), last = NONE;

		if (s->st[i].dropped)
			continue;
		for (j = w = 0; j < s->st[i].len; j++) {
			struct gdec *g = &d[f[j]];

			if (!g->known)
				group_decide(p->op, s, g, f[j], &buf, &cap);
			if (g->key != NONE && g->key == last)
				continue;
			last = g->key;
			f[w++] = g->key == NONE ? f[j] : g->out;
		}
		s->st[i].len = (uint32_t)w;
	}
	free(buf);
	free(d);
}

void stackops_run(const struct stackops *o, struct stackset *s, stackops_say_fn *say, void *ctx)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		size_t nf = strtab_count(s->frames);
		struct pass p = { &o->op[i], s, xcalloc(nf ? nf : 1, 1), nf };

		switch (p.op->kind) {
		case K_GROUP: group(&p); break;
		case K_FOLD: fold_by(&p); break;
		case K_FOLD_PCT: fold_pct(&p); break;
		default: filter(&p, say, ctx); break;
		}
		free(p.hit);
	}
}

struct strtab *stackops_apply(const struct stackops *o, const struct strtab *t,
			      stackops_say_fn *say, void *ctx)
{
	struct stackset s;
	struct strtab *out;

	stackset_init(&s, t);
	stackops_run(o, &s, say, ctx);
	out = stackset_table(&s);
	stackset_release(&s);
	return out;
}
