/* perf: perf script text -> collapsed stacks.
 *
 * An event is a header line ("comm [pid/]tid [cpu] time: [period] event:")
 * then frame lines ("addr symbol+0xoff (dso)", leaf first), ended by a
 * blank line.  Frames are tidied as stackcollapse-perf.pl does and kept
 * leaf first in fbuf; at the end of the event they are joined root first
 * behind the process name and added to the table with the period as the
 * weight (1 when perf printed none). */
#include "perf_int.h"
#include "perf_header.h"
#include "perf_memo.h"
#include "perf_pmemo.h"
#include "perf_stacks.h"
#include "folded.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_MAX 5	/* malformed lines named on stderr */
#define PREFETCH_AHEAD 1024	/* bytes of text asked for ahead of the line */

struct perf *perf_new(const struct perf_opts *o, struct strtab *out,
		      perf_warn_fn *warn, void *ctx)
{
	struct perf *p = xcalloc(1, sizeof(*p));

	p->o = o;
	p->out = out;
	p->warn = warn;
	p->ctx = ctx;
	p->name = "<stdin>";
	/* Never NULL, so an empty name is a zero-length copy into real memory. */
	p->fcap = 4096;
	p->fbuf = xmalloc(p->fcap);
	if (o->event_filter) {
		snprintf(p->st.event, sizeof(p->st.event), "%s", o->event_filter);
		p->have_event = 1;
	}
	/* With --inline, --srcline or --addrs a name depends on more than
	 * the text after the address.  Tests turn the memo off to compare. */
	if (!o->inline_frames && !o->srcline && !o->addrs && !getenv("FLAME_PERF_NO_MEMO"))
		p->memo = perf_memo_new();
	/* --addrs only names "[unknown]" frames after their address: those
	 * are looked at each time (perf_event_frame). */
	if (!o->inline_frames && !o->srcline && !getenv("FLAME_PERF_NO_MEMO"))
		p->pmemo = perf_pmemo_new();
	p->stacks = perf_stacks_new();
	perf_stacks_threads(p->stacks, o->threads);
	return p;
}

void perf_free(struct perf *p)
{
	if (!p)
		return;
	free(p->pname);
	free(p->fbuf);
	free(p->fr);
	free(p->key);
	free(p->sym);
	perf_memo_free(p->memo);
	perf_pmemo_free(p->pmemo);
	perf_stacks_free(p->stacks);
	free(p->path);
	free(p);
}

const struct perf_stats *perf_stats(const struct perf *p)
{
	return &p->st;
}

