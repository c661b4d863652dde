/* nameattr: per-function SVG attributes, sanitised. */
#include "nameattr.h"
#include "lread.h"
#include "strtab.h"
#include "xalloc.h"
#include "xmlesc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct nameattr {
	struct strtab *tab;	/* name -> struct nattr */
};

/* One line's raw key=value fields (later duplicates win, as in Perl). */
struct fields {
	const char *v[7];	/* value per known key, NULL when absent */
	size_t n[7];		/* value lengths */
};

static const char *const keys[7] = {
	"title", "id", "class", "href", "target", "g_extra", "a_extra"
};
enum { K_TITLE, K_ID, K_CLASS, K_HREF, K_TARGET, K_GEXTRA, K_AEXTRA };

/* Attribute names already written for one element, to drop duplicates. */
struct seen {
	char names[32][32];	/* lower-cased names */
	int n;			/* how many */
};

struct ctx {
	nameattr_warn_fn *warn;	/* sink for messages */
	void *wctx;		/* its context */
	const char *path;	/* the file, for messages */
	unsigned long lineno;	/* the line, for messages */
};

static void warnf(const struct ctx *c, const char *what, const char *s, size_t n)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "%s:%lu: %s '%.*s'", c->path, c->lineno, what,
		 (int)(n > 60 ? 60 : n), s);
	c->warn(c->wctx, msg);
}

static int seen_add(struct seen *s, const char *name, size_t n)
{
	int i;
	size_t k;

	if (n == 0 || n >= sizeof(s->names[0]) || s->n == 32)
		return 0;
	for (i = 0; i < s->n; i++)
		if (strlen(s->names[i]) == n && strncasecmp(s->names[i], name, n) == 0)
			return 0;
	for (k = 0; k < n; k++)
		s->names[s->n][k] = (char)tolower((unsigned char)name[k]);
	s->names[s->n][n] = '\0';
	s->n++;
	return 1;
}

/* An attribute name that cannot run script or break the markup. */
static int safe_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_-.:", s[i]))
			return 0;
	return !(n >= 2 && strncasecmp(s, "on", 2) == 0) && !(n >= 5 && strncasecmp(s, "xmlns", 5) == 0);
}

/* javascript:, vbscript: and data: URLs run code when clicked. */
static int script_url(const char *s, size_t n)
{
	static const char *const bad[] = { "javascript:", "vbscript:", "data:" };
	char buf[16];
	size_t i, k = 0;

	for (i = 0; i < n && k < sizeof(buf) - 1; i++)
		if ((unsigned char)s[i] > ' ')
			buf[k++] = (char)tolower((unsigned char)s[i]);
	buf[k] = '\0';
	for (i = 0; i < 3; i++)
		if (strncmp(buf, bad[i], strlen(bad[i])) == 0)
			return 1;
	return 0;
}

static void put_attr(FILE *f, struct seen *s, const char *name, size_t nlen,
		     const char *v, size_t vlen)
{
	if (!seen_add(s, name, nlen))
		return;
	fprintf(f, " %.*s=\"", (int)nlen, name);
	xmlesc_write(f, v, vlen, (size_t)-1);
	putc('"', f);
}

/* Parses an *_extra list: name="v" name='v' name=v, space separated.
 * Unsafe names are skipped (and reported); the rest are kept. */
static void put_extra(FILE *f, struct seen *s, const char *p, size_t n, const struct ctx *c)
{
	size_t i = 0;

	while (i < n) {
		size_t name, nlen, v, vlen;

		while (i < n && isspace((unsigned char)p[i]))
			i++;
		if (i == n)
			break;
		for (name = i; i < n && p[i] != '=' && !isspace((unsigned char)p[i]); i++)
			;
		nlen = i - name;
		if (i == n || p[i] != '=') {
			warnf(c, "ignored attribute without a value", p + name, nlen);
			continue;
		}
		i++;
		if (i < n && (p[i] == '"' || p[i] == '\'')) {
			char q = p[i++];

			for (v = i; i < n && p[i] != q; i++)
				;
			vlen = i - v;
			if (i < n)
				i++;
		} else {
			for (v = i; i < n && !isspace((unsigned char)p[i]); i++)
				;
			vlen = i - v;
		}
		if (safe_name(p + name, nlen))
			put_attr(f, s, p + name, nlen, p + v, vlen);
		else
			warnf(c, "ignored unsafe attribute", p + name, nlen);
	}
}

