/* perf: perf script text -> collapsed stacks.
 *
 * An event is a header line ("comm [pid/]tid [cpu] time: [period] event:")
 * then frame lines ("addr symbol+0xoff (dso)", leaf first), ended by a
 * blank line.  Frames are tidied as stackcollapse-perf.pl does and kept
 * leaf first in fbuf; at the end of the event they are joined root first
 * behind the process name and added to the table with the period as the
 * weight (1 when perf printed none). */
#include "perf.h"
#include "perf_dso.h"
#include "perf_frame.h"
#include "perf_header.h"
#include "rustsym.h"
#include "a2l.h"
#include "perf_memo.h"
#include "perf_pmemo.h"
#include "perf_stacks.h"
#include "folded.h"
#include "strtab.h"
#include "bytes.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define REPORT_MAX 5	/* malformed lines named on stderr */
#define PREFETCH_AHEAD 1024	/* bytes of text asked for ahead of the line */

enum skip { KEEP, SKIP_EVENT, SKIP_REST };

struct frame {
	size_t off;	/* offset in fbuf */
	size_t len;	/* bytes */
	uint32_t fid;	/* frame id of stacks, or NO_FID: the text says */
};

/* A frame line's verdict in the memo (perf_memo_val.how). */
enum { MEMO_NAME, MEMO_NONE, MEMO_SKIP = 4 };

#define NO_FID UINT32_MAX	/* a frame known by its text only */

struct perf {
	const struct perf_opts *o;	/* options */
	struct strtab *out;		/* stack -> struct fcount */
	perf_warn_fn *warn;		/* message sink */
	void *ctx;			/* its context */
	const char *name;		/* input name, for messages */
	int in_event;			/* a header was read; frames follow */
	enum skip skip;			/* what to do with the event's frames */
	int java;			/* comm starts with "java" */
	uint64_t period;		/* weight of the event */
	char *pname;			/* root frame: comm[-pid[/tid]] */
	size_t pnamelen;		/* its length */
	size_t pnamecap;		/* its capacity */
	char *fbuf;			/* frame texts */
	size_t flen;			/* bytes used */
	size_t fcap;			/* capacity */
	struct frame *fr;		/* frames, leaf first */
	size_t nfr;			/* frames in the event */
	size_t frcap;			/* capacity of fr */
	size_t srcwait;			/* frames (from the end) awaiting a source line */
	char *key;			/* the assembled stack */
	size_t keycap;			/* its capacity */
	char *sym;			/* a demangled symbol */
	size_t symcap;			/* its capacity */
	struct perf_memo *memo;		/* tidied frames by text, or NULL */
	struct perf_pmemo *pmemo;	/* perf_event_frame's frames by the
					   addresses of their texts, or NULL */
	struct perf_stacks *stacks;		/* frame names; stacks so far, unless
					   o->seq: those go to out at once */
	uint32_t root;			/* the root frame's id, or NO_FID: pname
					   says (perf_event_begin_kept) */
	uint32_t *path;			/* an event's frame ids, root first */
	size_t npath;			/* ids in path */
	size_t pathcap;			/* capacity of path */
	const char *ahead;		/* the line after the one in hand... */
	size_t aheadlen;		/* ...its length, trimmed... */
	uint64_t aheadh;		/* ...and its perf_memo_line_hash */
	const char *cur;		/* the same of the line in hand... */
	size_t curlen;			/* ...its length... */
	uint64_t curh;			/* ...and hash */
	int have_event;			/* st.event holds the event to keep */
	int weighted;			/* the event in hand printed a period */
	unsigned reported;		/* malformed lines named for this input */
	struct perf_stats st;		/* counters */
};

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

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ---- frames ---- */

static void frame_begin(struct perf *p)
{
	if (p->nfr == p->frcap)
		xgrow(&p->fr, &p->frcap, p->nfr + 1, sizeof(*p->fr));
	p->fr[p->nfr].off = p->flen;
	p->fr[p->nfr].len = 0;
	p->fr[p->nfr].fid = NO_FID;
	p->nfr++;
}

static void frame_put(struct perf *p, const char *s, size_t n)
{
	if (p->fcap - p->flen < n)
		xgrow(&p->fbuf, &p->fcap, p->flen + n, 1);
	memcpy(p->fbuf + p->flen, s, n);
	p->flen += n;
	p->fr[p->nfr - 1].len += n;
}

/* The frame being built, as a string. */
static const char *frame_text(const struct perf *p, size_t *len)
{
	const struct frame *f = &p->fr[p->nfr - 1];

	*len = f->len;
	return p->fbuf + f->off;
}

