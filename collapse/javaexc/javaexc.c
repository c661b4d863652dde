/* javaexc: the collapser over linefmt, its sniffer and its options. */
#include "javaexc.h"
#include "bytes.h"
#include "leafstack.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct jx {
	struct linefmt_out o;	/* first: where stacks go */
	struct leafstack st;	/* the trace so far */
	char *tmp;		/* a shortened frame */
	size_t cap;		/* its room */
};

static void init(void *st)
{
	leafstack_init(&((struct jx *)st)->st);
}

static void release(void *st)
{
	struct jx *x = st;

	leafstack_release(&x->st);
	free(x->tmp);
}

static void finish(void *st)
{
	struct jx *x = st;
	const char *text;
	size_t len;

	text = leafstack_text(&x->st, &len);
	if (x->st.nframes)
		linefmt_add(&x->o, text, len, 1);
	leafstack_clear(&x->st);
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* "<blanks>at NAME(...": NAME (up to a '(' or the end) in *f. */
static int at_line(const char *s, size_t n, const char **f, size_t *fl)
{
	size_t i = 0;
	const char *paren;

	while (i < n && blank(s[i]))
		i++;
	if (n - i < 3 || memcmp(s + i, "at ", 3) != 0)
		return 0;
	*f = s + i + 3;
	paren = memchr(*f, '(', n - i - 3);
	*fl = paren ? (size_t)(paren - *f) : n - i - 3;
	return 1;
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct jx *x = st;
	const struct javaexc_opts *op = x->o.fopts;
	const char *f;
	size_t fl;

	(void)no;
	if (at_line(s, n, &f, &fl)) {
		if (op && (op->shorten || op->no_pkgs) && fl > 0) {
			if (fl > x->cap) {
				free(x->tmp);
				x->tmp = xmalloc(x->cap = fl);
			}
			fl = linefmt_java_short(f, fl, x->tmp, op->no_pkgs);
			f = x->tmp;
		}
		leafstack_push(&x->st, f, fl);
		return 0;
	}
	if (x->st.nframes && !bytes_contains(s, n, "waiting on "))
		finish(x);
	return 0;
}

const struct linefmt javaexc_linefmt = {
	"no \"at pkg.Class.method(...)\" lines: not Java stack traces", sizeof(struct jx),
	init, line, finish, release
};

/* Exceptions' "\tat " frames after an "Exception" or "Error" line. */
int javaexc_sniff(const char *head, size_t len)
{
	if (!bytes_contains(head, len, "\n\tat ") && !bytes_contains(head, len, "\n    at "))
		return 0;
	return bytes_contains(head, len, "Exception") || bytes_contains(head, len, "Error") ? 60 : 0;
}

int javaexc_collect(const struct format_job *j)
{
	return linefmt_collect(j, &javaexc_linefmt);
}

enum { O_SHORTEN = 1510, O_NO_SHORTEN, O_NO_PKGS, O_PKGS };

static const struct cliopt format_opts[] = {
	{ "shorten-pkgs", O_SHORTEN, NULL, "java.util.HashMap.get -> j.u.HashMap.get" },
	{ "no-shorten-pkgs", O_NO_SHORTEN, NULL, "full package names (the default)" },
	{ "no-pkgs", O_NO_PKGS, NULL, "no package names: HashMap.get" },
	{ "no-no-pkgs", O_PKGS, NULL, "package names (the default)" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct javaexc_opts *o = ctx;

	(void)err, (void)errlen;
	switch (key) {
	case O_SHORTEN: o->shorten = 1; return 0;
	case O_NO_SHORTEN: o->shorten = 0; return 0;
	case O_NO_PKGS: o->no_pkgs = 1; return 0;
	case O_PKGS: o->no_pkgs = 0; return 0;
	default: return ctool_set(&o->common, key, arg);
	}
}

const struct cliopt_family javaexc_cli_family = {
	"Java exception stack traces (as stackcollapse-java-exceptions)", format_opts, set,
	sizeof(struct javaexc_opts), NULL, NULL, NULL
};