static char *build(const struct fields *fl, int anchor, struct seen *s, const struct ctx *c)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		xalloc_fail(0);
	if (anchor) {
		put_attr(f, s, "xlink:href", 10, fl->v[K_HREF], fl->n[K_HREF]);
		if (fl->v[K_TARGET])
			put_attr(f, s, "target", 6, fl->v[K_TARGET], fl->n[K_TARGET]);
		else
			put_attr(f, s, "target", 6, "_top", 4);
		if (fl->v[K_AEXTRA])
			put_extra(f, s, fl->v[K_AEXTRA], fl->n[K_AEXTRA], c);
	} else {
		if (fl->v[K_ID])
			put_attr(f, s, "id", 2, fl->v[K_ID], fl->n[K_ID]);
		if (fl->v[K_CLASS])
			put_attr(f, s, "class", 5, fl->v[K_CLASS], fl->n[K_CLASS]);
		if (fl->v[K_GEXTRA])
			put_extra(f, s, fl->v[K_GEXTRA], fl->n[K_GEXTRA], c);
	}
	fclose(f);
	return buf;
}

static void parse_field(struct fields *fl, const char *s, size_t n, const struct ctx *c)
{
	const char *eq = memchr(s, '=', n);
	size_t k, klen;

	if (n == 0)
		return;
	if (!eq) {
		warnf(c, "ignored attribute without '='", s, n);
		return;
	}
	klen = (size_t)(eq - s);
	for (k = 0; k < 7; k++) {
		if (strlen(keys[k]) == klen && memcmp(keys[k], s, klen) == 0) {
			fl->v[k] = eq + 1;
			fl->n[k] = n - klen - 1;
			return;
		}
	}
	warnf(c, "ignored unknown attribute", s, klen);
}

static void parse_line(struct nameattr *na, const char *line, size_t len, const struct ctx *c)
{
	const char *tab = memchr(line, '\t', len), *p, *end = line + len;
	struct fields fl;
	struct nattr *a;
	struct seen s;

	if (len == 0)
		return;
	if (!tab) {
		warnf(c, "ignored line without a tab", line, len);
		return;
	}
	memset(&fl, 0, sizeof(fl));
	for (p = tab + 1; p <= end;) {
		const char *t = memchr(p, '\t', (size_t)(end - p));
		const char *fe = t ? t : end;

		parse_field(&fl, p, (size_t)(fe - p), c);
		p = fe + 1;
	}
	a = strtab_val(na->tab, strtab_intern(na->tab, line, (size_t)(tab - line), NULL));
	free(a->title);
	free(a->g_attrs);
	free(a->a_attrs);
	a->title = fl.v[K_TITLE] ? xstrndup(fl.v[K_TITLE], fl.n[K_TITLE]) : NULL;
	memset(&s, 0, sizeof(s));
	a->a_attrs = NULL;
	if (fl.v[K_HREF] && script_url(fl.v[K_HREF], fl.n[K_HREF])) {
		warnf(c, "ignored script URL", fl.v[K_HREF], fl.n[K_HREF]);
		fl.v[K_HREF] = NULL;
	}
	if (fl.v[K_HREF])
		a->a_attrs = build(&fl, 1, &s, c);
	a->g_attrs = build(&fl, 0, &s, c);
}

struct nameattr *nameattr_load(const char *path, nameattr_warn_fn *warn, void *wctx)
{
	struct lread *lr = lread_open(path);
	struct nameattr *na;
	struct ctx c = { warn, wctx, path, 0 };
	const char *line;
	size_t len;
	int r;

	if (!lr)
		return NULL;
	na = xcalloc(1, sizeof(*na));
	na->tab = strtab_new(sizeof(struct nattr));
	while ((r = lread_next(lr, &line, &len)) != LREAD_EOF && r != LREAD_ERROR) {
		c.lineno = lread_lineno(lr);
		if (r == LREAD_LINE)
			parse_line(na, line, len, &c);
	}
	lread_free(lr);
	if (r == LREAD_ERROR) {
		nameattr_free(na);
		errno = EIO;
		return NULL;
	}
	return na;
}

void nameattr_free(struct nameattr *na)
{
	size_t i;

	if (!na)
		return;
	for (i = 0; i < strtab_count(na->tab); i++) {
		struct nattr *a = strtab_val(na->tab, (uint32_t)i);

		free(a->title);
		free(a->g_attrs);
		free(a->a_attrs);
	}
	strtab_free(na->tab);
	free(na);
}

const struct nattr *nameattr_find(const struct nameattr *na, const char *name, size_t len)
{
	uint32_t id;

	if (!na)
		return NULL;
	id = strtab_find(na->tab, name, len);
	return id == UINT32_MAX ? NULL : strtab_val(na->tab, id);
}
