/* etw: wpaexporter CPU sampling CSV. */
#include "etw.h"
#include "filter.h"
#include "bytes.h"
#include "csv.h"
#include "folded.h"
#include "outfile.h"
#include "strtab.h"
#include "xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define REPORT_MAX 5	/* malformed rows named per input */

enum kind { K_NONE, K_CSV, K_HEADER, K_DUMP, K_BAD };

/* Columns of a dumper event type, from the header block. */
struct dcols {
	int ts, proc, tid, count;	/* SampledProfile(Nmi): -1 when absent */
	int no, addr, func;		/* Stack */
};

/* A dumper sample waiting for its stack fragments. */
struct pend {
	uint32_t proc;		/* process ("name (pid)") in procs */
	int64_t tid;		/* thread */
	double weight;		/* Count, or 1 */
	char *frag[2];		/* kernel, user: frames leaf first, ';'-joined */
	size_t flen[2];		/* their lengths */
};

struct etw {
	const struct etw_opts *o;	/* options */
	struct strtab *out;		/* stacks */
	int split;			/* roots always written, for splitting */
	etw_warn_fn *warn;		/* messages */
	void *ctx;			/* their context */
	const char *name;		/* input name */
	enum kind kind;			/* of this input */
	struct csv cs;			/* tokenizer */
	int c_proc, c_tid, c_stack, c_time, c_weight, c_dpc;	/* columns, -1 absent */
	unsigned reported;		/* malformed rows named */
	char *key;			/* the stack being built */
	size_t keycap;			/* its capacity */
	struct etw_stats st;		/* counters */
	struct csv_field *df;		/* dumper: fields of a line */
	size_t dn;			/* how many */
	size_t dcap;			/* capacity */
	struct dcols sample;		/* dumper: SampledProfile columns */
	struct dcols nmi;		/* dumper: SampledProfileNmi columns */
	struct dcols stack;		/* dumper: Stack columns */
	struct strtab *pending;		/* (ts, tid) -> struct pend */
	struct strtab *procs;		/* process names */
	char *run;			/* the Stack run being read: frames leaf first */
	size_t runlen;			/* its length */
	size_t runcap;			/* its capacity */
	int64_t run_ts, run_tid;	/* its key */
	long run_next;			/* the No. expected next, 0: no run */
	int run_kernel;			/* its first address is a kernel one */
};

struct etw *etw_new(const struct etw_opts *o, struct strtab *out, int split,
		    etw_warn_fn *warn, void *ctx)
{
	struct etw *e = xcalloc(1, sizeof(*e));

	e->o = o;
	e->out = out;
	e->split = split;
	e->warn = warn;
	e->ctx = ctx;
	e->name = "<stdin>";
	csv_init(&e->cs);
	return e;
}

static void dump_reset(struct etw *e);

void etw_free(struct etw *e)
{
	if (!e)
		return;
	dump_reset(e);
	free(e->df);
	free(e->run);
	csv_release(&e->cs);
	free(e->key);
	free(e);
}

const struct etw_stats *etw_stats(const struct etw *e)
{
	return &e->st;
}

void etw_begin(struct etw *e, const char *name)
{
	e->name = name;
	e->kind = K_NONE;
	e->reported = 0;
}

static void dump_end(struct etw *e);

void etw_end(struct etw *e)
{
	if (e->kind == K_DUMP || e->kind == K_HEADER)
		dump_end(e);
	e->kind = K_NONE;
}

static void malformed(struct etw *e, unsigned long lineno, const char *what)
{
	e->st.malformed++;
	if (e->reported++ < REPORT_MAX)
		e->warn(e->ctx, e->name, lineno, what);
}

/* The last column whose name contains "Stack". */
static int stack_column(const struct csv *cs)
{
	size_t i;
	int found = -1;

	for (i = 0; i < cs->n; i++)
		if (bytes_contains(cs->f[i].s, cs->f[i].len, "Stack"))
			found = (int)i;
	return found;
}

