/* jstack: the collapser.  Frames come leaf first: each is written right
 * to left into one buffer, the thread name last, so the finished stack is
 * in order. */
#include "jstack.h"
#include "leafstack.h"
#include "bytes.h"
#include "folded.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WARN 10	/* unrecognised lines named one by one; the rest counted */

enum { UNKNOWN, RUNNABLE, OTHER };	/* a thread's state, as far as it matters */

struct jstack {
	struct jstack_opts o;		/* options */
	struct strtab *t;		/* stacks out */
	struct fseq *seq;		/* input order, or NULL */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	const char *name;		/* the input */
	struct leafstack st;		/* the stack so far */
	char *tname;			/* the thread's name... */
	int named;			/* ...when it has one */
	size_t tlen, tcap;		/* its length and room */
	char *tmp;			/* a shortened frame */
	size_t tmpcap;			/* its room */
	int state;			/* UNKNOWN, RUNNABLE or OTHER */
	uint64_t samples, threads, bad;	/* stacks added, threads seen, lines not known */
};

struct jstack *jstack_new(const struct jstack_opts *o, struct strtab *t, struct fseq *seq,
			  collect_warn_fn *warn, void *ctx, const char *name)
{
	struct jstack *j = xcalloc(1, sizeof(*j));

	if (o)
		j->o = *o;
	j->t = t;
	j->seq = seq;
	j->warn = warn;
	j->ctx = ctx;
	j->name = name;
	leafstack_init(&j->st);
	return j;
}

void jstack_free(struct jstack *j)
{
	if (!j)
		return;
	leafstack_release(&j->st);
	free(j->tname);
	free(j->tmp);
	free(j);
}

static int ends_with(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && memcmp(s + n - k, w, k) == 0;
}

/* A blank line ends a thread: a runnable one is a sample. */
static void end_thread(struct jstack *j)
{
	struct fcount c = { 1, 0 };
	const char *text;
	size_t len;

	if (j->state == RUNNABLE && j->named)
		memcpy(leafstack_room(&j->st, j->tlen), j->tname, j->tlen);
	if (j->state == RUNNABLE && j->st.nframes) {
		text = leafstack_text(&j->st, &len);
		fseq_put(j->t, j->seq, text, len, &c);
		j->samples++;
	}
	leafstack_clear(&j->st);
	j->named = 0;
	j->state = UNKNOWN;
}

/* "C2 CompilerThread0" and the JVM's other threads of its own. */
static int background(const char *s, size_t n)
{
	const char *p = s, *e = s + n;

	while ((p = memmem(p, (size_t)(e - p), " CompilerThread", 15))) {
		if (p - s >= 2 && p[-2] == 'C')
			return 1;
		p++;
	}
	return bytes_contains(s, n, "Signal Dispatcher") || bytes_contains(s, n, "Service Thread") ||
	       bytes_contains(s, n, "Attach Listener");
}

/* '"name" #12 daemon prio=5 ...': the thread's name. */
static void thread_line(struct jstack *j, const char *s, size_t n)
{
	const char *q = memchr(s + 1, '"', n - 1);
	size_t len = q ? (size_t)(q - s - 1) : n - 1, k;

	j->threads++;
	if (!j->o.no_tname) {
		k = len;
		if (!j->o.tid) {	/* a "-123" suffix */
			while (k > 0 && s[k] >= '0' && s[k] <= '9')
				k--;
			if (k < len && k > 0 && s[k] == '-')
				len = k - 1;
		}
		xgrow(&j->tname, &j->tcap, len + 1, 1);
		memcpy(j->tname, s + 1, len);
		j->tlen = len;
		j->named = 1;
	}
	if (background(s + 1, len))
		j->state = OTHER;
}

/* "java.util.HashMap.get" -> "j.u.HashMap.get": each package word to its
 * first letter.  Names with fewer than two dots stay as they are. */
