/* stackdiff: union of two profiles, per-function totals. */
#include "stackdiff.h"
#include "folded.h"
#include "strtab.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void add_all(struct strtab *u, const struct strtab *t, int side)
{
	size_t i, n = strtab_count(t);

	for (i = 0; i < n; i++) {
		size_t len;
		const char *s = strtab_str(t, (uint32_t)i, &len);
		struct fcount *v = strtab_val(u, strtab_intern(u, s, len, NULL));

		fcount_add(&v[side], strtab_val(t, (uint32_t)i));
	}
}

struct strtab *stackdiff_union(const struct strtab *a, const struct strtab *b)
{
	struct strtab *u = strtab_new(2 * sizeof(struct fcount));

	add_all(u, a, 0);
	add_all(u, b, 1);
	return u;
}

double stackdiff_total(const struct strtab *t)
{
	size_t i, n = strtab_count(t);
	double sum = 0;

	for (i = 0; i < n; i++)
		sum += fcount_value(strtab_val(t, (uint32_t)i));
	return sum;
}

/* Adds one stack's two values to its functions; seen marks the functions
 * already counted for this stack (recursion counts once). */
static void add_stack(struct strtab *names, struct stackdiff_fn **fns, size_t *cap,
		      const char *s, size_t len, const double w[2], uint32_t **seen, size_t *scap)
{
	size_t a = 0, nseen = 0, k;

	while (a <= len) {
		const char *semi = memchr(s + a, ';', len - a);
		size_t b = semi ? (size_t)(semi - s) : len;
		int added;
		uint32_t id = strtab_intern(names, s + a, b - a, &added);
		struct stackdiff_fn *f;

		xgrow(fns, cap, id + 1, sizeof(**fns));
		f = &(*fns)[id];
		if (added)
			memset(f, 0, sizeof(*f));
		for (k = 0; k < nseen && (*seen)[k] != id; k++)
			;
		if (k == nseen) {
			xgrow(seen, scap, nseen + 1, sizeof(**seen));
			(*seen)[nseen++] = id;
			f->incl[0] += w[0];
			f->incl[1] += w[1];
		}
		if (b == len) {
			f->self[0] += w[0];
			f->self[1] += w[1];
		}
		a = b + 1;
	}
}

struct stackdiff_fn *stackdiff_functions(const struct strtab *u, struct strtab *names, size_t *n)
{
	struct stackdiff_fn *fns = NULL;
	uint32_t *seen = NULL;
	size_t cap = 0, scap = 0, i, count = strtab_count(u);

	for (i = 0; i < count; i++) {
		size_t len;
		const char *s = strtab_str(u, (uint32_t)i, &len);
		const struct fcount *v = strtab_val(u, (uint32_t)i);
		double w[2] = { fcount_value(&v[0]), fcount_value(&v[1]) };

		add_stack(names, &fns, &cap, s, len, w, &seen, &scap);
	}
	free(seen);
	*n = strtab_count(names);
	for (i = 0; i < *n; i++)
		fns[i].name = strtab_str(names, (uint32_t)i, NULL);
	return fns;
}

/* s (len bytes) with its hex numbers as "0x..." into d (room: 3 len + 8). */
static size_t strip_hex(const char *s, size_t len, char *d)
{
	size_t o = 0, k = 0;

	while (k < len) {
		if (s[k] == '0' && k + 2 < len && s[k + 1] == 'x' && isxdigit((unsigned char)s[k + 2])) {
			for (k += 2; k < len && isxdigit((unsigned char)s[k]); k++)
				;
			memcpy(d + o, "0x...", 5);
			o += 5;
			continue;
		}
		d[o++] = s[k++];
	}
	return o;
}

struct strtab *stackdiff_strip_hex(const struct strtab *t)
{
	struct strtab *out = strtab_new(sizeof(struct fcount));
	size_t i, len, n;

	for (i = 0; i < strtab_count(t); i++) {
		const char *s = strtab_str(t, (uint32_t)i, &len);
		char *d = xmalloc(len * 3 + 8);

		n = strip_hex(s, len, d);
		fcount_add(strtab_val(out, strtab_intern(out, d, n, NULL)), strtab_val(t, (uint32_t)i));
		free(d);
	}
	return out;
}

void stackdiff_normalize(struct strtab *u, double ta, double tb, int whole)
{
	size_t i;

	if (!(ta > 0) || ta == tb)
		return;
	for (i = 0; i < strtab_count(u); i++) {
		struct fcount *v = strtab_val(u, (uint32_t)i);
		double scaled = fcount_value(&v[0]) * tb / ta;

		v[0].n = whole ? (uint64_t)scaled : 0;
		v[0].frac = whole ? 0 : scaled;
	}
}