/* Writes the name of one (inlined) part of a frame. */
static void put_name(struct perf *p, const char *f, size_t n, const char *pc, size_t pclen,
		     const char *dso, size_t dlen)
{
	size_t i, start;
	int semi;

	if (n == 9 && memcmp(f, "[unknown]", 9) == 0) {
		int unknown_dso = dlen == 9 && memcmp(dso, "[unknown]", 9) == 0;

		/* An unknown symbol is named after its DSO when it has one. */
		for (start = dlen; start > 0 && dso[start - 1] != '/'; start--)
			;
		frame_put(p, "[", 1);
		if (unknown_dso)
			frame_put(p, "unknown", 7);
		else
			frame_put(p, dso + start, dlen - start);
		if (p->o->addrs) {
			frame_put(p, " <", 2);
			frame_put(p, pc, pclen);
			frame_put(p, ">", 1);
		}
		frame_put(p, "]", 1);
		return;
	}
	if (p->java && n > 1 && f[0] == 'L' && memchr(f, '/', n)) {
		f++;
		n--;
	}
	n = perf_frame_params(f, n, &semi);
	start = p->flen;
	frame_put(p, f, n);
	/* ';' separates frames in the output. */
	for (i = start; semi && i < p->flen; i++)
		if (p->fbuf[i] == ';')
			p->fbuf[i] = ':';
}

static void annotate(struct perf *p, int inlined, const char *dso, size_t dlen)
{
	size_t n;
	const char *t = frame_text(p, &n);

	if (inlined) {
		if (!bytes_contains(t, n, "_[i]"))
			frame_put(p, "_[i]", 4);
	} else if (p->o->kernel && perf_dso_kernel(dso, dlen)) {
		frame_put(p, "_[k]", 4);
	} else if (p->o->jit && perf_dso_jit(dso, dlen) && !bytes_contains(t, n, "_[j]")) {
		frame_put(p, "_[j]", 4);
	}
}

/* Finishes demangling a Rust symbol with a trailing "::h<16 hex>" hash
 * (rustsym); other symbols are returned as they are. */
static const char *rust_fix(struct perf *p, const char *f, size_t *n)
{
	size_t len;

	xgrow(&p->sym, &p->symcap, *n + 1, 1);
	if ((len = rustsym_fix(f, *n, p->sym)) == (size_t)-1)
		return f;
	*n = len;
	return p->sym;
}

static int skip_after(const struct perf *p, const char *f, size_t n)
{
	size_t i;

	for (i = 0; i < p->o->nskip_after; i++)
		if (strlen(p->o->skip_after[i]) == n && memcmp(p->o->skip_after[i], f, n) == 0)
			return 1;
	return 0;
}

/* --inline: addr2line's frames, used as they are (no tidying). */
static int inlined(struct perf *p, const char *pc, size_t pclen, const char *fn, size_t fnlen,
		   const char *dso, size_t dlen)
{
	size_t len;
	const char *t;

	if (!p->o->inline_frames || perf_dso_no_inline(dso, dlen))
		return 0;
	t = a2l_frames(p->o->inline_frames, pc, pclen, dso, dlen, fn, fnlen, &len);
	if (!t)
		return 0;
	frame_begin(p);
	frame_put(p, t, len);
	return 1;
}

/* One frame "pc sym (dso)" of the event, tidied; leaf first. */
static void event_frame(struct perf *p, const char *pc, size_t pclen, const char *fn,
			       size_t fnlen, const char *dso, size_t dlen)
{
	const char *part;
	size_t first = p->nfr, k, parts = 0;

	if (p->skip != KEEP || inlined(p, pc, pclen, fn, fnlen, dso, dlen))
		return;
	fnlen = perf_frame_strip_offset(fn, fnlen);
	/* "(comm)" is a process name, not a frame; "(anonymous namespace)::f"
	 * is a C++ function that stackcollapse-perf.pl loses this way. */
	if (fnlen > 0 && fn[0] == '(' && !(fnlen >= 21 && memcmp(fn, "(anonymous namespace)", 21) == 0))
		return;
	fn = rust_fix(p, fn, &fnlen);
	/* Java inlining ("a->b->c"): the parts after the first are inlined. */
	for (part = fn; part <= fn + fnlen; parts++) {
		const char *arrow = perf_frame_arrow(part, fn + fnlen);
		const char *pe = arrow ? arrow : fn + fnlen;

		frame_begin(p);
		put_name(p, part, (size_t)(pe - part), pc, pclen, dso, dlen);
		annotate(p, parts > 0, dso, dlen);
		part = arrow ? arrow + 2 : fn + fnlen + 1;
	}
	/* Frames are kept leaf first: the parts of one line go in reverse. */
	for (k = 0; k < parts / 2; k++) {
		struct frame t = p->fr[first + k];

		p->fr[first + k] = p->fr[p->nfr - 1 - k];
		p->fr[p->nfr - 1 - k] = t;
	}
	if (p->o->srcline && !(fnlen == 9 && memcmp(fn, "[unknown]", 9) == 0 &&
			       dlen == 9 && memcmp(dso, "[unknown]", 9) == 0))
		p->srcwait = parts;
	if (skip_after(p, fn, fnlen))
		p->skip = SKIP_REST;
}

