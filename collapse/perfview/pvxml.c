/* pvxml: a tag-level XML scanner.  Only the text of Frame and Sample
 * elements is kept, and only the attributes PerfView defines. */
#include "pvxml.h"
#include "bytes.h"
#include "xalloc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 256			/* deeper nesting is refused */
#define MAX_NAME 256			/* element and attribute names */
#define MAX_TEXT ((size_t)64 << 20)	/* longer text is refused */
#define REPORT_MAX 5			/* bad references named per input */

enum el { EL_OTHER, EL_FRAME, EL_STACK, EL_SAMPLE };
enum at { AT_ID, AT_CALLER, AT_FRAME, AT_STACK, AT_METRIC, AT_TIME, AT_N };

static const char *const at_names[AT_N] = { "ID", "CallerID", "FrameID", "StackID", "Metric", "Time" };
static const int at_len[AT_N] = { 2, 8, 7, 7, 6, 4 };

struct pvxml {
	struct pv *p;			/* where samples go */
	struct pvin *in;		/* input */
	char *names;			/* open elements' names, NUL-separated */
	size_t nlen;			/* bytes in names */
	size_t ncap;			/* room */
	size_t open[MAX_DEPTH];		/* offset of each open element's name */
	int depth;			/* open elements */
	char *text;			/* text of the Frame or Sample being read */
	size_t tlen;			/* its length */
	size_t tcap;			/* room */
	int capture;			/* depth whose text is kept, 0: none */
	enum el kind;			/* what capture is for */
	char at[AT_N][64];		/* attribute values of the last tag... */
	int has[AT_N];			/* ...and which it gave (kept while capturing) */
	char name[MAX_NAME + 1];	/* the attribute name just read */
	char tag[MAX_NAME + 1];		/* the element name just read */
	int root_done;			/* the document element closed */
	unsigned long tline, tcol;	/* where the last start tag began */
	unsigned long cline, ccol;	/* where the element being handled began */
	struct pvin pos;		/* a position for messages (where()) */
	unsigned bad_refs;		/* malformed references seen */
};

static int broken(struct pvxml *x, const char *what)
{
	return pv_broken(x->p, x->in, "XML", what);
}

/* The input's position at line:col, for messages about a tag seen earlier. */
static const struct pvin *where(struct pvxml *x, unsigned long line, unsigned long col)
{
	x->pos = *x->in;
	x->pos.line = line;
	x->pos.col = col;
	return &x->pos;
}

static void tput(struct pvxml *x, const char *s, size_t n)
{
	xappend(&x->text, &x->tlen, &x->tcap, s, n);
}

static void tput_utf8(struct pvxml *x, unsigned long cp)
{
	char b[4];

	tput(x, b, bytes_utf8(b, cp));
}