static int header(struct etw *e, const char *line, size_t len, unsigned long lineno)
{
	if (len >= 11 && memcmp(line, "BeginHeader", 11) == 0) {
		dump_reset(e);
		e->kind = K_HEADER;
		return 0;
	}
	if (csv_split(&e->cs, line, len) < 0)
		return -1;
	e->c_proc = csv_find(&e->cs, "Process");
	if (e->c_proc < 0)
		e->c_proc = csv_find(&e->cs, "Process Name");
	e->c_tid = csv_find(&e->cs, "Thread ID");
	e->c_stack = stack_column(&e->cs);
	e->c_time = csv_find(&e->cs, "TimeStamp");
	e->c_dpc = csv_find(&e->cs, "DPC/ISR");
	e->c_weight = -1;
	if (e->c_proc < 0 || e->c_stack < 0) {
		e->warn(e->ctx, e->name, lineno, "not a wpaexporter CPU sampling export "
			"(the header needs Process and Stack columns)");
		return -1;
	}
	if (e->o->weight && (e->c_weight = csv_find(&e->cs, e->o->weight)) < 0) {
		e->warn(e->ctx, e->name, lineno, "--weight: the export has no such column");
		return -1;
	}
	if (filter_has_time(&e->o->filter) && e->c_time < 0) {
		e->warn(e->ctx, e->name, lineno, "--begin/--end: the export has no TimeStamp column");
		return -1;
	}
	return 0;
}

/* "name (pid)": the PID is the number in the last parentheses. */
static int split_process(const char *s, size_t n, size_t *namelen, long *pid)
{
	const char *open = NULL, *p;
	char *end;

	while (n && s[n - 1] == ' ')
		n--;
	if (!n || s[n - 1] != ')')
		return -1;
	for (p = s; (p = memchr(p, '(', n - (size_t)(p - s))); p++)
		open = p;
	if (!open)
		return -1;
	*pid = strtol(open + 1, &end, 10);
	if (end == open + 1 || end != s + n - 1)
		return -1;
	for (*namelen = (size_t)(open - s); *namelen && s[*namelen - 1] == ' '; (*namelen)--)
		;
	return 0;
}

/* Whether the filters keep a sample of process s (n bytes) pid, thread tid. */
static int wanted(const struct filter *f, const char *s, size_t n, long pid, long tid)
{
	return filter_process(f, s, n, 1) && filter_pid(f, pid) && filter_tid(f, tid);
}

/* Appends s to the key (after a ';' when sep).  A ';' inside a name is
 * made ':' by the caller (fix_semicolons), who checks for one per field. */
static void put(struct etw *e, size_t *o, const char *s, size_t n, int sep)
{
	if (e->keycap - *o < n + 2)
		xgrow(&e->key, &e->keycap, *o + n + 2, 1);
	if (sep && *o)
		e->key[(*o)++] = ';';
	memcpy(e->key + *o, s, n);
	*o += n;
}

/* ';' separates frames: in a name copied into key[from, to) it becomes ':'. */
static void fix_semicolons(struct etw *e, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (e->key[i] == ';')
			e->key[i] = ':';
}

/* Whether the text [q, stop) between two '/' looks like a frame:
 * "module!function", "[...]", "?", or nothing. */
static int frame_like(const char *q, const char *stop)
{
	return q == stop || *q == '[' || memchr(q, '!', (size_t)(stop - q)) ||
	       (stop - q == 1 && *q == '?');
}

static void put_frame(struct etw *e, size_t *o, const char *f, size_t len, int semi,
		      size_t *frames, int *grep_hit)
{
	if (!len || (*frames == 0 && len == 6 && memcmp(f, "[Root]", 6) == 0))
		return;
	put(e, o, f, len, 1);
	if (semi)
		fix_semicolons(e, *o - len, *o);
	(*frames)++;
	if (e->o->grep && memmem(f, len, e->o->grep, strlen(e->o->grep)))
		*grep_hit = 1;
}

/* Appends the frames of a Stack field; returns how many.  A '/' separates
 * frames only when the text after it looks like a frame, so "operator/="
 * stays whole.  semi: the field has a ';', to be made ':'. */
static size_t put_stack(struct etw *e, size_t *o, const char *s, size_t n, int semi, int *grep_hit)
{
	const char *end = s + n, *f = s, *p = memchr(s, '/', n);
	size_t frames = 0;

	while (p) {
		const char *q = p + 1, *next = memchr(q, '/', (size_t)(end - q));

		if (frame_like(q, next ? next : end)) {
			put_frame(e, o, f, (size_t)(p - f), semi, &frames, grep_hit);
			f = q;
		}
		p = next;
	}
	put_frame(e, o, f, (size_t)(end - f), semi, &frames, grep_hit);
	return frames;
}

