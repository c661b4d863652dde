/* lnt_v1: LNT profile v1, zlib(pickle(dict)) as LNT's ProfileV1 writes
 * it: { 'counters': {name: total}, 'disassembly-format': 'raw',
 *       'functions': { name: { 'counters': {name: % of total},
 *                              'data': [ [{name: % of function}, address,
 *                                         text], ... ] } } }
 * (the entries of 'data' put the counters first, whatever ProfileV1's
 * docstring says: cPerf writes them so and LNT reads them so). */
#include "lnt_impl.h"
#include "pickle.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Inflates the zlib stream at p into *out (the caller frees it). */
static int inflate_all(const unsigned char *p, size_t n, char **out, size_t *len, char *err,
		       size_t errlen)
{
	z_stream z;
	size_t cap = 0;
	int rc = Z_OK;

	memset(&z, 0, sizeof(z));
	*out = NULL;
	*len = 0;
	if (inflateInit(&z) != Z_OK) {
		snprintf(err, errlen, "cannot set up zlib");
		return -1;
	}
	z.next_in = (unsigned char *)(uintptr_t)p;	/* zlib does not write it */
	z.avail_in = n > UINT32_MAX ? UINT32_MAX : (uInt)n;
	while (rc == Z_OK && *len < LNT_MAX_INFLATE) {
		xgrow(out, &cap, *len + 65536, 1);
		z.next_out = (unsigned char *)*out + *len;
		z.avail_out = (uInt)(cap - *len);
		rc = inflate(&z, Z_NO_FLUSH);
		*len = cap - z.avail_out;
	}
	if (rc == Z_STREAM_END)
		rc = 0;
	else if (rc == Z_OK)
		snprintf(err, errlen, "zlib data inflates to more than %zu bytes", LNT_MAX_INFLATE);
	else if (rc == Z_BUF_ERROR)
		snprintf(err, errlen, "truncated zlib data at byte %zu", n);
	else
		snprintf(err, errlen, "corrupt zlib data at byte %lu", (unsigned long)z.total_in);
	inflateEnd(&z);
	if (rc != 0) {
		free(*out);
		*out = NULL;
	}
	return rc == 0 ? 0 : -1;
}

int lnt_v1_sniff(const unsigned char *p, size_t n)
{
	unsigned char head[4];
	z_stream z;
	int ok;

	if (n < 2 || (p[0] & 0x0f) != 8 || ((p[0] << 8) | p[1]) % 31 != 0)
		return 0;
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)(uintptr_t)p;
	z.avail_in = n > 65536 ? 65536 : (uInt)n;
	z.next_out = head;
	z.avail_out = sizeof(head);
	ok = inflate(&z, Z_NO_FLUSH);
	ok = (ok == Z_OK || ok == Z_STREAM_END) && z.avail_out < sizeof(head);
	inflateEnd(&z);
	/* A pickle of a dict: MARK then DICT (protocol 0), EMPTY_DICT, or
	 * PROTO (protocols 2 and up). */
	return ok && (head[0] == '(' || head[0] == '}' || head[0] == 0x80);
}

/* Reading the model from the values.  The memo lets a pickle use one
 * value many times (one data list for every function), which LNT's
 * never do; the work is capped so a few KB cannot cost hours. */
struct v1 {
	struct lnt_prof *p;		/* the model */
	size_t work;			/* entries visited */
	size_t budget;			/* at most */
};

static int spend(struct v1 *r, size_t n)
{
	r->work += n;
	return r->work <= r->budget;
}

/* Adds the string keys of dict d to the array *names. */
static void keys(struct v1 *r, const struct pk *d, const char ***names, size_t *n, size_t *cap)
{
	size_t i;

	if (!d || d->kind != PK_DICT || !spend(r, d->n))
		return;
	for (i = 0; i < d->n; i += 2)
		if (d->v[i]->kind == PK_STR) {
			xgrow(names, cap, *n + 1, sizeof(**names));
			(*names)[(*n)++] = d->v[i]->s;
		}
}

