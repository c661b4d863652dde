/* lnt_perf: perf.data samples into an LNT profile (see the header). */
#include "lnt_perf.h"
#include "lnt_objdump.h"
#include "lread.h"
#include "outfile.h"
#include "strtab.h"
#include "xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EV_CACHE 256		/* recording event indexes remembered */

/* A (file, event, file offset) whose periods are summed. */
struct key {
	uint32_t file;		/* index in files */
	uint32_t event;		/* index in events */
	uint64_t off;		/* offset in the file */
};

struct ent {
	struct key k;		/* where */
	uint64_t sum;		/* periods */
	uint64_t vaddr;		/* the address in the file's own terms */
};

struct lnt_perf {
	struct strtab *files;	/* paths: per event, their periods */
	struct strtab *events;	/* event names: index */
	struct strtab *addrs;	/* struct key: periods */
	uint64_t total[LNT_PERF_EVENTS];	/* per event, in every file */
	uint32_t evcache[EV_CACHE];	/* recording's event + 1 -> index + 1 */
	const char *last_path;	/* the path of the last sample... */
	uint32_t last_file;	/* ...and its index */
	struct lnt_perf_stats st;	/* counts so far */
};

struct lnt_perf *lnt_perf_new(void)
{
	struct lnt_perf *a = xcalloc(1, sizeof(*a));

	a->files = strtab_new(LNT_PERF_EVENTS * sizeof(uint64_t));
	a->events = strtab_new(0);
	a->addrs = strtab_new(sizeof(uint64_t));
	return a;
}

void lnt_perf_free(struct lnt_perf *a)
{
	if (!a)
		return;
	strtab_free(a->files);
	strtab_free(a->events);
	strtab_free(a->addrs);
	free(a);
}

/* The index of h's event, or -1 when there are too many. */
static int event_of(struct lnt_perf *a, const struct perfdata_hit *h)
{
	const char *n = h->event_name ? h->event_name : "unknown";
	uint32_t id;

	if (h->event < EV_CACHE && a->evcache[h->event])
		return (int)a->evcache[h->event] - 1;
	id = strtab_find(a->events, n, strlen(n));
	if (id == UINT32_MAX) {
		if (strtab_count(a->events) >= LNT_PERF_EVENTS)
			return -1;
		id = strtab_intern(a->events, n, strlen(n), NULL);
	}
	if (h->event < EV_CACHE)
		a->evcache[h->event] = id + 1;
	return (int)id;
}

int lnt_perf_add(void *ctx, const struct perfdata_hit *h)
{
	struct lnt_perf *a = ctx;
	struct key k;
	uint64_t *v;
	int ev;

	a->st.samples++;
	if (!h->path) {
		a->st.unmapped++;
		return 0;
	}
	if ((ev = event_of(a, h)) < 0) {
		a->st.other_events++;
		return 0;
	}
	if (h->path != a->last_path) {
		a->last_file = strtab_intern(a->files, h->path, h->pathlen, NULL);
		a->last_path = h->path;
	}
	memset(&k, 0, sizeof(k));
	k.file = a->last_file;
	k.event = (uint32_t)ev;
	k.off = h->ip - h->start + h->pgoff;
	v = strtab_val(a->addrs, strtab_intern(a->addrs, (const char *)&k, sizeof(k), NULL));
	*v += h->period;
	((uint64_t *)strtab_val(a->files, k.file))[ev] += h->period;
	a->total[ev] += h->period;
	return 0;
}

static int by_place(const void *x, const void *y)
{
	const struct key *a = &((const struct ent *)x)->k, *b = &((const struct ent *)y)->k;

	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return a->event < b->event ? -1 : a->event > b->event;
}

/* Every (file, event, offset) with its periods, sorted by file and offset. */
static struct ent *entries(const struct lnt_perf *a, size_t *n)
{
	size_t i;
	struct ent *e;