static int field_number(const struct etw *e, int col, double *v)
{
	return csv_number(e->cs.f[col].s, e->cs.f[col].len, 0, v);
}

/* Whether a row's DPC/ISR column says it is one. */
static int dpc_row(const struct etw *e)
{
	const struct csv_field *f;

	if (e->c_dpc < 0 || (size_t)e->c_dpc >= e->cs.n)
		return 0;
	f = &e->cs.f[e->c_dpc];
	return f->len == 3 && (memcmp(f->s, "DPC", 3) == 0 || memcmp(f->s, "ISR", 3) == 0);
}

/* The row's thread ID (-1: no column) and weight; returns -1 after
 * naming what is malformed. */
static int row_numbers(struct etw *e, unsigned long lineno, long *tid, double *w)
{
	double v;

	/* Windows thread IDs are 32-bit whole numbers. */
	if (e->c_tid >= 0 && ((size_t)e->c_tid >= e->cs.n ||
			      csv_number(e->cs.f[e->c_tid].s, e->cs.f[e->c_tid].len, 1, &v) < 0 ||
			      v < 0 || v > 4294967295.0)) {
		malformed(e, lineno, "the thread ID is not a number");
		return -1;
	}
	*tid = e->c_tid >= 0 ? (long)v : -1;
	*w = 1;
	if (e->c_weight >= 0 && ((size_t)e->c_weight >= e->cs.n || field_number(e, e->c_weight, w) < 0)) {
		malformed(e, lineno, "the weight is not a number");
		return -1;
	}
	return 0;
}

/* Adds the stack built in e->key (o bytes) weighing w. */
static void add_stack(struct etw *e, size_t o, double w)
{
	struct fcount c = { 0, 0 };
	uint32_t id;

	if (w == floor(w) && w < 9007199254740992.0)
		c.n = (uint64_t)w;
	else
		c.frac = w;
	id = strtab_intern(e->out, e->key, o, NULL);
	fcount_add(strtab_val(e->out, id), &c);
	if (e->o->seq)
		fseq_add(e->o->seq, id, &c, NULL);
	e->st.kept++;
}

/* The root frames: "name (pid)" and "TID n" (or "TID:n"). */
static void put_roots(struct etw *e, size_t *o, const char *name, size_t namelen, long pid, long tid)
{
	char num[64];
	int n;

	if (!e->o->no_process || e->split) {
		n = snprintf(num, sizeof(num), " (%ld)", pid);
		put(e, o, name, namelen, 0);
		if (memchr(name, ';', namelen))
			fix_semicolons(e, 0, *o);
		put(e, o, num, (size_t)n, 0);
	}
	if ((!e->o->no_thread || e->split) && tid >= 0) {
		n = snprintf(num, sizeof(num), e->o->collapse_threads ? "TID:%ld" : "TID %ld", tid);
		put(e, o, num, (size_t)n, 1);
	}
}

static void row(struct etw *e, unsigned long lineno)
{
	const struct csv_field *proc, *stack;
	size_t namelen, o = 0;
	long pid, tid;
	double w, t;
	int hit = !e->o->grep;

	if ((size_t)e->c_proc >= e->cs.n || (size_t)e->c_stack >= e->cs.n) {
		malformed(e, lineno, "missing columns");
		return;
	}
	e->st.rows++;
	proc = &e->cs.f[e->c_proc];
	stack = &e->cs.f[e->c_stack];
	if (split_process(proc->s, proc->len, &namelen, &pid) < 0) {
		malformed(e, lineno, "the process is not \"name (pid)\"");
		return;
	}
	if (row_numbers(e, lineno, &tid, &w) < 0)
		return;
	if (e->c_time >= 0 && (size_t)e->c_time < e->cs.n && field_number(e, e->c_time, &t) == 0 &&
	    !filter_time(&e->o->filter, t))
		return;
	if (!e->o->include_idle &&
	    ((namelen == 4 && memcmp(proc->s, "Idle", 4) == 0 && pid == 0) || dpc_row(e)))
		return;
	if (!wanted(&e->o->filter, proc->s, namelen, pid, tid) ||
	    (stack->len == 3 && memcmp(stack->s, "n/a", 3) == 0))
		return;
	put_roots(e, &o, proc->s, namelen, pid, tid);
	if (put_stack(e, &o, stack->s, stack->len, memchr(stack->s, ';', stack->len) != NULL, &hit) &&
	    hit && w > 0)
		add_stack(e, o, w);
}

