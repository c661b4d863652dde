/* ibmjava: the collapser over linefmt, and its sniffer. */
#include "ibmjava.h"
#include "bytes.h"
#include "jstack.h"
#include "leafstack.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define TNAME_MAX 4096		/* longer thread names are cut */

struct ij {
	struct linefmt_out o;	/* first: where stacks go */
	struct leafstack st;	/* the thread's frames so far */
	char tname[TNAME_MAX];	/* its name... */
	size_t tlen;		/* ...of this length... */
	int has_tname;		/* ...when it has one */
	char *tmp;		/* a shortened frame */
	size_t cap;		/* its room */
};

static const char native[] = "3XMTHREADINFO3           Native callstack:";
static const char info[] = "3XMTHREADINFO      \"";
static const char anon[] = "3XMTHREADINFO      Anonymous native thread";
static const char tid[] = "3XMTHREADINFO1            (native thread ID:";
static const char at[] = "4XESTACKTRACE                at ";

static void init(void *st)
{
	leafstack_init(&((struct ij *)st)->st);
}

static void release(void *st)
{
	struct ij *j = st;

	leafstack_release(&j->st);
	free(j->tmp);
}

static int starts(const char *s, size_t n, const char *p, size_t pn)
{
	return n >= pn && memcmp(s, p, pn) == 0;
}

static void set_name(struct ij *j, const char *s, size_t n)
{
	j->tlen = n < TNAME_MAX ? n : TNAME_MAX;
	memcpy(j->tname, s, j->tlen);
	j->has_tname = 1;
}

/* The thread's stack is a sample, its name the root. */
static void native_line(struct ij *j)
{
	const char *text;
	size_t len;

	if (j->has_tname)
		leafstack_push(&j->st, j->tname, j->tlen);
	text = leafstack_text(&j->st, &len);
	if (j->st.nframes)
		linefmt_add(&j->o, text, len, 1);
	leafstack_clear(&j->st);
	j->has_tname = 0;
}

/* '3XMTHREADINFO      "main" J9VMThread:0x1, ... state:R, prio=5': the
 * name, when the line has " state:" and a ", " after it. */
static void info_line(struct ij *j, const char *s, size_t n, int keep)
{
	const char *name = s + sizeof(info) - 1, *q, *st;

	q = memchr(name, '"', (size_t)(s + n - name));
	if (!q)
		return;
	st = memmem(q, (size_t)(s + n - q), " state:", 7);
	if (!st || !memmem(st + 7, (size_t)(s + n - st - 7), ", ", 2))
		return;
	if (keep)
		set_name(j, name, (size_t)(q - name));
}

/* '3XMTHREADINFO1 (native thread ID:0x2A03, native priority...': with
 * --include-tid the name gets "-0x2A03". */
static void tid_line(struct ij *j, const char *s, size_t n)
{
	const char *id = s + sizeof(tid) - 1, *sp;
	char buf[TNAME_MAX];
	size_t k = 0, idl;

	sp = memchr(id, ' ', (size_t)(s + n - id));
	if (!sp || !starts(sp - 1, (size_t)(s + n - sp + 1), ", native priority", 17))
		return;
	idl = (size_t)(sp - 1 - id);
	if (j->has_tname) {
		memcpy(buf, j->tname, j->tlen);
		k = j->tlen;
	}
	if (k < TNAME_MAX)
		buf[k++] = '-';
	if (idl > TNAME_MAX - k)
		idl = TNAME_MAX - k;
	memcpy(buf + k, id, idl);
	k += idl;
	set_name(j, buf, k);
}

static void frame(struct ij *j, const char *s, size_t n, int shorten)
{
	const char *f = s + sizeof(at) - 1, *paren;
	size_t fl = n - (sizeof(at) - 1);

	paren = memchr(f, '(', fl);
	if (paren)
		fl = (size_t)(paren - f);
	if (shorten && fl > 0) {
		if (fl > j->cap) {
			free(j->tmp);
			j->tmp = xmalloc(j->cap = fl);
		}
		fl = linefmt_java_short(f, fl, j->tmp, 0);
		f = j->tmp;
	}
	leafstack_push(&j->st, f, fl);
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct ij *j = st;
	const struct jstack_opts *op = j->o.fopts;
	int tname = !op || !op->no_tname;

	(void)no;
	if (n && s[0] == '#')
		return 0;
	if (starts(s, n, native, sizeof(native) - 1))
		native_line(j);
	else if (starts(s, n, info, sizeof(info) - 1))
		info_line(j, s, n, tname);
	else if (memmem(s, n, anon, sizeof(anon) - 1))
		set_name(j, "Anonymous native thread", 23);
	else if (starts(s, n, tid, sizeof(tid) - 1)) {
		if (tname && op && op->tid)
			tid_line(j, s, n);
	} else if (starts(s, n, at, sizeof(at) - 1))
		frame(j, s, n, op && op->shorten);
	return 0;
}

const struct linefmt ibmjava_linefmt = {
	"no thread stacks (4XESTACKTRACE lines before a \"Native callstack:\"): not a javacore",
	sizeof(struct ij), init, line, NULL, release
};

int ibmjava_sniff(const char *head, size_t len)
{
	return bytes_contains(head, len, "0SECTION") || bytes_contains(head, len, "3XMTHREADINFO")
	       ? 85 : 0;
}

int ibmjava_collect(const struct format_job *j)
{
	return linefmt_collect(j, &ibmjava_linefmt);
}