	*n = strtab_count(a->addrs);
	e = xcalloc(*n ? *n : 1, sizeof(*e));
	for (i = 0; i < *n; i++) {
		memcpy(&e[i].k, strtab_str(a->addrs, (uint32_t)i, NULL), sizeof(e[i].k));
		e[i].sum = *(const uint64_t *)strtab_val(a->addrs, (uint32_t)i);
	}
	qsort(e, *n, sizeof(*e), by_place);
	return e;
}

/* What building a profile needs at hand. */
struct build {
	struct lnt_perf *a;		/* the samples */
	const struct lnt_perf_opts *o;	/* objdump, symfs */
	struct lnt_prof *p;		/* the profile made */
	uint32_t col[LNT_PERF_EVENTS];	/* event index -> counter column */
	struct strtab *names;		/* function names taken */
	const char *file;		/* the binary being read (symfs'd) */
	const struct ent *grp;		/* a function's entries... */
	size_t ngrp, at;		/* ...how many, and the next unmatched */
	const double *fsum;		/* per column, the function's periods */
};

/* The counter names sorted, as the model keeps them. */
static void counters(struct build *b)
{
	struct lnt_prof *p = b->p;
	uint32_t *ids = strtab_sorted(b->a->events);
	size_t i, n = strtab_count(b->a->events);

	p->ncnt = n;
	p->names = xcalloc(n ? n : 1, sizeof(*p->names));
	p->total = xcalloc(n ? n : 1, sizeof(*p->total));
	for (i = 0; i < n; i++) {
		size_t len;
		const char *s = strtab_str(b->a->events, ids[i], &len);

		p->names[i] = xstrndup(s, len);
		p->total[i] = (double)b->a->total[ids[i]];
		b->col[ids[i]] = (uint32_t)i;
	}
	free(ids);
}

/* Whether a file's periods are worth reading it for: over 1% of some
 * event's (compared in single precision, as cPerf compares). */
static int hot_file(const struct lnt_perf *a, uint32_t f)
{
	const uint64_t *t = strtab_val(a->files, f);
	size_t e;

	for (e = 0; e < strtab_count(a->events); e++)
		if (a->total[e] && (float)t[e] / (float)a->total[e] > 0.01f)
			return 1;
	return 0;
}

/* The symbol holding vaddr, or n. */
static size_t sym_of(const struct lnt_sym *s, size_t n, uint64_t vaddr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && vaddr < s[lo - 1].end ? lo - 1 : n;
}

/* One instruction of the function being built: the periods of its
 * address, as percentages of the function's. */
static int insn(void *ctx, uint64_t addr, const char *text, size_t len)
{
	struct build *b = ctx;
	struct lnt_fn *f = &b->p->fn[b->p->nfn - 1];
	struct lnt_insn *in;

	if (b->p->ninsns >= LNT_MAX_INSNS)
		return -1;
	if (f->nins == f->capins)
		xgrow(&f->ins, &f->capins, f->nins + 1, sizeof(*f->ins));
	in = &f->ins[f->nins++];
	b->p->ninsns++;
	in->addr = addr;
	in->text = xstrndup(text, len);
	in->c = xcalloc(b->p->ncnt ? b->p->ncnt : 1, sizeof(double));
	while (b->at < b->ngrp && b->grp[b->at].vaddr < addr)
		b->at++;
	for (; b->at < b->ngrp && b->grp[b->at].vaddr == addr; b->at++) {
		uint32_t c = b->col[b->grp[b->at].k.event];

		if (b->fsum[c] > 0)
			in->c[c] = 100.0 * (double)b->grp[b->at].sum / b->fsum[c];
	}
	return 0;
}

/* The function of symbol s from its entries g[0, n), when it holds over
 * 0.5% of some event. */