static int tidy_frame(struct perf *p, const char *s, size_t n)
{
	const char *pc, *fn, *dso;
	size_t pclen, fnlen, dlen;

	if (perf_frame_split(s, n, &pc, &pclen, &fn, &fnlen, &dso, &dlen) < 0)
		return -1;
	event_frame(p, pc, pclen, fn, fnlen, dso, dlen);
	return 0;
}

/* Remembers what event_frame made of the symbol fn (its offset already
 * cut) in the DSO: the frame from first on (a line that made more, or a
 * name with a ';', which is more than one frame, is not kept) and
 * whether --skip-after ends the stack there.  Returns 0 with what was
 * kept in *v, or -1 when it was not. */
static int memo_put(struct perf *p, uint64_t h, const char *fn, size_t fnlen, const char *dso,
		    size_t dlen, size_t first, struct perf_memo_val *v)
{
	struct frame *f = p->nfr > first ? &p->fr[first] : NULL;

	if (p->nfr - first > 1 || (f && memchr(p->fbuf + f->off, ';', f->len)))
		return -1;
	v->how = f ? MEMO_NAME : MEMO_NONE;
	v->how |= p->skip == SKIP_REST ? MEMO_SKIP : 0;
	v->frame = NO_FID;
	if (f)
		v->frame = f->fid = perf_stacks_frame(p->stacks, p->fbuf + f->off, f->len);
	perf_memo_put(p->memo, fn, fnlen, dso, dlen, h, v);
	return 0;
}

/* A frame from the memo: its id, and its text too when the stack will be
 * spelled out whole (o->seq). */
static void memo_frame(struct perf *p, uint32_t fid)
{
	frame_begin(p);
	p->fr[p->nfr - 1].fid = fid;
	if (p->o->seq) {
		size_t len;
		const char *name = perf_stacks_frame_name(p->stacks, fid, &len);

		frame_put(p, name, len);
	}
}

/* What the memo says of a frame line, applied. */
static void memo_apply(struct perf *p, const struct perf_memo_val *v)
{
	if (v->how % MEMO_SKIP == MEMO_NAME)
		memo_frame(p, v->frame);
	if (v->how & MEMO_SKIP)
		p->skip = SKIP_REST;
}

/* A frame line: "addr symbol+0xoff (dso)", tidied once per distinct
 * symbol (without its offset) and DSO: with the memo on, nothing else
 * goes into a frame's name, so a line seen lately comes to the same
 * again.  Returns 0, or -1 when it is not a frame. */
static int frame_line(struct perf *p, const char *s, size_t n)
{
	const char *pc, *fn, *dso;
	size_t pclen, fnlen, dlen, cut, first = p->nfr;
	const struct perf_memo_val *v;
	struct perf_memo_val kept;
	uint64_t h, hl;

	/* The same text tidies differently under a "java" root, and to
	 * nothing in an event being skipped. */
	if (!p->memo || p->java || p->skip != KEEP)
		return tidy_frame(p, s, n);
	hl = s == p->cur && n == p->curlen ? p->curh : perf_memo_line_hash(s, n);
	if ((v = perf_memo_line_get(p->memo, s, n, hl))) {
		memo_apply(p, v);
		return 0;
	}
	if (perf_frame_split(s, n, &pc, &pclen, &fn, &fnlen, &dso, &dlen) < 0)
		return -1;
	cut = perf_frame_strip_offset(fn, fnlen);
	h = perf_memo_hash(fn, cut, dso, dlen);
	if ((v = perf_memo_get(p->memo, fn, cut, dso, dlen, h))) {
		perf_memo_line_put(p->memo, s, n, hl, v);
		memo_apply(p, v);
		return 0;
	}
	event_frame(p, pc, pclen, fn, fnlen, dso, dlen);
	if (memo_put(p, h, fn, cut, dso, dlen, first, &kept) == 0)
		perf_memo_line_put(p->memo, s, n, hl, &kept);
	return 0;
}

/* Remembers what event_frame made of fn in dso from frame first on, as
 * memo_put does for a text. */
static void pmemo_put(struct perf *p, const char *fn, size_t fnlen, const char *dso, size_t dlen,
		      size_t first)
{
	struct perf_memo_val v;
	struct frame *f = p->nfr > first ? &p->fr[first] : NULL;

	if (p->nfr - first > 1 || (f && memchr(p->fbuf + f->off, ';', f->len)))
		return;
	v.how = f ? MEMO_NAME : MEMO_NONE;
	v.how |= p->skip == SKIP_REST ? MEMO_SKIP : 0;
	v.frame = NO_FID;
	if (f)
		v.frame = f->fid = perf_stacks_frame(p->stacks, p->fbuf + f->off, f->len);
	perf_pmemo_put(p->pmemo, fn, fnlen, dso, dlen, (unsigned)p->java, &v);
}