/* The code point of "#123" or "#x1F", or -1 when it is not a valid one. */
static long char_ref(const char *s, size_t n)
{
	unsigned long v = 0;
	size_t i = 1;
	int hex = n > 1 && s[1] == 'x';

	if (n < 2 || s[0] != '#' || (hex && n < 3))
		return -1;
	for (i += (size_t)hex; i < n; i++) {
		int c = s[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			return -1;
		v = v * (hex ? 16 : 10) + (unsigned long)d;
		if (v > 0x10ffff)
			return -1;
	}
	if (v == 0 || (v >= 0xd800 && v < 0xe000))
		return -1;
	return (long)v;
}

/* After '&': decodes a reference into text; a malformed one is kept as
 * written, with a warning. */
static int reference(struct pvxml *x)
{
	static const char *const names[] = { "lt", "gt", "amp", "quot", "apos" };
	static const char chars[] = "<>&\"'";
	char ref[16];
	size_t n = 0;
	int c;
	long cp;
	unsigned long line = x->in->line, col = x->in->col;

	while (n < sizeof(ref) - 1 && (c = pvin_peek(x->in)) >= 0 && c != ';' && c != '<' &&
	       c != '&' && c != '"' && c != '\'' && c > ' ')
		ref[n++] = (char)pvin_get(x->in);
	ref[n] = 0;
	if (pvin_peek(x->in) == ';') {
		size_t i;

		for (i = 0; i < 5; i++)
			if (strcmp(ref, names[i]) == 0)
				break;
		pvin_get(x->in);
		if (i < 5) {
			tput(x, chars + i, 1);
			return 0;
		}
		if ((cp = char_ref(ref, n)) > 0) {
			tput_utf8(x, (unsigned long)cp);
			return 0;
		}
		ref[n++] = ';';
	}
	if (x->bad_refs++ < REPORT_MAX)
		pv_warn(x->p, where(x, line, col), "malformed entity or character reference "
			"'&%.*s': kept as written", (int)n, ref);
	tput(x, "&", 1);
	tput(x, ref, n);
	return 0;
}

/* Character data up to the next '<'; kept only while capturing. */
static int chars(struct pvxml *x)
{
	struct pvin *in = x->in;
	int c;

	while ((c = pvin_peek(in)) >= 0 && c != '<') {
		size_t start = in->pos, i = start;

		while (i < in->len && in->buf[i] != '<' && in->buf[i] != '&' && in->buf[i] != '\n')
			i++;
		if (x->capture)
			tput(x, in->buf + start, i - start);
		in->col += i - start;
		in->pos = i;
		c = pvin_peek(in);
		if (c == '&') {
			pvin_get(in);
			if (x->capture ? reference(x) < 0 : 0)
				return -1;
		} else if (c == '\n') {
			pvin_get(in);
			if (x->capture)
				tput(x, "\n", 1);
		}
		if (x->tlen > MAX_TEXT)
			return broken(x, "element text longer than 64 MiB");
	}
	return 0;
}

/* Skips to just after the terminator term (e.g. "-->"). */
static int skip_to(struct pvxml *x, const char *term, const char *what)
{
	size_t k = strlen(term), m = 0;
	int c;

	while (m < k) {
		if ((c = pvin_get(x->in)) < 0)
			return broken(x, what);
		m = c == term[m] ? m + 1 : c == term[0] ? 1 : 0;
	}
	return 0;
}

/* A CDATA section's text after "<![CDATA[".  The last two bytes wait
 * until they are known not to be the "]]" of the end. */
static int cdata(struct pvxml *x)
{
	int c, older = -1, newer = -1;

	for (;;) {
		if ((c = pvin_get(x->in)) < 0)
			return broken(x, "the input ends inside a CDATA section");
		if (c == '>' && older == ']' && newer == ']')
			return 0;
		if (older >= 0 && x->capture)
			tput(x, (const char[]){ (char)older }, 1);
		older = newer;
		newer = c;
	}
}

/* After "<!": a comment, CDATA, or a declaration (DOCTYPE: skipped with
 * its internal subset, nothing in it is used). */
static int bang(struct pvxml *x)
{
	char head[8];
	int n = 0, c, nest = 0;

	while (n < 7 && (c = pvin_peek(x->in)) >= 0 && c != '>' && c != ' ' && c != '\n') {
		head[n++] = (char)pvin_get(x->in);
		if (n == 2 && !memcmp(head, "--", 2))
			return skip_to(x, "-->", "the input ends inside a comment");
		if (n == 7 && !memcmp(head, "[CDATA[", 7))
			return cdata(x);
	}
	while ((c = pvin_get(x->in)) >= 0) {
		if (c == '[')
			nest++;
		else if (c == ']')
			nest--;
		else if (c == '>' && nest <= 0)
			return 0;
	}
	return broken(x, "the input ends inside a declaration");
}

static int is_name_char(int c)
{
	return c >= 0 && c != '>' && c != '/' && c != '=' && c != '<' && c != '"' && c != '\'' &&
	       c != ' ' && c != '\t' && c != '\n' && c != '\r';
}

/* A name into x->name; returns its length or -1. */
static int name(struct pvxml *x)
{
	int n = 0;

	while (is_name_char(pvin_peek(x->in))) {
		if (n == MAX_NAME)
			return broken(x, "a name longer than 256 characters");
		x->name[n++] = (char)pvin_get(x->in);
	}
	x->name[n] = 0;
	return n ? n : broken(x, "expected a name");
}

static int ws(struct pvxml *x)
{
	int c;

	while ((c = pvin_peek(x->in)) == ' ' || c == '\n' || c == '\r' || c == '\t')
		pvin_get(x->in);
	return c;
}

/* Consumes the bytes of an attribute value in the buffer up to the
 * quote q or a byte needing care ('<', '&', a newline), keeping up to
 * 63 in all when capturing (kept: so far); then returns the next byte,
 * consumed, or -1. */
static int plain_run(struct pvxml *x, int q, size_t kept)
{
	struct pvin *in = x->in;
	size_t start = in->pos, i = start, keep, room = kept < 63 ? 63 - kept : 0;

	while (i < in->len && in->buf[i] != q && in->buf[i] != '<' && in->buf[i] != '&' &&
	       in->buf[i] != '\n')
		i++;
	if (x->capture) {
		keep = i - start < room ? i - start : room;
		tput(x, in->buf + start, keep);
	}
	in->col += i - start;
	in->pos = i;
	return pvin_get(in);
}

/* An attribute's quoted value; kept in slot when it is one PerfView
 * defines (slot < AT_N). */
static int attr_value(struct pvxml *x, int slot)
{
	size_t save_len = x->tlen, n;
	int save_cap = x->capture, q = ws(x), c;

	if (q != '"' && q != '\'')
		return broken(x, "an attribute value must be quoted");
	pvin_get(x->in);
	x->capture = slot < AT_N;
	while ((c = plain_run(x, q, x->tlen - save_len)) != q) {
		if (c < 0 || c == '<') {
			x->capture = save_cap;
			return broken(x, c < 0 ? "the input ends inside an attribute value"
					       : "'<' in an attribute value");
		}
		if (c == '&' && x->capture && x->tlen - save_len < 63)
			reference(x);
		else if (x->capture && x->tlen - save_len < 63)
			tput(x, (const char[]){ (char)c }, 1);
	}
	if (slot < AT_N) {
		n = x->tlen - save_len;
		memcpy(x->at[slot], x->text + save_len, n > 63 ? 63 : n);
		x->at[slot][n > 63 ? 63 : n] = 0;
		x->has[slot] = 1;
	}
	x->tlen = save_len;
	x->capture = save_cap;
	return 0;
}

/* The slot of attribute name s (n bytes), AT_N for one PerfView does not
 * define.  Called for every attribute: no library call. */
static int attr_slot(const char *s, int n)
{
	int i, k;

	for (i = 0; i < AT_N; i++) {
		if (at_len[i] != n)
			continue;
		for (k = 0; k < n && s[k] == at_names[i][k]; k++)
			;
		if (k == n)
			return i;
	}
	return AT_N;
}

/* Attributes up to '>' or "/>"; returns 1 for an empty element, 0, -1. */
static int attributes(struct pvxml *x)
{
	int c, i, n;

	if (!x->capture)
		memset(x->has, 0, sizeof(x->has));
	for (;;) {
		c = ws(x);
		if (c == '/') {
			pvin_get(x->in);
			return pvin_get(x->in) == '>' ? 1 : broken(x, "expected '>' after '/'");
		}
		if (c == '>') {
			pvin_get(x->in);
			return 0;
		}
		if (c < 0)
			return broken(x, "the input ends inside a tag");
		if ((n = name(x)) < 0)
			return -1;
		i = attr_slot(x->name, n);
		if (x->capture)
			i = AT_N;
		if (ws(x) != '=')
			return broken(x, "expected '=' after an attribute name");
		pvin_get(x->in);
		if (attr_value(x, i) < 0)
			return -1;
	}
}

/* An integer attribute; returns 0, or -1 (with a warning) when it is
 * missing or not an integer. */
static int int_attr(struct pvxml *x, enum at a, long dflt, long *v)
{
	char *end;

	if (!x->has[a]) {
		*v = dflt;
		if (dflt != LONG_MIN)
			return 0;
		pv_warn(x->p, where(x, x->cline, x->ccol), "element without its %s attribute: ignored",
			at_names[a]);
		return -1;
	}
	*v = strtol(x->at[a], &end, 10);
	if (end == x->at[a] || *end) {
		pv_warn(x->p, where(x, x->cline, x->ccol), "%s=\"%s\" is not an integer: element ignored",
			at_names[a], x->at[a]);
		return -1;
	}
	return 0;
}

/* Trims spaces, tabs and line ends off both ends of s[*start, *end). */
static void trim(const char *s, size_t *start, size_t *end)
{
	while (*start < *end && (s[*start] == ' ' || s[*start] == '\t' || s[*start] == '\r' ||
				 s[*start] == '\n'))
		(*start)++;
	while (*end > *start && (s[*end - 1] == ' ' || s[*end - 1] == '\t' ||
				 s[*end - 1] == '\r' || s[*end - 1] == '\n'))
		(*end)--;
}

/* A Sample's body, frames one per line, leaf first: trimmed in place
 * and packed for pv_sample_frames. */
static size_t inline_frames(struct pvxml *x, size_t **lens, size_t *lcap)
{
	size_t i = 0, o = 0, n = 0;

	while (i < x->tlen) {
		const char *nl = memchr(x->text + i, '\n', x->tlen - i);
		size_t stop = nl ? (size_t)(nl - x->text) : x->tlen, a = i, b = stop;

		trim(x->text, &a, &b);
		if (b > a) {
			memmove(x->text + o, x->text + a, b - a);
			o += b - a;
			xgrow(lens, lcap, n + 1, sizeof(**lens));
			(*lens)[n++] = b - a;
		}
		i = stop + 1;
	}
	return n;
}

/* The sample of a Sample element, at its end (or at "/>"). */
static void sample(struct pvxml *x)
{
	const char *m = x->has[AT_METRIC] ? x->at[AT_METRIC] : NULL;
	const char *t = x->has[AT_TIME] ? x->at[AT_TIME] : NULL;
	size_t a = 0, b = x->tlen, *lens = NULL, lcap = 0, n;
	long sid;

	trim(x->text, &a, &b);
	if (b > a) {
		n = inline_frames(x, &lens, &lcap);
		pv_sample_frames(x->p, where(x, x->cline, x->ccol), x->text, lens, n, m, m ? strlen(m) : 0,
				 t, t ? strlen(t) : 0);
		free(lens);
		return;
	}
	if (int_attr(x, AT_STACK, LONG_MIN, &sid) == 0)
		pv_sample_stack(x->p, where(x, x->cline, x->ccol), sid, m, m ? strlen(m) : 0, t,
				t ? strlen(t) : 0);
}

/* The element whose text was captured ends. */
static void finish(struct pvxml *x)
{
	long id;

	if (x->kind == EL_SAMPLE)
		sample(x);
	else if (int_attr(x, AT_ID, LONG_MIN, &id) == 0)
		pv_frame(x->p, where(x, x->cline, x->ccol), id, x->text, x->tlen);
	x->capture = 0;
	x->tlen = 0;
}

/* What a start tag means; empty says it was "<.../>". */
static void start(struct pvxml *x, int empty)
{
	long id, caller, fid;

	if (x->capture)
		return;		/* markup inside a Frame or Sample: only its text counts */
	x->cline = x->tline;
	x->ccol = x->tcol;
	if (strcmp(x->tag, "Stack") == 0) {
		if (int_attr(x, AT_ID, LONG_MIN, &id) == 0 && int_attr(x, AT_CALLER, -1, &caller) == 0 &&
		    int_attr(x, AT_FRAME, LONG_MIN, &fid) == 0)
			pv_stack(x->p, where(x, x->cline, x->ccol), id, caller, fid);
		return;
	}
	x->kind = strcmp(x->tag, "Frame") == 0 ? EL_FRAME
		  : strcmp(x->tag, "Sample") == 0 ? EL_SAMPLE : EL_OTHER;
	if (x->kind == EL_OTHER)
		return;
	x->tlen = 0;
	x->capture = x->depth + !empty;
	if (empty)
		finish(x);
}

static int open_tag(struct pvxml *x)
{
	size_t n;
	int empty, len;

	if ((len = name(x)) < 0)
		return -1;
	memcpy(x->tag, x->name, (size_t)len + 1);
	if ((empty = attributes(x)) < 0)
		return -1;
	if (x->root_done)
		return broken(x, "a second document element");
	start(x, empty);
	if (empty) {
		x->root_done = x->depth == 0;
		return 0;
	}
	if (x->depth == MAX_DEPTH)
		return broken(x, "elements nested deeper than 256 levels");
	n = (size_t)len + 1;
	xgrow(&x->names, &x->ncap, x->nlen + n, 1);
	memcpy(x->names + x->nlen, x->tag, n);
	x->open[x->depth++] = x->nlen;
	x->nlen += n;
	return 0;
}

static int close_tag(struct pvxml *x)
{
	if (name(x) < 0)
		return -1;
	if (ws(x) != '>')
		return broken(x, "expected '>' to end a closing tag");
	pvin_get(x->in);
	if (x->depth == 0 || strcmp(x->names + x->open[x->depth - 1], x->name) != 0) {
		char msg[MAX_NAME * 2 + 64];

		snprintf(msg, sizeof(msg), "</%s> does not close <%s>", x->name,
			 x->depth ? x->names + x->open[x->depth - 1] : "nothing");
		return broken(x, msg);
	}
	if (x->capture == x->depth)
		finish(x);
	x->nlen = x->open[--x->depth];
	x->root_done = x->depth == 0;
	return 0;
}

/* After '<'. */
static int markup(struct pvxml *x)
{
	int c = pvin_peek(x->in);

	if (c == '?') {
		pvin_get(x->in);
		return skip_to(x, "?>", "the input ends inside a processing instruction");
	}
	if (c == '!') {
		pvin_get(x->in);
		return bang(x);
	}
	if (c == '/') {
		pvin_get(x->in);
		return close_tag(x);
	}
	return open_tag(x);
}

int pvxml_parse(struct pv *p, struct pvin *in)
{
	struct pvxml x;
	int rc = 0;

	memset(&x, 0, sizeof(x));
	x.p = p;
	x.in = in;
	while (rc == 0) {
		if (chars(&x) < 0) {
			rc = -1;
			break;
		}
		if (pvin_get(in) < 0)
			break;
		x.tline = in->line;
		x.tcol = in->col;
		rc = markup(&x);
	}
	if (rc == 0 && x.depth > 0) {
		char msg[MAX_NAME + 64];

		snprintf(msg, sizeof(msg), "the input ends inside <%s>", x.names + x.open[x.depth - 1]);
		rc = broken(&x, msg);
	}
	if (rc == 0 && !x.root_done && in->eof >= 0)
		rc = broken(&x, "no document element");
	free(x.names);
	free(x.text);
	return rc;
}