static void malformed(struct perf *p, unsigned long lineno, const char *what,
		      const char *line, size_t len)
{
	char msg[256];

	p->st.malformed++;
	if (p->reported++ >= REPORT_MAX)
		return;
	snprintf(msg, sizeof(msg), "%s: '%.*s'", what, (int)(len > 80 ? 80 : len), line);
	p->warn(p->ctx, p->name, lineno, msg);
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ---- events ---- */

/* The event's stack spelled out and added to out (events in order). */
static void add_string(struct perf *p, const struct fcount *c, int named)
{
	size_t need = p->pnamelen + 1, o = 0, i;

	for (i = 0; i < p->nfr; i++)
		need += p->fr[i].len + 1;
	xgrow(&p->key, &p->keycap, need, 1);
	if (named) {
		memcpy(p->key, p->pname, p->pnamelen);
		o = p->pnamelen;
	}
	for (i = p->nfr; i-- > 0;) {
		if (o)
			p->key[o++] = ';';
		memcpy(p->key + o, p->fbuf + p->fr[i].off, p->fr[i].len);
		o += p->fr[i].len;
	}
	fseq_put(p->out, p->o->seq, p->key, o, c);
}

/* Appends the ids of a name to the event's path: one per ';'-separated
 * field, so a stack is spelled by one list of ids only and two lists
 * never spell the same text (a process name or a DSO may hold a ';'). */
static void path_name(struct perf *p, const char *s, size_t len)
{
	const char *end = s + len, *semi;

	for (;;) {
		semi = memchr(s, ';', (size_t)(end - s));
		if (p->npath == p->pathcap)
			xgrow(&p->path, &p->pathcap, p->npath + 1, sizeof(*p->path));
		p->path[p->npath++] = perf_stacks_frame(p->stacks, s, (size_t)((semi ? semi : end) - s));
		if (!semi)
			break;
		s = semi + 1;
	}
}

/* The event's stack added to the set, root first. */
static void add_path(struct perf *p, const struct fcount *c, int named)
{
	size_t i;

	p->npath = 0;
	if (p->pathcap < 1 + p->nfr)
		xgrow(&p->path, &p->pathcap, 1 + p->nfr, sizeof(*p->path));
	if (named && p->root != NO_FID)
		p->path[p->npath++] = p->root;
	else if (named)
		path_name(p, p->pname, p->pnamelen);
	for (i = p->nfr; i-- > 0;) {
		const struct frame *f = &p->fr[i];

		/* Checked at each id: a frame spelled out may take several. */
		if (f->fid == NO_FID) {
			path_name(p, p->fbuf + f->off, f->len);
			continue;
		}
		if (p->npath == p->pathcap)
			xgrow(&p->path, &p->pathcap, p->npath + p->nfr, sizeof(*p->path));
		p->path[p->npath++] = f->fid;
	}
	perf_stacks_add(p->stacks, p->path, p->npath, c);
}

static void end_event(struct perf *p)
{
	struct fcount c;
	int named;

	if (!p->in_event)
		return;
	p->in_event = 0;
	p->srcwait = 0;
	if (p->skip == SKIP_EVENT) {
		p->st.filtered++;
		return;
	}
	/* After --skip-after the process name is not part of the stack. */
	named = p->skip != SKIP_REST || p->nfr == 0;
	c.n = p->period;
	c.frac = 0;
	if (p->o->seq)
		add_string(p, &c, named);
	else
		add_path(p, &c, named);
	p->st.samples++;
	p->st.weighted += (uint64_t)p->weighted;
}

static int event_wanted(struct perf *p, const struct perf_header *h)
{
	if (!h->event)
		return 1;
	if (!p->have_event) {
		snprintf(p->st.event, sizeof(p->st.event), "%.*s", (int)h->eventlen, h->event);
		p->have_event = 1;
		return 1;
	}
	if (strlen(p->st.event) == h->eventlen && memcmp(p->st.event, h->event, h->eventlen) == 0)
		return 1;
	/* The smallest name, so the message does not depend on input order. */
	if (!p->st.other[0] || strncmp(h->event, p->st.other, h->eventlen) < 0 ||
	    (strncmp(h->event, p->st.other, h->eventlen) == 0 && strlen(p->st.other) > h->eventlen))
		snprintf(p->st.other, sizeof(p->st.other), "%.*s", (int)h->eventlen, h->event);
	return 0;
}

/* The all-digit number of n bytes at s, or -1. */
static long id_of(const char *s, size_t n)
{
	long v = 0;
	size_t i;

	if (n == 0 || n > 9)
		return -1;
	for (i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Whether the filter keeps the event; counts what it drops. */
static int filter_keeps(struct perf *p, const struct perf_header *h)
{
	const struct filter *f = p->o->filter;
	long pid = id_of(h->pid, h->pidlen);
	int keep;

	if (!f)
		return 1;
	if ((f->npid && pid < 0) || (filter_has_time(f) && !h->has_time)) {
		p->st.unknown++;
		keep = 0;
	} else {
		keep = filter_pid(f, pid) && filter_tid(f, id_of(h->tid, h->tidlen)) &&
		       (!h->has_time || filter_time(f, h->time)) &&
		       filter_process(f, h->comm, h->commlen, 0);
	}
	p->st.outside += !keep;
	return keep;
}

static void set_pname(struct perf *p, const struct perf_header *h)
{
	size_t i, n = h->commlen + h->pidlen + h->tidlen + 2;

	xgrow(&p->pname, &p->pnamecap, n, 1);
	for (i = 0; i < h->commlen; i++)
		p->pname[i] = h->comm[i] == ' ' ? '_' : h->comm[i];
	n = h->commlen;
	if (p->o->pid || p->o->tid) {
		p->pname[n++] = '-';
		memcpy(p->pname + n, h->pid, h->pidlen);
		n += h->pidlen;
	}
	if (p->o->tid) {
		p->pname[n++] = '/';
		memcpy(p->pname + n, h->tid, h->tidlen);
		n += h->tidlen;
	}
	p->pnamelen = n;
	/* Java names lose their "L" under any root starting with "java", as
	 * stackcollapse-perf.pl has done since 2017 (FlameGraph e54f142):
	 * "java", "java-PID" and "java-PID/TID" alike, so --pid and --tid
	 * change only the root frame. */
	p->java = h->commlen >= 4 && memcmp(h->comm, "java", 4) == 0;
}

static int looks_like_header(const char *s, size_t n)
{
	struct perf_header h;
	size_t after;

	return perf_header_ids(s, n, &h, &after) == 0;
}

int perf_event_begin(struct perf *p, const struct perf_header *h)
{
	end_event(p);
	p->in_event = 1;
	p->nfr = 0;
	p->flen = 0;
	p->srcwait = 0;
	p->skip = event_wanted(p, h) && filter_keeps(p, h) ? KEEP : SKIP_EVENT;
	p->period = h->period ? h->period : 1;
	p->weighted = h->period != 0;
	p->root = NO_FID;
	set_pname(p, h);
	return p->skip == KEEP;
}

/* The memo's flag for a root frame (frames: p->java, 0 or 1). */
#define ROOT_FLAG 2

int perf_event_begin_kept(struct perf *p, const struct perf_header *h)
{
	const struct perf_memo_val *v;
	struct perf_memo_val nv;

	if (!perf_event_begin(p, h))
		return 0;
	/* With --pid or --tid the root holds more than the comm. */
	if (!p->pmemo || p->o->pid || p->o->tid || p->o->seq)
		return 1;
	if ((v = perf_pmemo_get(p->pmemo, h->comm, h->commlen, NULL, 0, ROOT_FLAG))) {
		p->root = v->frame;
		return 1;
	}
	/* A ';' makes more than one frame of it: path_name's to split. */
	if (memchr(p->pname, ';', p->pnamelen))
		return 1;
	nv.how = MEMO_NAME;
	nv.frame = p->root = perf_stacks_frame(p->stacks, p->pname, p->pnamelen);
	perf_pmemo_put(p->pmemo, h->comm, h->commlen, NULL, 0, ROOT_FLAG, &nv);
	return 1;
}

void perf_event_end(struct perf *p)
{
	end_event(p);
}

static int header_line(struct perf *p, const char *s, size_t n)
{
	struct perf_header h;
	size_t after;

	if (perf_header_ids(s, n, &h, &after) < 0)
		return -1;
	perf_header_event(s + after, n - after, &h);
	perf_event_begin(p, &h);
	/* Without a call graph perf prints the one frame on the header.  A
	 * skipped event ends there too: else the headers after it, indented
	 * when perf right-aligns the command, would read as its frames. */
	if (h.restlen && perf_tidy_line(p, h.rest, h.restlen) == 0 && (p->nfr || p->skip == SKIP_EVENT))
		end_event(p);
	return 0;
}

void perf_line(struct perf *p, const char *line, size_t len, unsigned long lineno)
{
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
		len--;
	if (len > 0 && line[0] == '#')
		return;
	if (len == 0) {
		end_event(p);
		return;
	}
	if (!p->in_event) {
		if (header_line(p, line, len) < 0)
			malformed(p, lineno, "not an event header", line, len);
		return;
	}
	if (p->skip != KEEP && !is_space(line[0]) && looks_like_header(line, len)) {
		/* Skipped events still end at the next header. */
		end_event(p);
		header_line(p, line, len);
		return;
	}
	if (p->skip != KEEP)
		return;
	if (p->srcwait) {
		perf_tidy_srcline(p, line, len);
		return;
	}
	if (perf_tidy_line(p, line, len) == 0)
		return;
	/* A header right after a stack, without the blank line between. */
	if (looks_like_header(line, len)) {
		end_event(p);
		header_line(p, line, len);
		return;
	}
	/* perf script -F +srcline without --srcline: not a frame, not wrong. */
	if (perf_srcline_like(line, len))
		return;
	/* Anything else is skipped; the event goes on. */
	malformed(p, lineno, "not a stack frame", line, len);
}

/* Hashes the frame line that comes next (trimmed as perf_line trims) and
 * has its slot of the line cache fetched while this one is worked on. */
static void look_ahead(struct perf *p, const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (!p->memo || n == 0 || !is_space(s[0]))
		return;
	p->ahead = s;
	p->aheadlen = n;
	p->aheadh = perf_memo_line_hash(s, n);
	perf_memo_line_fetch(p->memo, p->aheadh);
}

size_t perf_lines(struct perf *p, const char *text, size_t len, int final, unsigned long *lineno)
{
	const char *s = text, *end = text + len, *nl = memchr(s, '\n', len), *next;

	while (nl) {
		/* The text is read once, front to back: asking ahead saves the
		 * wait at each page, where the processor stops fetching. */
		if (end - nl > PREFETCH_AHEAD)
			__builtin_prefetch(nl + PREFETCH_AHEAD);
		next = memchr(nl + 1, '\n', (size_t)(end - (nl + 1)));
		p->cur = p->ahead;
		p->curlen = p->aheadlen;
		p->curh = p->aheadh;
		p->ahead = NULL;
		if (next)
			look_ahead(p, nl + 1, (size_t)(next - (nl + 1)));
		perf_line(p, s, (size_t)(nl - s), ++*lineno);
		s = nl + 1;
		nl = next;
	}
	if (final && s < end) {
		perf_line(p, s, (size_t)(end - s), ++*lineno);
		s = end;
	}
	p->ahead = p->cur = NULL;	/* the text may be gone before the next call */
	return (size_t)(s - text);
}

void perf_begin(struct perf *p, const char *name)
{
	end_event(p);
	/* The last input's reader may have freed the texts it was keyed by. */
	perf_pmemo_clear(p->pmemo);
	p->name = name;
	p->reported = 0;
}

int perf_first_event(const char *text, size_t len, char *out, size_t outlen)
{
	const char *s = text, *end = text + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s), after;
		struct perf_header h;

		if (n && s[0] != '#' && perf_header_ids(s, n, &h, &after) == 0) {
			perf_header_event(s + after, n - after, &h);
			if (h.event) {
				snprintf(out, outlen, "%.*s", (int)h.eventlen, h.event);
				return 0;
			}
		}
		s += n + 1;
	}
	return -1;
}

void perf_end(struct perf *p)
{
	end_event(p);
	perf_stacks_flush(p->stacks, p->out);
}

void perf_emit(struct perf *p, const struct stack_sink *sink)
{
	end_event(p);
	perf_stacks_emit(p->stacks, sink);
}

void perf_absorb(struct perf *p, struct perf *from)
{
	end_event(from);
	perf_stacks_absorb(p->stacks, from->stacks);
	/* Its frame ids may be from's now. */
	perf_pmemo_clear(p->pmemo);
}

int perf_save(struct perf *p, const char *path, char *err, size_t errlen)
{
	end_event(p);
	return perf_stacks_save(p->stacks, path, err, errlen);
}

const char *perf_count_unit(const struct perf_stats *st)
{
	if (!st->weighted || !st->event[0])
		return NULL;
	if (strcmp(st->event, "cpu-clock") == 0 || strcmp(st->event, "task-clock") == 0)
		return "ns";
	return st->event;
}
