/* vtunemc: the collapser over linefmt, its sniffer and its options. */
#include "vtunemc.h"
#include "folded.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define VTMC_MAX_DEPTH 65536	/* deeper rows are skipped */

struct vtmc {
	struct linefmt_out o;	/* first: where stacks go */
	unsigned long rows;	/* lines read, a first "war:" line not counted */
	char **frame;		/* each depth's latest frame, or NULL */
	size_t *len;		/* their lengths */
	size_t cap;		/* room in both */
	char *buf;		/* a stack being written */
	size_t bcap;		/* its room */
	char *row;		/* a row without its quotes */
	size_t rcap;		/* its room */
};

static void release(void *st)
{
	struct vtmc *v = st;
	size_t i;

	for (i = 0; i < v->cap; i++)
		free(v->frame[i]);
	free(v->frame);
	free(v->len);
	free(v->buf);
	free(v->row);
}

/* [s, e) is "", or digits with at most one '.' among them. */
static int number(const char *s, const char *e)
{
	int dot = 0;

	for (; s < e; s++)
		if (*s == '.' && !dot)
			dot = 1;
		else if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* The script's row pattern: the function runs to the first comma after
 * which three number fields (maybe empty) and a comma follow; the
 * module is the rest.  f[0..4]: function, the three fields, module. */
static int split(const char *s, size_t n, const char **f, size_t *fl)
{
	const char *e = s + n, *c = s, *p[4];
	int k;

	while ((c = memchr(c, ',', (size_t)(e - c))) != NULL) {
		p[0] = c;
		for (k = 1; k < 4 && p[k - 1] + 1 <= e; k++)
			if (!(p[k] = memchr(p[k - 1] + 1, ',', (size_t)(e - p[k - 1] - 1))) ||
			    !number(p[k - 1] + 1, p[k]))
				break;
		if (k == 4) {
			f[0] = s, fl[0] = (size_t)(c - s);
			for (k = 1; k < 4; k++)
				f[k] = p[k - 1] + 1, fl[k] = (size_t)(p[k] - f[k]);
			f[4] = p[3] + 1, fl[4] = (size_t)(e - f[4]);
			return 1;
		}
		c++;
	}
	return 0;
}

static void remember(struct vtmc *v, size_t d, const char **f, const size_t *fl)
{
	size_t old;

	if (d >= v->cap) {
		old = v->cap;
		v->cap = d + 64;
		v->frame = xrealloc(v->frame, v->cap * sizeof(*v->frame));
		v->len = xrealloc(v->len, v->cap * sizeof(*v->len));
		memset(v->frame + old, 0, (v->cap - old) * sizeof(*v->frame));
		memset(v->len + old, 0, (v->cap - old) * sizeof(*v->len));
	}
	free(v->frame[d]);
	v->len[d] = fl[0] + 1 + fl[4] + 1;
	v->frame[d] = xmalloc(v->len[d]);
	memcpy(v->frame[d], f[0], fl[0]);
	v->frame[d][fl[0]] = '(';
	memcpy(v->frame[d] + fl[0] + 1, f[4], fl[4]);
	v->frame[d][v->len[d] - 1] = ')';
}

/* The stack of depth d's row: every smaller depth's latest frame. */
static void emit(struct vtmc *v, size_t d, const struct fcount *c)
{
	size_t i, need = 0, at = 0;

	for (i = 0; i <= d; i++)
		need += v->len[i] + 1;
	if (need > v->bcap) {
		free(v->buf);
		v->buf = xmalloc(v->bcap = need);
	}
	for (i = 0; i <= d; i++) {
		memcpy(v->buf + at, v->frame[i] ? v->frame[i] : "", v->len[i]);
		at += v->len[i];
		if (i < d)
			v->buf[at++] = ';';
	}
	linefmt_addc(&v->o, v->buf, at, c);
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct vtmc *v = st;
	const struct vtunemc_opts *op = v->o.fopts;
	const char *f[5];
	size_t fl[5], d = 0, w;
	struct fcount c = { 0, 0 };

	if (v->rows == 0 && n >= 4 && memcmp(s, "war:", 4) == 0)
		return 0;
	if (v->rows++ == 0)
		return 0;	/* the header */
	xgrow(&v->row, &v->rcap, n + 1, 1);
	for (w = 0; w < n; w++)	/* quotes go, as in the script */
		if (s[w] != '"')
			v->row[d++] = s[w];
	if (!split(v->row, d, f, fl)) {
		linefmt_bad(&v->o, no);
		return 0;
	}
	for (d = 0; d < fl[0] && strchr(" \t\r\f\v", f[0][d]); d++)
		;
	if (d >= VTMC_MAX_DEPTH) {
		linefmt_bad(&v->o, no);
		return 0;
	}
	f[0] += d, fl[0] -= d;
	remember(v, d, f, fl);
	w = op && op->size ? 1 : 3;
	if (fl[w] == 0 || (fl[w] == 1 && f[w][0] == '.'))
		c.n = 0;
	else if (folded_count(f[w], fl[w], &c) < 0) {
		linefmt_bad(&v->o, no);
		return 0;
	}
	if ((op && op->size) ? fl[w] > 0 : (c.n || c.frac))
		emit(v, d, &c);
	return 0;
}

const struct linefmt vtunemc_linefmt = {
	"no rows with allocations: not a VTune memory-consumption CSV", sizeof(struct vtmc),
	NULL, line, NULL, release
};

/* The top-down header with allocation columns. */
int vtunemc_sniff(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *s;
	size_t n;

	if (!format_next_line(&p, end, &s, &n))
		return 0;
	if (n >= 4 && memcmp(s, "war:", 4) == 0 && !format_next_line(&p, end, &s, &n))
		return 0;
	if (n > 0 && s[0] == '"')
		s++, n--;
	return n >= 15 && memcmp(s, "Function Stack", 14) == 0 && memmem(s, n, "Allocation", 10)
	       ? 96 : 0;
}

int vtunemc_collect(const struct format_job *j)
{
	return linefmt_collect(j, &vtunemc_linefmt);
}

enum { O_SIZE = 1530 };

static const struct cliopt format_opts[] = {
	{ "size", O_SIZE, NULL, "weigh allocation sizes in bytes, not allocations" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct vtunemc_opts *o = ctx;

	(void)err, (void)errlen;
	if (key == O_SIZE) {
		o->size = 1;
		return 0;
	}
	return ctool_set(&o->common, key, arg);
}

const struct cliopt_family vtunemc_cli_family = {
	"VTune memory-consumption CSV (as stackcollapse-vtune-mc)", format_opts, set,
	sizeof(struct vtunemc_opts), NULL, NULL, NULL
};