/* ---- xperf -a dumper ---- */

static void dump_reset(struct etw *e)
{
	size_t i;

	if (e->pending) {
		for (i = 0; i < strtab_count(e->pending); i++) {
			struct pend *pd = strtab_val(e->pending, (uint32_t)i);

			free(pd->frag[0]);
			free(pd->frag[1]);
		}
	}
	strtab_free(e->pending);
	strtab_free(e->procs);
	e->pending = NULL;
	e->procs = NULL;
	e->run_next = 0;
	e->runlen = 0;
}

/* Splits at commas (the last column may hold more) and trims spaces. */
static void dump_split(struct etw *e, const char *s, size_t n)
{
	const char *p = s, *end = s + n;

	e->dn = 0;
	for (;;) {
		const char *c = memchr(p, ',', (size_t)(end - p)), *fe = c ? c : end, *a = p;
		struct csv_field *f;

		while (a < fe && (*a == ' ' || *a == '\t'))
			a++;
		while (fe > a && (fe[-1] == ' ' || fe[-1] == '\t'))
			fe--;
		if (e->dn == e->dcap)
			xgrow(&e->df, &e->dcap, e->dn + 1, sizeof(*e->df));
		f = &e->df[e->dn++];
		f->s = a;
		f->len = (size_t)(fe - a);
		if (!c)
			break;
		p = c + 1;
	}
}

static int dfield_is(const struct csv_field *f, const char *name)
{
	size_t i = 0;
	const char *b = name;

	/* Compared without spaces: "Process Name ( PID)". */
	for (;; b++) {
		while (i < f->len && f->s[i] == ' ')
			i++;
		while (*b == ' ')
			b++;
		if (i == f->len || !*b)
			return i == f->len && !*b;
		if (f->s[i] != *b)
			return 0;
		i++;
	}
}

static int dcol(const struct etw *e, const char *name)
{
	size_t i;

	for (i = 1; i < e->dn; i++)
		if (dfield_is(&e->df[i], name))
			return (int)i;
	return -1;
}

/* A header block line: "EventName, Column, Column, ...". */
static void dump_header_line(struct etw *e)
{
	struct dcols *c = NULL;

	if (dfield_is(&e->df[0], "SampledProfile"))
		c = &e->sample;
	else if (dfield_is(&e->df[0], "SampledProfileNmi"))
		c = &e->nmi;
	else if (dfield_is(&e->df[0], "Stack"))
		c = &e->stack;
	if (!c)
		return;
	c->ts = dcol(e, "TimeStamp");
	c->proc = dcol(e, "Process Name ( PID)");
	c->tid = dcol(e, "ThreadID");
	c->count = dcol(e, "Count");
	c->no = dcol(e, "No.");
	c->addr = dcol(e, "Address");
	c->func = dcol(e, "Image!Function");
}

static int dnum(const struct etw *e, int col, int64_t *v)
{
	char buf[32], *end;
	const struct csv_field *f;

	if (col < 0 || (size_t)col >= e->dn)
		return -1;
	f = &e->df[col];
	if (!f->len || f->len >= sizeof(buf))
		return -1;
	memcpy(buf, f->s, f->len);
	buf[f->len] = '\0';
	*v = strtoll(buf, &end, 0);
	return *end ? -1 : 0;
}

static uint32_t pend_key(struct etw *e, int64_t ts, int64_t tid, int add, int *added)
{
	int64_t k[2] = { ts, tid };

	if (!add)
		return strtab_find(e->pending, (const char *)k, sizeof(k));
	return strtab_intern(e->pending, (const char *)k, sizeof(k), added);
}

