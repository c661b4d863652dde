/* etw: wpaexporter CPU sampling CSV. */
#include "etw.h"
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

enum kind { K_NONE, K_CSV, K_BAD };

struct group {
	double weight;	/* samples or weight of the group */
};

struct etw {
	const struct etw_opts *o;	/* options */
	struct strtab *out;		/* stacks */
	struct strtab *groups;		/* split: group roots -> struct group */
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
};

struct etw *etw_new(const struct etw_opts *o, struct strtab *out, int split,
		    etw_warn_fn *warn, void *ctx)
{
	struct etw *e = xcalloc(1, sizeof(*e));

	e->o = o;
	e->out = out;
	e->groups = split ? strtab_new(sizeof(struct group)) : NULL;
	e->warn = warn;
	e->ctx = ctx;
	e->name = "<stdin>";
	csv_init(&e->cs);
	return e;
}

void etw_free(struct etw *e)
{
	if (!e)
		return;
	csv_release(&e->cs);
	strtab_free(e->groups);
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

void etw_end(struct etw *e)
{
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
		e->warn(e->ctx, e->name, lineno, "xperf -a dumper text is not supported yet; "
			"export with wpaexporter instead");
		return -1;
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
	if ((e->o->has_begin || e->o->has_end) && e->c_time < 0) {
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

static int in_list(const long *list, size_t n, long v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i] == v)
			return 1;
	return n == 0;
}

/* --process: case-insensitive, ".exe" optional on either side. */
static int process_wanted(const struct etw_opts *o, const char *s, size_t n)
{
	size_t i, k;

	if (!o->nprocess)
		return 1;
	if (n >= 4 && strncasecmp(s + n - 4, ".exe", 4) == 0)
		n -= 4;
	for (i = 0; i < o->nprocess; i++) {
		k = strlen(o->process[i]);
		if (k >= 4 && strcasecmp(o->process[i] + k - 4, ".exe") == 0)
			k -= 4;
		if (k == n && strncasecmp(o->process[i], s, n) == 0)
			return 1;
	}
	return 0;
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

static void row(struct etw *e, unsigned long lineno)
{
	const struct csv_field *proc, *stack;
	size_t namelen, o = 0, roots, proc_end;
	long pid, tid = -1;
	double w = 1, t, v;
	char num[64];
	int hit = !e->o->grep, n;

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
	/* Windows thread IDs are 32-bit whole numbers. */
	if (e->c_tid >= 0 && ((size_t)e->c_tid >= e->cs.n ||
			      csv_number(e->cs.f[e->c_tid].s, e->cs.f[e->c_tid].len, 1, &v) < 0 ||
			      v < 0 || v > 4294967295.0)) {
		malformed(e, lineno, "the thread ID is not a number");
		return;
	}
	if (e->c_tid >= 0)
		tid = (long)v;
	if (e->c_weight >= 0 && ((size_t)e->c_weight >= e->cs.n || field_number(e, e->c_weight, &w) < 0)) {
		malformed(e, lineno, "the weight is not a number");
		return;
	}
	if (e->c_time >= 0 && (size_t)e->c_time < e->cs.n && field_number(e, e->c_time, &t) == 0 &&
	    ((e->o->has_begin && t < e->o->begin) || (e->o->has_end && t >= e->o->end)))
		return;
	if (!e->o->include_idle && ((namelen == 4 && memcmp(proc->s, "Idle", 4) == 0 && pid == 0) ||
				    (e->c_dpc >= 0 && (size_t)e->c_dpc < e->cs.n &&
				     e->cs.f[e->c_dpc].len == 3 &&
				     (memcmp(e->cs.f[e->c_dpc].s, "DPC", 3) == 0 ||
				      memcmp(e->cs.f[e->c_dpc].s, "ISR", 3) == 0))))
		return;
	if (!process_wanted(e->o, proc->s, namelen) || !in_list(e->o->pid, e->o->npid, pid) ||
	    !in_list(e->o->tid, e->o->ntid, tid))
		return;
	if (stack->len == 3 && memcmp(stack->s, "n/a", 3) == 0)
		return;
	if (!e->o->no_process || e->groups) {
		n = snprintf(num, sizeof(num), " (%ld)", pid);
		put(e, &o, proc->s, namelen, 0);
		if (memchr(proc->s, ';', namelen))
			fix_semicolons(e, 0, o);
		put(e, &o, num, (size_t)n, 0);
	}
	proc_end = o;
	if ((!e->o->no_thread || e->groups) && tid >= 0) {
		n = snprintf(num, sizeof(num), e->o->collapse_threads ? "TID:%ld" : "TID %ld", tid);
		put(e, &o, num, (size_t)n, 1);
	}
	roots = o;
	if (!put_stack(e, &o, stack->s, stack->len, memchr(stack->s, ';', stack->len) != NULL, &hit) ||
	    !hit || !(w > 0))
		return;
	{
		struct fcount c = { 0, 0 };

		if (w == floor(w) && w < 9007199254740992.0)
			c.n = (uint64_t)w;
		else
			c.frac = w;
		fcount_add(strtab_val(e->out, strtab_intern(e->out, e->key, o, NULL)), &c);
	}
	if (e->groups) {
		/* A group is a thread, or with collapse_threads a process. */
		size_t glen = e->o->collapse_threads ? proc_end : roots;
		struct group *g = strtab_val(e->groups, strtab_intern(e->groups, e->key, glen, NULL));

		g->weight += w;
	}
	e->st.kept++;
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
		e->kind = K_CSV;
		return 0;
	}
	if (csv_split(&e->cs, line, len) < 0) {
		malformed(e, lineno, "a quoted field is not closed");
		return 0;
	}
	row(e, lineno);
	return 0;
}

/* ---- --split ---- */

struct pick {
	uint32_t id;	/* group */
	double weight;	/* its weight */
};

static int cmp_pick(const void *a, const void *b, void *ctx)
{
	const struct pick *x = a, *y = b;
	const struct strtab *t = ctx;
	size_t lx, ly;
	const char *sx, *sy;
	int r;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	sx = strtab_str(t, x->id, &lx);
	sy = strtab_str(t, y->id, &ly);
	r = memcmp(sx, sy, lx < ly ? lx : ly);
	return r ? r : (lx > ly) - (lx < ly);
}

/* "name (pid)" or "name (pid);TID n" -> "name_pid[_n].folded", with
 * characters a path cannot hold made '_'. */
static void file_name(const char *g, size_t n, char *out, size_t size)
{
	const char *semi = memchr(g, ';', n), *head_end = semi ? semi : g + n;
	const char *open = memrchr(g, '(', (size_t)(head_end - g)), *tid = NULL;
	size_t namelen = open ? (size_t)(open - g) : (size_t)(head_end - g), i, o = 0;

	while (namelen && g[namelen - 1] == ' ')
		namelen--;
	for (i = 0; i < namelen && o + 48 < size; i++) {
		char c = g[i];

		out[o++] = c == '/' || c == '\\' || c == ' ' || (unsigned char)c < ' ' ? '_' : c;
	}
	out[o++] = '_';
	for (i = open ? (size_t)(open - g) + 1 : namelen; g + i < head_end && g[i] != ')' && o + 40 < size; i++)
		out[o++] = g[i];
	if (semi && (size_t)(g + n - semi) > 5)
		tid = semi + 5;	/* after ";TID " or ";TID:" */
	if (tid) {
		out[o++] = '_';
		while (tid < g + n && o + 10 < size)
			out[o++] = *tid++;
	}
	snprintf(out + o, size - o, ".folded");
}

static int write_group(struct etw *e, const char *path, const char *g, size_t glen,
		       const uint32_t *ids, size_t n, char *err, size_t errlen)
{
	struct outfile *of = outfile_open(path);
	size_t i;

	if (!of) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		size_t len;
		const char *s = strtab_str(e->out, ids[i], &len);

		if (len > glen && memcmp(s, g, glen) == 0 && s[glen] == ';')
			folded_write(outfile_stream(of), s, len, strtab_val(e->out, ids[i]));
	}
	if (outfile_commit(of) < 0) {
		snprintf(err, errlen, "write error on '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int etw_split(struct etw *e, const char *dir, size_t top, etw_file_fn *fn, void *ctx,
	      char *err, size_t errlen)
{
	size_t i, n = e->groups ? strtab_count(e->groups) : 0, nstacks = strtab_count(e->out);
	struct pick *p = xcalloc(n ? n : 1, sizeof(*p));
	uint32_t *ids = strtab_sorted(e->out);
	double total = 0;
	int rc = 0;

	for (i = 0; i < n; i++) {
		p[i].id = (uint32_t)i;
		p[i].weight = ((struct group *)strtab_val(e->groups, (uint32_t)i))->weight;
		total += p[i].weight;
	}
	qsort_r(p, n, sizeof(*p), cmp_pick, e->groups);
	for (i = 0; i < n && i < top && rc == 0; i++) {
		size_t glen;
		const char *g = strtab_str(e->groups, p[i].id, &glen);
		char name[256], path[4096], label[512];

		file_name(g, glen, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		snprintf(label, sizeof(label), "%.*s", (int)glen, g);
		rc = write_group(e, path, g, glen, ids, nstacks, err, errlen);
		if (rc == 0)
			fn(ctx, path, label, p[i].weight, total > 0 ? p[i].weight / total : 0);
	}
	free(ids);
	free(p);
	return rc;
}
