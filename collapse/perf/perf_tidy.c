/* perf_tidy: a frame line of perf script's text (or a frame the perf.data
 * reader named) to the frames it names, tidied as stackcollapse-perf.pl
 * does: offsets cut, C++ parameters dropped, Rust names fixed, [k]/[j]/[i]
 * marks, --inline and --srcline frames; each distinct text tidied once
 * (perf_memo by text, perf_pmemo by where the reader's texts lie). */
#include "perf_int.h"
#include "perf_dso.h"
#include "perf_frame.h"
#include "perf_memo.h"
#include "perf_pmemo.h"
#include "perf_stacks.h"
#include "rustsym.h"
#include "a2l.h"
#include "bytes.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

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
int perf_tidy_line(struct perf *p, const char *s, size_t n)
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
int perf_srcline_like(const char *s, size_t n)
{
	return n > 2 && s[0] == ' ' && s[1] == ' ' && !is_space(s[2]);
}

/* --srcline: "  file.c:12" after a frame; appended as "frame:file.c:12". */
void perf_tidy_srcline(struct perf *p, const char *s, size_t n)
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

