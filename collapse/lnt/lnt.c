/* lnt: the profile model, and what is drawn from it. */
#include "lnt.h"
#include "lnt_impl.h"
#include "strtab.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct lnt_prof *lnt_new(int version)
{
	struct lnt_prof *p = xcalloc(1, sizeof(*p));

	p->version = version;
	p->seen = strtab_new(sizeof(size_t));
	return p;
}

static void fn_release(struct lnt_fn *f)
{
	size_t i;

	for (i = 0; i < f->nins; i++) {
		free(f->ins[i].text);
		free(f->ins[i].c);
	}
	free(f->ins);
	free(f->name);
	free(f->c);
}

void lnt_free(struct lnt_prof *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nfn; i++)
		fn_release(&p->fn[i]);
	for (i = 0; i < p->ncnt; i++)
		free(p->names[i]);
	free(p->names);
	free(p->total);
	free(p->fn);
	free(p->first_skip);
	strtab_free(p->seen);
	free(p);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void lnt_set_names(struct lnt_prof *p, char *const *names, size_t n)
{
	size_t i;

	p->names = xcalloc(n ? n : 1, sizeof(*p->names));
	for (i = 0; i < n; i++)
		p->names[i] = xstrndup(names[i], strlen(names[i]));
	qsort(p->names, n, sizeof(*p->names), by_name);
	for (i = 0, p->ncnt = 0; i < n; i++)
		if (p->ncnt && strcmp(p->names[p->ncnt - 1], p->names[i]) == 0)
			free(p->names[i]);
		else
			p->names[p->ncnt++] = p->names[i];
	p->total = xcalloc(p->ncnt ? p->ncnt : 1, sizeof(*p->total));
}

int lnt_name_index(const struct lnt_prof *p, const char *s, size_t len)
{
	size_t lo = 0, hi = p->ncnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, ml = strlen(p->names[mid]);
		int d = memcmp(p->names[mid], s, ml < len ? ml : len);

		if (d == 0)
			d = ml < len ? -1 : ml > len;
		if (d == 0)
			return (int)mid;
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

struct lnt_fn *lnt_add_fn(struct lnt_prof *p, const char *s, size_t len)
{
	int added;
	uint32_t id = strtab_intern(p->seen, s, len, &added);
	size_t *at = strtab_val(p->seen, id);
	struct lnt_fn *f;

	if (added) {
		xgrow(&p->fn, &p->capfn, p->nfn + 1, sizeof(*p->fn));
		*at = p->nfn++;
	} else {
		fn_release(&p->fn[*at]);
	}
	f = &p->fn[*at];
	memset(f, 0, sizeof(*f));
	f->name = xstrndup(s, len);
	f->len = len;
	f->c = xcalloc(p->ncnt ? p->ncnt : 1, sizeof(*f->c));
	return f;
}

struct lnt_insn *lnt_add_insn(struct lnt_prof *p, struct lnt_fn *f)
{
	struct lnt_insn *in;

	if (p->ninsns >= LNT_MAX_INSNS) {
		lnt_skip(p, "instructions past the 16777216th");
		return NULL;
	}
	p->ninsns++;
	xgrow(&f->ins, &f->capins, f->nins + 1, sizeof(*f->ins));
	in = &f->ins[f->nins++];
	memset(in, 0, sizeof(*in));
	in->c = xcalloc(p->ncnt ? p->ncnt : 1, sizeof(*in->c));
	return in;
}

void lnt_skip(struct lnt_prof *p, const char *what)
{
	if (p->skipped++ == 0)
		p->first_skip = xstrndup(what, strlen(what));
}

int lnt_value_ok(double v)
{
	return isfinite(v) && v >= 0;
}

int lnt_counter(const struct lnt_prof *p, const char *name)
{
	return lnt_name_index(p, name, strlen(name));
}

int lnt_default_counter(const struct lnt_prof *p)
{
	int c = lnt_counter(p, "cycles");

	return c >= 0 ? c : p->ncnt ? 0 : -1;
}

/* Writes the digits of e, "D.DDDDe[+-]X" as %e prints it, in plain
 * notation, trailing zeros of the fraction dropped. */
static void plain(const char *e, char *buf)
{
	char digits[24];
	size_t nd = 0, o = 0;
	long x;
	const char *p;

	for (p = e; *p && *p != 'e' && nd < sizeof(digits); p++)
		if (*p >= '0' && *p <= '9')
			digits[nd++] = *p;
	x = *p == 'e' ? strtol(p + 1, NULL, 10) : 0;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (x < 0) {	/* 0.000DDD */
		buf[o++] = '0';
		buf[o++] = '.';
		for (; x < -1; x++)
			buf[o++] = '0';
		memcpy(buf + o, digits, nd);
		o += nd;
	} else {	/* DDD000 or DD.DDD */
		size_t i;

		for (i = 0; i <= (size_t)x; i++)
			buf[o++] = i < nd ? digits[i] : '0';
		if (nd > (size_t)x + 1) {
			buf[o++] = '.';
			memcpy(buf + o, digits + x + 1, nd - (size_t)x - 1);
			o += nd - (size_t)x - 1;
		}
	}
	buf[o] = '\0';
}

void lnt_number(double v, char *buf)
{
	char e[40];
	int lo = 1, hi = 17;

	/* Whole numbers print every digit; else the fewest significant
	 * digits that read back as v (more always do too, so a binary
	 * search finds them; glibc rounds exactly), in plain notation as
	 * collapsed stacks have it. */
	if (v == floor(v)) {
		snprintf(buf, LNT_NUM, "%.0f", v);
		return;
	}
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		snprintf(e, sizeof(e), "%.*e", mid - 1, v);
		if (strtod(e, NULL) == v)
			hi = mid;
		else
			lo = mid + 1;
	}
	snprintf(e, sizeof(e), "%.*e", lo - 1, v);
	plain(e, buf);
}