static void function(struct build *b, const struct lnt_sym *s, const struct ent *g, size_t n)
{
	struct lnt_prof *p = b->p;
	double *sum = xcalloc(p->ncnt ? p->ncnt : 1, sizeof(*sum));
	size_t i, len = strlen(s->name);
	int keep = 0, added;
	struct lnt_fn *f;

	for (i = 0; i < n; i++)
		sum[b->col[g[i].k.event]] += (double)g[i].sum;
	for (i = 0; i < p->ncnt; i++)
		if (p->total[i] > 0 && sum[i] / p->total[i] > 0.005)
			keep = 1;
	if (keep)
		strtab_intern(b->names, s->name, len, &added);
	if (keep && !added)
		b->a->st.same_name++;
	if (!keep || !added) {
		free(sum);
		return;
	}
	xgrow(&p->fn, &p->capfn, p->nfn + 1, sizeof(*p->fn));
	f = &p->fn[p->nfn++];
	memset(f, 0, sizeof(*f));
	f->name = xstrndup(s->name, len);
	f->len = len;
	f->c = xcalloc(p->ncnt ? p->ncnt : 1, sizeof(double));
	for (i = 0; i < p->ncnt; i++)
		f->c[i] = p->total[i] > 0 ? 100.0 * sum[i] / p->total[i] : 0;
	b->grp = g;
	b->ngrp = n;
	b->at = 0;
	b->fsum = sum;
	lnt_objdump_disasm(b->o->objdump ? b->o->objdump : "objdump", b->file, s->start, s->end, insn, b);
	free(sum);
}

/* The functions of one file, whose entries are e[0, n). */
static void file(struct build *b, struct ent *e, size_t n)
{
	const char *objdump = b->o->objdump ? b->o->objdump : "objdump";
	uint64_t off, vaddr;
	struct lnt_sym *s;
	size_t ns, i, j;

	b->a->st.files++;
	lnt_objdump_segment(objdump, b->file, &off, &vaddr);
	s = lnt_objdump_syms(objdump, b->file, &ns);
	if (!s) {
		if (!b->a->st.unreadable++)
			snprintf(b->a->st.first_unreadable, sizeof(b->a->st.first_unreadable), "%s",
				 b->file);
		return;
	}
	for (i = 0; i < n; i++)
		e[i].vaddr = e[i].k.off - off + vaddr;
	for (i = 0; i < n; i = j) {
		size_t k = sym_of(s, ns, e[i].vaddr);

		for (j = i + 1; j < n && sym_of(s, ns, e[j].vaddr) == k; j++)
			;
		if (k < ns)
			function(b, &s[k], e + i, j - i);
	}
	lnt_objdump_free_syms(s, ns);
}

struct lnt_prof *lnt_perf_build(struct lnt_perf *a, const struct lnt_perf_opts *o,
				struct lnt_perf_stats *st)
{
	struct build b;
	size_t n, i, j;
	struct ent *e = entries(a, &n);
	uint32_t *order = strtab_sorted(a->files);
	size_t *first = xcalloc(strtab_count(a->files) + 1, sizeof(*first));

	memset(&b, 0, sizeof(b));
	b.a = a;
	b.o = o;
	b.p = xcalloc(1, sizeof(*b.p));
	b.p->version = 2;
	b.names = strtab_new(0);
	counters(&b);
	/* Where each file's entries start (files without entries: none). */
	for (i = n; i-- > 0;)
		first[e[i].k.file] = i + 1;
	for (i = 0; i < strtab_count(a->files); i++) {
		uint32_t f = order[i];
		const char *path = strtab_str(a->files, f, NULL);
		char *full;

		if (!first[f] || path[0] != '/' || !hot_file(a, f))
			continue;
		for (j = first[f] - 1; j < n && e[j].k.file == f; j++)
			;
		full = xmalloc(strlen(path) + (o->symfs ? strlen(o->symfs) : 0) + 1);
		sprintf(full, "%s%s", o->symfs ? o->symfs : "", path);
		b.file = full;
		file(&b, e + first[f] - 1, j - (first[f] - 1));
		free(full);
	}
	strtab_free(b.names);
	free(first);
	free(order);
	free(e);
	*st = a->st;
	return b.p;
}

