/* svgframes: the frames of a flame graph SVG, for tests.
 *
 *   svgframes FILE.svg            print "y<TAB>x<TAB>width<TAB>fill<TAB>title" per
 *                                 frame, sorted (frame order in the file
 *                                 does not matter)
 *   svgframes -c A B [--loose-pct] [--no-fill]
 *                                 compare two SVGs or frame lists: same
 *                                 titles and fills, x, y, width within
 *                                 0.1 px; exit 1 and print the differences
 *
 * A frame is a <title> followed by a <rect>, which is how both flamegraph.pl
 * and flame write them. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fr {
	double x, y, w;		/* rect geometry */
	char fill[32];		/* fill attribute */
	char *title;		/* title text, entities as written */
};

struct list {
	struct fr *f;		/* frames */
	size_t n;		/* count */
	size_t cap;		/* capacity */
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f) {
		perror(path);
		exit(2);
	}
	do {
		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			buf = realloc(buf, cap + 1);
			if (!buf)
				exit(2);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void add(struct list *l, double x, double y, double w, const char *fill,
		size_t fl, const char *t, size_t tl)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->f = realloc(l->f, l->cap * sizeof(*l->f));
		if (!l->f)
			exit(2);
	}
	l->f[l->n].x = x;
	l->f[l->n].y = y;
	l->f[l->n].w = w;
	if (fl > 31)
		fl = 31;
	memcpy(l->f[l->n].fill, fill, fl);
	l->f[l->n].fill[fl] = '\0';
	l->f[l->n].title = malloc(tl + 1);
	memcpy(l->f[l->n].title, t, tl);
	l->f[l->n].title[tl] = '\0';
	l->n++;
}

/* The value of attribute name="..." inside the tag [s, end); *len its length. */
static const char *attr_str(const char *s, const char *end, const char *name, size_t *len)
{
	size_t n = strlen(name);
	const char *p, *q;

	for (p = s; p + n + 2 < end; p++) {
		if (isspace((unsigned char)p[-1]) && strncmp(p, name, n) == 0 && p[n] == '=' && p[n + 1] == '"') {
			q = strchr(p + n + 2, '"');
			*len = q ? (size_t)(q - p - n - 2) : 0;
			return p + n + 2;
		}
	}
	*len = 0;
	return "";
}

static double attr(const char *s, const char *end, const char *name)
{
	size_t n;
	const char *v = attr_str(s, end, name, &n);

	return n ? strtod(v, NULL) : NAN;
}

static void parse_svg(struct list *l, const char *s)
{
	const char *p = strstr(s, "id=\"frames\"");

	if (!p)
		return;
	while ((p = strstr(p, "<title>"))) {
		const char *t = p + 7, *te = strstr(t, "</title>"), *r, *re;

		if (!te)
			break;
		r = strstr(te, "<rect");
		if (!r)
			break;
		re = strchr(r, '>');
		if (!re)
			break;
		size_t fl;
		const char *fill = attr_str(r, re, "fill", &fl);

		add(l, attr(r, re, "x"), attr(r, re, "y"), attr(r, re, "width"), fill, fl, t,
		    (size_t)(te - t));
		p = re;
	}
}

static void parse_list(struct list *l, char *s)
{
	char *line;

	for (line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
		double y, x, w;
		int off = 0;
		char *tab;

		if (sscanf(line, "%lf\t%lf\t%lf\t%n", &y, &x, &w, &off) == 3 && off > 0 &&
		    (tab = strchr(line + off, '\t')))
			add(l, x, y, w, line + off, (size_t)(tab - line - off), tab + 1, strlen(tab + 1));
	}
}

static void release(struct list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->f[i].title);
	free(l->f);
}

static int cmp(const void *a, const void *b)
{
	const struct fr *p = a, *q = b;

	if (fabs(p->y - q->y) > 0.01)
		return p->y < q->y ? -1 : 1;
	if (fabs(p->x - q->x) > 0.01)
		return p->x < q->x ? -1 : 1;
	return strcmp(p->title, q->title);
}

static void load(struct list *l, const char *path)
{
	size_t len;
	char *s = slurp(path, &len);
	const char *p = s;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '<')
		parse_svg(l, s);
	else
		parse_list(l, s);
	free(s);
	qsort(l->f, l->n, sizeof(*l->f), cmp);
}

/* With --loose-pct, "(N samples, 12.34%" compares without the percentage. */
static int same_title(const char *a, const char *b, int loose)
{
	const char *pa, *pb;

	if (strcmp(a, b) == 0)
		return 1;
	if (!loose)
		return 0;
	pa = strrchr(a, ',');
	pb = strrchr(b, ',');
	return pa && pb && pa - a == pb - b && strncmp(a, b, (size_t)(pa - a)) == 0;
}

static int compare(const struct list *a, const struct list *b, int loose, int nofill)
{
	size_t i, bad = 0;

	if (a->n != b->n)
		printf("frame count differs: %zu vs %zu\n", a->n, b->n);
	for (i = 0; i < a->n && i < b->n && bad < 20; i++) {
		const struct fr *p = &a->f[i], *q = &b->f[i];

		if (!same_title(p->title, q->title, loose) || fabs(p->x - q->x) > 0.1001 ||
		    (!nofill && strcmp(p->fill, q->fill) != 0) ||
		    fabs(p->y - q->y) > 0.1001 || fabs(p->w - q->w) > 0.1001) {
			printf("- %g\t%g\t%g\t%s\t%s\n+ %g\t%g\t%g\t%s\t%s\n", p->y, p->x, p->w,
			       p->fill, p->title, q->y, q->x, q->w, q->fill, q->title);
			bad++;
		}
	}
	return bad || a->n != b->n;
}

int main(int argc, char **argv)
{
	struct list a = { 0 }, b = { 0 };
	size_t i;

	if (argc >= 4 && strcmp(argv[1], "-c") == 0) {
		int loose = 0, nofill = 0, k, r;

		for (k = 4; k < argc; k++) {
			loose |= strcmp(argv[k], "--loose-pct") == 0;
			nofill |= strcmp(argv[k], "--no-fill") == 0;
		}
		load(&a, argv[2]);
		load(&b, argv[3]);
		r = compare(&a, &b, loose, nofill);
		release(&a);
		release(&b);
		return r;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: svgframes FILE | svgframes -c A B [--loose-pct] [--no-fill]\n");
		return 2;
	}
	load(&a, argv[1]);
	for (i = 0; i < a.n; i++)
		printf("%.1f\t%.1f\t%.1f\t%s\t%s\n", a.f[i].y, a.f[i].x, a.f[i].w, a.f[i].fill,
		       a.f[i].title);
	release(&a);
	return 0;
}