static void dump_sample(struct etw *e, const struct dcols *c, unsigned long lineno)
{
	const struct csv_field *proc;
	int64_t ts, tid, count = 1;
	size_t namelen;
	long pid;
	char name[512];
	struct pend *pd;
	int added, n;

	if (dnum(e, c->ts, &ts) < 0 || dnum(e, c->tid, &tid) < 0 || c->proc < 0 ||
	    (size_t)c->proc >= e->dn || tid < 0 || tid > 4294967295LL) {
		malformed(e, lineno, "a sample without a time stamp, process or thread");
		return;
	}
	e->st.rows++;
	proc = &e->df[c->proc];
	if (split_process(proc->s, proc->len, &namelen, &pid) < 0) {
		malformed(e, lineno, "the process is not \"name (pid)\"");
		return;
	}
	if (c->count >= 0 && (dnum(e, c->count, &count) < 0 || count < 1))
		count = 1;
	if (!filter_time(&e->o->filter, ts / 1e6))
		return;
	if (!e->o->include_idle && namelen == 4 && memcmp(proc->s, "Idle", 4) == 0 && pid == 0)
		return;
	if (!wanted(&e->o->filter, proc->s, namelen, pid, (long)tid))
		return;
	n = snprintf(name, sizeof(name), "%.*s (%ld)", (int)(namelen > 400 ? 400 : namelen), proc->s, pid);
	pd = strtab_val(e->pending, pend_key(e, ts, tid, 1, &added));
	if (!added)
		return;	/* the same key twice: the first stands */
	pd->proc = strtab_intern(e->procs, name, (size_t)n, NULL);
	pd->tid = tid;
	pd->weight = (double)count;
}

/* The run of Stack lines ended: it is a fragment of the sample with its
 * key, if any. */
static void run_done(struct etw *e)
{
	uint32_t id;
	struct pend *pd;
	int k = e->run_kernel ? 0 : 1;

	if (!e->run_next)
		return;
	e->run_next = 0;
	id = pend_key(e, e->run_ts, e->run_tid, 0, NULL);
	if (id == UINT32_MAX) {
		e->st.unmatched++;
		return;
	}
	pd = strtab_val(e->pending, id);
	if (pd->frag[k])
		return;	/* a second fragment of the same kind: the first stands */
	pd->frag[k] = xstrndup(e->run, e->runlen);
	pd->flen[k] = e->runlen;
}

static int kernel_address(const char *s, size_t n)
{
	uint64_t a;
	char buf[32];

	if (n >= sizeof(buf))
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	a = strtoull(buf, NULL, 16);
	/* 0x%016I64x: 64-bit traces print 18 characters, 32-bit ones fit 32 bits. */
	return a > 0xffffffffULL ? a >= 0xffff800000000000ULL : a >= 0x80000000ULL;
}

/* Appends a frame: quotes dropped ("Unknown"!0x..), an unresolved
 * "module!0xADDR" shown as module!<PDB_not_found> unless addrs, ';' as ':'. */
static void run_frame(struct etw *e, const char *f, const char *end)
{
	const char *bang = memchr(f, '!', (size_t)(end - f)), *p;
	size_t need = (size_t)(end - f) + 24;

	if (e->runcap - e->runlen < need)
		xgrow(&e->run, &e->runcap, e->runlen + need, 1);
	if (e->runlen)
		e->run[e->runlen++] = ';';
	for (p = f; p < end; p++) {
		if (*p == '"')
			continue;
		if (bang && p == bang + 1 && !e->o->addrs && end - p > 2 && p[0] == '0' && p[1] == 'x') {
			memcpy(e->run + e->runlen, "<PDB_not_found>", 15);
			e->runlen += 15;
			break;
		}
		e->run[e->runlen++] = *p == ';' ? ':' : *p;
	}
}

static void dump_stack(struct etw *e, unsigned long lineno)
{
	const struct dcols *c = &e->stack;
	int64_t ts, tid, no;
	const char *f, *end;

	if (dnum(e, c->ts, &ts) < 0 || dnum(e, c->tid, &tid) < 0 || dnum(e, c->no, &no) < 0 ||
	    c->func < 0 || (size_t)c->func >= e->dn || c->addr < 0 || (size_t)c->addr >= e->dn) {
		run_done(e);
		malformed(e, lineno, "a Stack line without time stamp, thread, No., address or function");
		return;
	}
	if (no == 1 || ts != e->run_ts || tid != e->run_tid || no != e->run_next) {
		run_done(e);
		if (no != 1) {
			malformed(e, lineno, "a Stack line out of sequence");
			return;
		}
		e->run_ts = ts;
		e->run_tid = tid;
		e->runlen = 0;
		e->run_kernel = kernel_address(e->df[c->addr].s, e->df[c->addr].len);
	}
	e->run_next = (long)no + 1;
	/* Image!Function is the last column and may hold commas. */
	f = e->df[c->func].s;
	end = e->df[e->dn - 1].s + e->df[e->dn - 1].len;
	run_frame(e, f, end);
}