/* The counter names: the totals' and every function's. */
static void names(struct v1 *r, const struct pk *root, const struct pk *fns)
{
	const char **v = NULL;
	size_t n = 0, cap = 0, i;

	keys(r, pk_get(root, "counters"), &v, &n, &cap);
	for (i = 0; i + 1 < fns->n; i += 2)
		keys(r, pk_get(fns->v[i + 1], "counters"), &v, &n, &cap);
	lnt_set_names(r->p, (char *const *)(uintptr_t)v, n);
	free(v);
}

/* Counters of dict d into c (by name); what is not a number is skipped. */
static void counters(struct v1 *r, const struct pk *d, double *c)
{
	size_t i;
	double v;
	int k;

	if (!d || !spend(r, d->n))
		return;
	if (d->kind != PK_DICT) {
		lnt_skip(r->p, "counters that are not a dict");
		return;
	}
	for (i = 0; i < d->n; i += 2) {
		if (d->v[i]->kind != PK_STR || (k = lnt_name_index(r->p, d->v[i]->s, d->v[i]->n)) < 0)
			continue;	/* a name the function does not have */
		if (pk_number(d->v[i + 1], &v) < 0 || !lnt_value_ok(v))
			lnt_skip(r->p, "a counter value that is not a number of at least 0");
		else
			c[k] = v;
	}
}

/* One entry of a function's data: [counters, address, text]. */
static void insn(struct v1 *r, struct lnt_fn *f, const struct pk *e)
{
	const struct pk *a = e->kind == PK_LIST && e->n >= 3 ? e->v[1] : NULL;
	const struct pk *t = a ? e->v[2] : NULL;
	struct lnt_insn *in;

	if (!a || a->kind != PK_INT || a->neg || t->kind != PK_STR) {
		lnt_skip(r->p, "an instruction that is not [counters, address, text]");
		return;
	}
	if (!(in = lnt_add_insn(r->p, f)))
		return;
	in->addr = a->u;
	in->text = xstrndup(t->s, t->n);
	counters(r, e->v[0], in->c);
}

static void function(struct v1 *r, const struct pk *name, const struct pk *v)
{
	const struct pk *data = pk_get(v, "data");
	struct lnt_fn *f;
	size_t i;

	if (name->kind != PK_STR || v->kind != PK_DICT) {
		lnt_skip(r->p, "a function that is not a name and a dict");
		return;
	}
	f = lnt_add_fn(r->p, name->s, name->n);
	counters(r, pk_get(v, "counters"), f->c);
	if (data && data->kind != PK_LIST)
		lnt_skip(r->p, "a function's data that is not a list");
	for (i = 0; data && data->kind == PK_LIST && i < data->n && spend(r, 1); i++)
		insn(r, f, data->v[i]);
}

/* The model from the pickle's root, or NULL with a message in err. */
static struct lnt_prof *convert(const struct pk *root, size_t nvalues, char *err, size_t errlen)
{
	const struct pk *fns = pk_get(root, "functions");
	struct v1 r = { NULL, 0, 4 * nvalues + 4096 };
	size_t i;

	if (!fns || fns->kind != PK_DICT) {
		snprintf(err, errlen, "not an LNT profile: the pickle has no 'functions' dict");
		return NULL;
	}
	r.p = lnt_new(1);
	names(&r, root, fns);
	counters(&r, pk_get(root, "counters"), r.p->total);
	for (i = 0; i + 1 < fns->n && spend(&r, 1); i += 2)
		function(&r, fns->v[i], fns->v[i + 1]);
	if (r.work > r.budget) {
		snprintf(err, errlen, "the pickle uses its values over and over (memo GETs of "
			 "whole lists), not as LNT writes them: refused");
		lnt_free(r.p);
		return NULL;
	}
	return r.p;
}

struct lnt_prof *lnt_v1_read(const unsigned char *p, size_t n, char *err, size_t errlen)
{
	const struct pk *root = NULL;
	struct lnt_prof *prof = NULL;
	struct pickle *k;
	char *raw, msg[256];
	size_t len;

	if (inflate_all(p, n, &raw, &len, err, errlen) < 0)
		return NULL;
	if (!(k = pickle_load((const unsigned char *)raw, len, &root, msg, sizeof(msg))))
		snprintf(err, errlen, "%s (inflated)", msg);
	else
		prof = convert(root, pickle_values(k), err, errlen);
	pickle_free(k);
	free(raw);
	return prof;
}