/* The frame of pc, fn and dso made the long way (pc in hex, as perf
 * script prints it). */
static void event_frame_at(struct perf *p, uint64_t pc, const char *fn, size_t fnlen,
			   const char *dso, size_t dlen)
{
	char tmp[16], hex[16];
	size_t n = 0, i;

	do {
		tmp[n++] = "0123456789abcdef"[pc & 15];
		pc >>= 4;
	} while (pc);
	for (i = 0; i < n; i++)
		hex[i] = tmp[n - 1 - i];
	event_frame(p, hex, n, fn, fnlen, dso, dlen);
}

/* A reader's frame, tidied once per (symbol, DSO) text pair: the reader
 * hands over the same addresses for the same texts (perf.h), so they
 * key the memo.  A "java" root tidies the same text otherwise (the
 * flag), and --addrs puts the pc into an unknown symbol's name.  The
 * hint, when given, holds a plain frame's id + 1 (roots not "java"). */
void perf_event_frame(struct perf *p, uint64_t pc, const char *fn, size_t fnlen, const char *dso,
		      size_t dlen, uint32_t *hint)
{
	const struct perf_memo_val *v;
	size_t first = p->nfr;

	if (!p->pmemo || p->skip != KEEP ||
	    (p->o->addrs && bytes_contains(fn, fnlen, "[unknown]"))) {
		event_frame_at(p, pc, fn, fnlen, dso, dlen);
		return;
	}
	if (hint && *hint && !p->java) {
		memo_frame(p, *hint - 1);
		return;
	}
	if (!(v = perf_pmemo_get(p->pmemo, fn, fnlen, dso, dlen, (unsigned)p->java))) {
		event_frame_at(p, pc, fn, fnlen, dso, dlen);
		pmemo_put(p, fn, fnlen, dso, dlen, first);
		v = perf_pmemo_get(p->pmemo, fn, fnlen, dso, dlen, (unsigned)p->java);
		if (!v)
			return;	/* not remembered: the frames are made */
	} else {
		if (v->how % MEMO_SKIP == MEMO_NAME)
			memo_frame(p, v->frame);
		if (v->how & MEMO_SKIP)
			p->skip = SKIP_REST;
	}
	if (hint && !p->java && v->how == MEMO_NAME && v->frame != NO_FID)
		*hint = v->frame + 1;
}

/* "  file.c:12" or "  libc.so.6[27b25]": what -F +srcline writes after a
 * frame, indented by exactly two spaces (frames: a tab or many spaces). */
static int srcline_like(const char *s, size_t n)
{
	return n > 2 && s[0] == ' ' && s[1] == ' ' && !is_space(s[2]);
}

/* --srcline: "  file.c:12" after a frame; appended as "frame:file.c:12". */
static void source_line(struct perf *p, const char *s, size_t n)
{
	size_t i = p->nfr - p->srcwait, o = 0;
	struct frame *f = &p->fr[i];
	char *clean = xmalloc(n + 1);

	for (size_t j = 0; j < n; j++) {
		if (s[j] == '[') {	/* "[27b25]" address parts go */
			const char *close = memchr(s + j, ']', n - j);

			if (close) {
				j = (size_t)(close - s);
				continue;
			}
		}
		clean[o++] = s[j];
	}
	i = 0;
	while (i < o && is_space(clean[i]))
		i++;
	while (o > i && is_space(clean[o - 1]))
		o--;
	if (o > i) {
		/* Move the frame to the end of fbuf so it can grow. */
		size_t off = p->flen;

		xgrow(&p->fbuf, &p->fcap, p->flen + f->len + 1 + (o - i), 1);
		memmove(p->fbuf + off, p->fbuf + f->off, f->len);
		f->off = off;
		p->flen += f->len;
		p->fbuf[p->flen++] = ':';
		memcpy(p->fbuf + p->flen, clean + i, o - i);
		p->flen += o - i;
		f->len += 1 + (o - i);
	}
	free(clean);
	p->srcwait--;
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
	if (h.restlen && frame_line(p, h.rest, h.restlen) == 0 && (p->nfr || p->skip == SKIP_EVENT))
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
		source_line(p, line, len);
		return;
	}
	if (frame_line(p, line, len) == 0)
		return;
	/* A header right after a stack, without the blank line between. */
	if (looks_like_header(line, len)) {
		end_event(p);
		header_line(p, line, len);
		return;
	}
	/* perf script -F +srcline without --srcline: not a frame, not wrong. */
	if (srcline_like(line, len))
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