static size_t shorten(const char *f, size_t n, char *out)
{
	size_t cut = n, dots = 0, i, o = 0;

	while (cut > 0 && dots < 2)
		if (f[--cut] == '.')
			dots++;
	if (dots < 2) {
		memcpy(out, f, n);
		return n;
	}
	cut++;		/* the package ends after this dot */
	for (i = 0; i < cut; i++) {
		int w = (f[i] >= 'a' && f[i] <= 'z') || (f[i] >= 'A' && f[i] <= 'Z') ||
			(f[i] >= '0' && f[i] <= '9') || f[i] == '_';
		int pw = i > 0 && ((f[i - 1] >= 'a' && f[i - 1] <= 'z') ||
				   (f[i - 1] >= 'A' && f[i - 1] <= 'Z') ||
				   (f[i - 1] >= '0' && f[i - 1] <= '9') || f[i - 1] == '_');
		if (!w || !pw)
			out[o++] = f[i];
	}
	memcpy(out + o, f + cut, n - cut);
	return o + n - cut;
}

/* "\tat pkg.Class.method(File.java:12)": a frame.  Waits in epoll or on
 * a socket make the thread not runnable, as in the script. */
static void frame_line(struct jstack *j, const char *f, size_t n)
{
	const char *open = memchr(f, '(', n);

	if (open)
		n = (size_t)(open - f);
	if (j->o.shorten) {
		xgrow(&j->tmp, &j->tmpcap, n + 1, 1);
		n = shorten(f, n, j->tmp);
		f = j->tmp;
	}
	memcpy(leafstack_room(&j->st, n), f, n);
	if (bytes_contains(f, n, "epollWait") || bytes_contains(f, n, "EPoll.wait") ||
	    ends_with(f, n, "socketAccept") || ends_with(f, n, "socketRead0") ||
	    (ends_with(f, n, "accept0") && bytes_contains(f, n, "Socket")))
		j->state = OTHER;
}

static int starts(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && memcmp(s, w, k) == 0;
}

/* "   java.lang.Thread.State: RUNNABLE": the state, when not yet known. */
static void state_line(struct jstack *j, const char *p, const char *end)
{
	const char *v = p + 24, *e = v;

	while (e < end && *e != ' ' && *e != '\t')
		e++;
	if (j->state == UNKNOWN && e > v)
		j->state = e - v == 8 && memcmp(v, "RUNNABLE", 8) == 0 ? RUNNABLE : OTHER;
}

int jstack_line(struct jstack *j, const char *s, size_t n, unsigned long lineno)
{
	const char *p;
	size_t i = 0;

	if (n > 0 && s[0] == '#')
		return 0;
	if (n == 0) {
		end_thread(j);
		return 0;
	}
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (s[0] == '"')
		thread_line(j, s, n);
	else if ((p = memmem(s, n, "java.lang.Thread.State: ", 24)))
		state_line(j, p, s + n);
	else if (starts(s + i, n - i, "at "))
		frame_line(j, s + i + 3, n - i - 3);
	else if (!(starts(s + i, n - i, "-") || (n >= 5 && s[0] == '2' && s[1] >= '0' && s[1] <= '9' &&
		   s[2] >= '0' && s[2] <= '9' && s[3] >= '0' && s[3] <= '9' && s[4] == '-') ||
		   starts(s, n, "Full thread dump") || starts(s, n, "JNI global references:")) &&
		 j->bad++ < MAX_WARN)
		j->warn(j->ctx, j->name, lineno, "a line that is not part of a thread dump (skipped)");
	return 0;
}

int jstack_end(struct jstack *j)
{
	char msg[128];

	end_thread(j);
	if (j->bad > MAX_WARN) {
		snprintf(msg, sizeof(msg), "skipped %llu lines that are not part of a thread dump",
			 (unsigned long long)j->bad);
		j->warn(j->ctx, j->name, 0, msg);
	}
	if (j->threads == 0) {
		j->warn(j->ctx, j->name, 0, "no threads (\"name\" lines): not a jstack thread dump");
		return 1;
	}
	return 0;
}
