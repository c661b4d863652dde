/* demangle: a shim over libiberty's cplus_demangle.  perf 6.1 (built
 * without libbfd, as Debian's is) calls it with no options, so names
 * come without parameter lists ("ns::Box<long>::spin"), and libiberty's
 * automatic style tries Rust before C++. */
#include "demangle.h"

#include "xalloc.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

/* Longer names are left alone: the demangler's cost and recursion grow
 * with the input, and no real symbol comes near this. */
#define DEMANGLE_MAX 16384

char *demangle_name(const char *name)
{
	/* Itanium C++ and Rust legacy start "_Z", Rust v0 "_R". */
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	if (strnlen(name, DEMANGLE_MAX) == DEMANGLE_MAX)
		return NULL;
	return cplus_demangle(name, DMGL_NO_OPTS);
}

/* Java: "Lpkg/Class;method(args)ret" as perf shows it, without the
 * return type: "pkg.Class.method(int, pkg.Type, long[])".  The states
 * of the walk over the name up to its last ')'. */
enum jmode { J_PREFIX, J_CLASS, J_FUNC, J_TYPE, J_CTYPE };

struct jout {
	char *buf;	/* the name being built */
	size_t n;	/* its length */
	unsigned narg;	/* arguments so far */
	unsigned array;	/* '[' before the type being read */
};

static void jput(struct jout *o, const char *s)
{
	size_t k = strlen(s);

	memcpy(o->buf + o->n, s, k);
	o->n += k;
}

/* A primitive argument type ('V' is void); returns 0 when c is none. */
static int jprim(struct jout *o, char c)
{
	static const char *const names[] = { "byte", "char", "double", "float", "int", "long",
					      "short", "boolean", "void" };
	static const char codes[] = "BCDFIJSZV";
	const char *at = strchr(codes, c);

	if (!c || !at)
		return 0;
	if (c != 'V' && o->narg++)
		jput(o, ", ");
	jput(o, names[at - codes]);
	for (; o->array; o->array--)
		jput(o, "[]");
	return 1;
}

/* One character in mode *m; returns -1 when the name is not Java's. */
static int jstep(struct jout *o, enum jmode *m, char c, char next)
{
	if (c == 'L' && (*m == J_PREFIX || *m == J_TYPE)) {
		if (*m == J_TYPE && o->narg++)
			jput(o, ", ");
		*m = *m == J_PREFIX ? J_CLASS : J_CTYPE;
		return 0;
	}
	if (*m == J_TYPE && jprim(o, c))
		return 0;
	switch (c) {
	case '[':
		return *m == J_TYPE ? (o->array++, 0) : -1;
	case '(':
		return *m == J_FUNC ? (o->buf[o->n++] = c, *m = J_TYPE, 0) : -1;
	case ')':
		return *m == J_TYPE ? (o->buf[o->n++] = c, o->narg = 0, 0) : -1;
	case ';':
		if (*m != J_CLASS && *m != J_CTYPE)
			return -1;
		if (*m == J_CLASS && ((next | 32) >= 'a' && (next | 32) <= 'z'))
			o->buf[o->n++] = '.';
		*m = *m == J_CLASS ? J_FUNC : J_TYPE;
		return 0;
	case '/':
		return *m == J_CLASS || *m == J_CTYPE ? (o->buf[o->n++] = '.', 0) : -1;
	default:
		o->buf[o->n++] = c;
		return 0;
	}
}

char *demangle_java(const char *name)
{
	const char *end = strrchr(name, ')'), *q;
	size_t len = strnlen(name, DEMANGLE_MAX);
	enum jmode m = J_PREFIX;
	struct jout o = { NULL, 0, 0, 0 };

	if (!end || len == DEMANGLE_MAX)
		return NULL;
	/* Each byte gives at most ", boolean" and "[]"s: 12 bytes is room. */
	o.buf = xmalloc(12 * len + 1);
	for (q = name; q <= end; q++)
		if (jstep(&o, &m, *q, q[1]) != 0) {
			free(o.buf);
			return NULL;
		}
	o.buf[o.n] = '\0';
	return o.buf;
}