static int dump_line(struct etw *e, const char *line, size_t len, unsigned long lineno)
{
	dump_split(e, line, len);
	if (e->kind == K_HEADER) {
		if (dfield_is(&e->df[0], "EndHeader")) {
			e->kind = K_DUMP;
			e->pending = strtab_new(sizeof(struct pend));
			e->procs = strtab_new(0);
		} else {
			dump_header_line(e);
		}
		return 0;
	}
	if (dfield_is(&e->df[0], "Stack")) {
		dump_stack(e, lineno);
		return 0;
	}
	run_done(e);
	if (dfield_is(&e->df[0], "SampledProfile"))
		dump_sample(e, &e->sample, lineno);
	else if (e->o->nmi && dfield_is(&e->df[0], "SampledProfileNmi"))
		dump_sample(e, &e->nmi, lineno);
	return 0;
}

/* Appends the ';'-joined leaf-first frames of frag root first. */
static void put_reversed(struct etw *e, size_t *o, const char *frag, size_t n, int *hit)
{
	const char *end = frag + n;

	while (end > frag) {
		const char *semi = memrchr(frag, ';', (size_t)(end - frag));
		const char *f = semi ? semi + 1 : frag;

		put(e, o, f, (size_t)(end - f), 1);
		if (e->o->grep && memmem(f, (size_t)(end - f), e->o->grep, strlen(e->o->grep)))
			*hit = 1;
		end = semi ? semi : frag;
	}
}

static void dump_emit(struct etw *e, const struct pend *pd)
{
	size_t o = 0, len;
	const char *proc = strtab_str(e->procs, pd->proc, &len);
	char num[32];
	int hit = !e->o->grep, n;

	if (!pd->frag[0] && !pd->frag[1])
		return;	/* no stack */
	if (!e->o->no_process || e->split)
		put(e, &o, proc, len, 0);
	if (!e->o->no_thread || e->split) {
		n = snprintf(num, sizeof(num), e->o->collapse_threads ? "TID:%lld" : "TID %lld",
			     (long long)pd->tid);
		put(e, &o, num, (size_t)n, 1);
	}
	/* Root first: the user part, then the kernel part (the leaf side). */
	if (pd->frag[1])
		put_reversed(e, &o, pd->frag[1], pd->flen[1], &hit);
	if (pd->frag[0])
		put_reversed(e, &o, pd->frag[0], pd->flen[0], &hit);
	if (hit)
		add_stack(e, o, pd->weight);
}

static void dump_end(struct etw *e)
{
	size_t i;

	run_done(e);
	for (i = 0; e->pending && i < strtab_count(e->pending); i++)
		dump_emit(e, strtab_val(e->pending, (uint32_t)i));
	dump_reset(e);
}

int etw_line(struct etw *e, const char *line, size_t len, unsigned long lineno)
{
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
		len--;
	if (e->kind == K_BAD)
		return -1;
	if (len == 0)
		return 0;
	if (e->kind == K_NONE) {
		if (header(e, line, len, lineno) < 0) {
			e->kind = K_BAD;
			e->st.bad_input = 1;
			return -1;
		}
		if (e->kind == K_NONE)
			e->kind = K_CSV;
		return 0;
	}
	if (e->kind == K_HEADER || e->kind == K_DUMP)
		return dump_line(e, line, len, lineno);
	if (csv_split(&e->cs, line, len) < 0) {
		malformed(e, lineno, "a quoted field is not closed");
		return 0;
	}
	row(e, lineno);
	return 0;
}

/* ---- samples read elsewhere (collapse/etl) ---- */

void etw_emit(struct etw *e, const char *proc, size_t plen, long pid, long tid, double t,
	      const char *frames, size_t flen)
{
	size_t o = 0;
	int hit = !e->o->grep;

	e->st.rows++;
	if (!filter_time(&e->o->filter, t) || !wanted(&e->o->filter, proc, plen, pid, tid))
		return;
	if (!hit && flen && memmem(frames, flen, e->o->grep, strlen(e->o->grep)))
		hit = 1;
	if (!hit)
		return;
	put_roots(e, &o, proc, plen, pid, tid);
	if (flen)
		put(e, &o, frames, flen, 1);
	add_stack(e, o, 1);
}