/* Appends n bytes of a name to *b: ';' would split the frame, line ends
 * would end the line, and a tab or NUL is no name's. */
static void put(char **b, size_t *len, size_t *cap, const char *s, size_t n)
{
	size_t i;

	xgrow(b, cap, *len + n + 2, 1);
	for (i = 0; i < n; i++) {
		char c = s[i];

		(*b)[(*len)++] = c == ';' ? ':' : c == '\n' || c == '\r' || c == '\t' || c == '\0' ? ' ' : c;
	}
}

/* Appends a frame: a ';' (unless first), then the name. */
static void frame(char **b, size_t *len, size_t *cap, int first, const char *s, size_t n)
{
	if (!first) {
		xgrow(b, cap, *len + 1, 1);
		(*b)[(*len)++] = ';';
	}
	put(b, len, cap, s, n);
}

/* One instruction's stack: the function's, then "0xADDR TEXT". */
static int insn_stack(const struct lnt_insn *in, double w, char **b, size_t *len, size_t *cap,
		      lnt_stack_fn *fn, void *ctx)
{
	char num[LNT_NUM], addr[24];
	size_t at = *len;
	int rc;

	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)in->addr);
	frame(b, len, cap, 0, addr, strlen(addr));
	if (in->text) {
		const char *t = in->text + strspn(in->text, " \t");
		size_t n = strlen(t);

		while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
			n--;
		if (n) {
			put(b, len, cap, " ", 1);
			put(b, len, cap, t, n);
		}
	}
	lnt_number(w, num);
	rc = fn(ctx, *b, *len, num);
	*len = at;
	return rc;
}

int lnt_stacks(const struct lnt_prof *p, int c, int per_insn, const char *root, lnt_stack_fn *fn,
	       void *ctx)
{
	char *b = NULL, num[LNT_NUM];
	size_t len, cap = 0, i, k;
	int rc = 0;

	for (i = 0; i < p->nfn && rc == 0; i++) {
		const struct lnt_fn *f = &p->fn[i];

		if (f->c[c] <= 0)
			continue;
		len = 0;
		if (root)
			frame(&b, &len, &cap, 1, root, strlen(root));
		frame(&b, &len, &cap, !root, f->name, f->len);
		if (!per_insn) {
			lnt_number(f->c[c], num);
			rc = fn(ctx, b, len, num);
			continue;
		}
		/* An instruction's share of its function's share. */
		for (k = 0; k < f->nins && rc == 0; k++)
			if (f->ins[k].c[c] > 0)
				rc = insn_stack(&f->ins[k], f->c[c] * f->ins[k].c[c] / 100, &b, &len,
						&cap, fn, ctx);
	}
	free(b);
	return rc < 0 ? -1 : 0;
}

/* A table row: rows go by value, then by name. */
struct row {
	double v;			/* the counter's value */
	const struct lnt_fn *f;		/* the function */
};

static int by_value(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	size_t n = x->f->len < y->f->len ? x->f->len : y->f->len;
	int d;

	if (x->v != y->v)
		return x->v < y->v ? 1 : -1;
	if ((d = memcmp(x->f->name, y->f->name, n)) != 0)
		return d;
	return x->f->len < y->f->len ? -1 : x->f->len > y->f->len;
}

/* The width of counter k's column: its name or its widest value. */
static int col_width(const struct lnt_prof *p, size_t k)
{
	char num[LNT_NUM];
	size_t w = strlen(p->names[k]), i;

	for (i = 0; i < p->nfn; i++) {
		lnt_number(p->fn[i].c[k], num);
		if (strlen(num) > w)
			w = strlen(num);
	}
	return w > 64 ? 64 : (int)w;
}

void lnt_table(FILE *f, const struct lnt_prof *p, int c)
{
	struct row *r = xcalloc(p->nfn ? p->nfn : 1, sizeof(*r));
	int *w = xcalloc(p->ncnt ? p->ncnt : 1, sizeof(*w));
	char num[LNT_NUM];
	size_t i, k;

	for (k = 0; k < p->ncnt; k++) {
		w[k] = col_width(p, k);
		fprintf(f, "%*s  ", w[k], p->names[k]);
	}
	fprintf(f, "function\n");
	for (i = 0; i < p->nfn; i++)
		r[i] = (struct row){ c >= 0 ? p->fn[i].c[c] : 0, &p->fn[i] };
	qsort(r, p->nfn, sizeof(*r), by_value);
	for (i = 0; i < p->nfn; i++) {
		for (k = 0; k < p->ncnt; k++) {
			lnt_number(r[i].f->c[k], num);
			fprintf(f, "%*s  ", w[k], num);
		}
		for (k = 0; k < r[i].f->len; k++) {
			char ch = r[i].f->name[k];

			/* One row a line: line ends and tabs become spaces. */
			fputc(ch == '\n' || ch == '\r' || ch == '\t' || ch == '\0' ? ' ' : ch, f);
		}
		fputc('\n', f);
	}
	free(w);
	free(r);
}
