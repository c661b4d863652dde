/* stackset: a table of stacks split into frame ids.  Stacks that follow
 * each other often share their first frames (a sorted input always does),
 * so the fields within the bytes shared with the stack before are copied
 * from it instead of being looked up again. */
#include "stackset.h"
#include "bytes.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* The stack before, while splitting. */
struct prev {
	const char *s;		/* its bytes (the input table's copy) */
	size_t len;		/* their length */
	size_t *end;		/* offset where each of its fields ends */
	size_t n;		/* its fields */
	size_t cap;		/* room in end */
};

uint32_t stackset_intern(struct stackset *s, const char *name, size_t len)
{
	uint32_t id = strtab_intern(s->frames, name, len, NULL);

	if (id >= s->ncap) {
		xgrow(&s->name, &s->ncap, (size_t)id + 1, sizeof(*s->name));
		s->nlen = xrealloc(s->nlen, s->ncap * sizeof(*s->nlen));
	}
	s->name[id] = strtab_str(s->frames, id, &s->nlen[id]);
	return id;
}

/* Fields of str (len bytes) that are whole fields of the stack before. */
static size_t shared(const struct prev *p, const char *str, size_t len)
{
	size_t m = bytes_mismatch(p->s, p->len, str, len), k = 0;

	while (k < p->n && p->end[k] < m)
		k++;
	if (k < p->n && p->end[k] == m && (m == len || str[m] == ';'))
		k++;
	return k;
}

/* Splits stack i (str, len bytes) into the pool after the stacks before. */
static void split(struct stackset *s, struct prev *p, size_t i, const char *str, size_t len)
{
	size_t k = len ? shared(p, str, len) : 0, start = k ? p->end[k - 1] + 1 : 0, f = k;
	struct sstack *x = &s->st[i];

	xgrow(&s->fr, &s->frcap, s->nfr + k + (len - (start < len ? start : len)) + 1, sizeof(*s->fr));
	x->off = s->nfr;
	if (k)
		memcpy(s->fr + x->off, s->fr + s->st[i - 1].off, k * sizeof(*s->fr));
	while (len && start <= len && !(k && f == k && p->end[k - 1] == len)) {
		const char *semi = memchr(str + start, ';', len - start);
		size_t end = semi ? (size_t)(semi - str) : len;

		s->fr[x->off + f] = stackset_intern(s, str + start, end - start);
		xgrow(&p->end, &p->cap, f + 1, sizeof(*p->end));
		p->end[f++] = end;
		if (end == len)
			break;
		start = end + 1;
	}
	x->len = (uint32_t)f;
	s->nfr += f;
	p->s = str;
	p->len = len;
	p->n = f;
}

void stackset_init(struct stackset *s, const struct strtab *t)
{
	struct prev p = { "", 0, NULL, 0, 0 };
	uint32_t *ids = strtab_sorted(t);
	size_t i;

	memset(s, 0, sizeof(*s));
	s->frames = strtab_new(0);
	s->n = strtab_count(t);
	s->st = xcalloc(s->n ? s->n : 1, sizeof(*s->st));
	for (i = 0; i < s->n; i++) {
		size_t len;
		const char *str = strtab_str(t, ids[i], &len);

		s->st[i].c = *(const struct fcount *)strtab_val(t, ids[i]);
		split(s, &p, i, str, len);
	}
	free(p.end);
	free(ids);
}

void stackset_release(struct stackset *s)
{
	strtab_free(s->frames);
	free(s->name);
	free(s->nlen);
	free(s->fr);
	free(s->st);
	memset(s, 0, sizeof(*s));
}

size_t stackset_str(const struct stackset *s, size_t i, char **buf, size_t *cap)
{
	const uint32_t *f = stackset_frames(s, i);
	size_t j, len = 0, n = s->st[i].len;

	for (j = 0; j < n; j++)
		len += s->nlen[f[j]] + 1;
	xgrow(buf, cap, len + 1, 1);
	for (j = len = 0; j < n; j++) {
		if (j)
			(*buf)[len++] = ';';
		memcpy(*buf + len, s->name[f[j]], s->nlen[f[j]]);
		len += s->nlen[f[j]];
	}
	(*buf)[len] = '\0';
	return len;
}

struct strtab *stackset_table(const struct stackset *s)
{
	struct strtab *t = strtab_new(sizeof(struct fcount));
	char *buf = NULL;
	size_t cap = 0, i, len;

	for (i = 0; i < s->n; i++) {
		if (s->st[i].dropped)
			continue;
		len = stackset_str(s, i, &buf, &cap);
		fcount_add(strtab_val(t, strtab_intern(t, buf, len, NULL)), &s->st[i].c);
	}
	free(buf);
	return t;
}