/* Reads one perf.data into a: 0, 1 (broke off) or -1 (err set). */
static int read_one(struct lnt_perf *a, const char *path, lnt_perf_warn_fn *warn, void *ctx,
		    char *err, size_t errlen)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct lread *lr = lread_open(path);
	struct perfdata_stats st;
	char msg[600];
	int rc;

	if (!lr) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	/* Another input: its event numbers and path strings are its own. */
	memset(a->evcache, 0, sizeof(a->evcache));
	a->last_path = NULL;
	rc = perfdata_samples(name, lr, lnt_perf_add, a, &st, warn, ctx, msg, sizeof(msg));
	lread_free(lr);
	if (rc < 0)
		snprintf(err, errlen, "%s: %s", name, msg);
	else if (st.lost) {
		snprintf(msg, sizeof(msg), "the kernel lost %" PRIu64 " samples while recording", st.lost);
		warn(ctx, name, msg);
	}
	return rc;
}

/* What the profile leaves out, said. */
static void tell(const struct lnt_perf_stats *st, lnt_perf_warn_fn *warn, void *ctx)
{
	char msg[600];

	if (st->unmapped) {
		snprintf(msg, sizeof(msg), "%" PRIu64 " of %" PRIu64 " samples lie in no mapped file "
			 "and are not counted (as LNT counts them)", st->unmapped, st->samples);
		warn(ctx, "lnt", msg);
	}
	if (st->other_events) {
		snprintf(msg, sizeof(msg), "skipped %" PRIu64 " samples of events past the first %d",
			 st->other_events, LNT_PERF_EVENTS);
		warn(ctx, "lnt", msg);
	}
	if (st->unreadable) {
		snprintf(msg, sizeof(msg), "objdump named no function in %zu of %zu files sampled "
			 "(first '%s'): their samples count in the totals only", st->unreadable,
			 st->files, st->first_unreadable);
		warn(ctx, "lnt", msg);
	}
	if (st->same_name) {
		snprintf(msg, sizeof(msg), "left out %zu functions whose names another file's "
			 "function has", st->same_name);
		warn(ctx, "lnt", msg);
	}
}

static int save(const struct lnt_prof *p, const char *out, char *err, size_t errlen)
{
	size_t len;
	unsigned char *bytes = lnt_write_v2(p, &len);
	struct outfile *f = outfile_open(out);
	int rc = -1;

	if (f && fwrite(bytes, 1, len, outfile_stream(f)) == len) {
		rc = outfile_commit(f);
		f = NULL;
	}
	if (rc < 0)
		snprintf(err, errlen, "cannot write '%s': %s", out && strcmp(out, "-") ? out : "<stdout>",
			 strerror(errno));
	outfile_abort(f);
	free(bytes);
	return rc;
}

int lnt_perf_convert(const char *const *in, int n, const struct lnt_perf_opts *o, const char *out,
		     lnt_perf_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	struct lnt_perf *a = lnt_perf_new();
	struct lnt_perf_stats st;
	struct lnt_prof *p;
	int i, rc = 0, r;

	for (i = 0; i < n && rc >= 0; i++)
		if ((r = read_one(a, in[i], warn, ctx, err, errlen)) != 0)
			rc = r;
	if (rc >= 0 && a->st.samples == a->st.unmapped + a->st.other_events) {
		snprintf(err, errlen, "no samples in a mapped file to profile");
		rc = -1;
	}
	if (rc < 0) {
		lnt_perf_free(a);
		return -1;
	}
	p = lnt_perf_build(a, o, &st);
	tell(&st, warn, ctx);
	if (save(p, out, err, errlen) < 0)
		rc = -1;
	lnt_free(p);
	lnt_perf_free(a);
	return rc;
}
