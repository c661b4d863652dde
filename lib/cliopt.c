/* cliopt: the shared command line: option tables, help, numbers. */
#include "cliopt.h"

#include "progress.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Column where the help text starts. */
#define HELP_COL 28
/* Where help text wraps. */
#define WRAP 76

static size_t count(const struct cliopt_group *g, size_t ng)
{
	size_t n = 0, i;
	const struct cliopt *o;

	for (i = 0; i < ng; i++)
		for (o = g[i].opts; o->name; o++)
			n++;
	return n;
}

/* getopt_long's table for the groups plus --help and --version (caller frees). */
static struct option *long_table(const struct cliopt_group *g, size_t ng)
{
	struct option *t = xcalloc(count(g, ng) + 3, sizeof(*t));
	const struct cliopt *o;
	size_t n = 0, i;

	for (i = 0; i < ng; i++)
		for (o = g[i].opts; o->name; o++, n++) {
			t[n].name = o->name;
			t[n].has_arg = o->arg ? required_argument : no_argument;
			t[n].val = o->key;
		}
	t[n++] = (struct option){ "help", no_argument, NULL, CLIOPT_HELP };
	t[n] = (struct option){ "version", no_argument, NULL, CLIOPT_VERSION };
	return t;
}

int cliopt_set(const struct cliopt_group *g, const struct cliopt *o, const char *arg, char *err,
	       size_t errlen)
{
	err[0] = '\0';
	if (g->set(g->ctx, o->key, arg ? arg : "", err, errlen) == 0)
		return 0;
	if (!err[0])
		snprintf(err, errlen, "invalid value '%s' for --%s", arg ? arg : "", o->name);
	return -1;
}

/* The group holding key, and its option in *opt; NULL when none does. */
static const struct cliopt_group *by_key(const struct cliopt_group *g, size_t ng, int key,
					 const struct cliopt **opt)
{
	const struct cliopt *o;
	size_t i;

	for (i = 0; i < ng; i++)
		for (o = g[i].opts; o->name; o++)
			if (o->key == key) {
				*opt = o;
				return &g[i];
			}
	return NULL;
}

int cliopt_parse(const struct cliopt_group *g, size_t ng, const char *shorts, int long_only,
		 int argc, char **argv, int *first, char *err, size_t errlen)
{
	struct option *t = long_table(g, ng);
	size_t n = strlen(shorts);
	char *sh = xmalloc(n + 3);
	int c, rc = CLIOPT_RUN;

	sh[0] = ':';
	memcpy(sh + 1, shorts, n);
	memcpy(sh + 1 + n, "h", 2);
	opterr = 0;
	optind = 1;
	while (rc == CLIOPT_RUN &&
	       (c = long_only ? getopt_long_only(argc, argv, sh, t, NULL)
			      : getopt_long(argc, argv, sh, t, NULL)) != -1) {
		const struct cliopt_group *grp;
		const struct cliopt *o = NULL;

		if (c == CLIOPT_HELP || c == CLIOPT_VERSION) {
			rc = c == CLIOPT_HELP ? CLIOPT_SHOW_HELP : CLIOPT_SHOW_VERSION;
		} else if (c == '?' || c == ':' || !(grp = by_key(g, ng, c, &o))) {
			snprintf(err, errlen, c == ':' ? "option '%s' needs a value"
				 : "unknown or ambiguous option '%s'", argv[optind - 1]);
			rc = CLIOPT_USAGE;
		} else if (cliopt_set(grp, o, o->arg ? optarg : "", err, errlen) < 0) {
			rc = CLIOPT_USAGE;
		}
	}
	*first = optind;
	free(t);
	free(sh);
	return rc;
}

const struct cliopt *cliopt_find(const struct cliopt_group *g, const char *name, size_t len)
{
	const struct cliopt *o;

	for (o = g->opts; o->name; o++)
		if (strlen(o->name) == len && memcmp(o->name, name, len) == 0)
			return o;
	return NULL;
}

static void help_line(FILE *f, const struct cliopt *o, const char *shorts)
{
	const char *h = o->help, *nl;
	int col;

	col = o->key < 128 && o->key > ' ' && strchr(shorts, o->key)
	    ? fprintf(f, "  -%c, --%s", o->key, o->name) : fprintf(f, "  --%s", o->name);
	if (o->arg)
		col += fprintf(f, " %s", o->arg);
	while (h) {
		nl = strchr(h, '\n');
		if (col >= HELP_COL - 1) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%*s%.*s\n", HELP_COL - col, "", nl ? (int)(nl - h) : (int)strlen(h), h);
		col = 0;
		h = nl ? nl + 1 : NULL;
	}
}

void cliopt_help(FILE *f, const struct cliopt_group *g, size_t ng, const char *shorts)
{
	const struct cliopt *o;
	size_t i;

	for (i = 0; i < ng; i++) {
		if (g[i].title)
			fprintf(f, "%s%s:\n", i ? "\n" : "", g[i].title);
		for (o = g[i].opts; o->name; o++)
			help_line(f, o, shorts);
	}
	fprintf(f, "  -h, --help%*sthis text\n  --version%*sthe version\n",
		HELP_COL - 12, "", HELP_COL - 11, "");
}

int cliopt_stdout_status(void)
{
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

int cliopt_version(const char *prog)
{
	printf("%s (flame) %s\n", prog, FLAME_VERSION);
	return cliopt_stdout_status();
}

int cliopt_usage(const char *prog, const char *err)
{
	fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", prog, err, prog);
	return 2;
}

/* The operands from first, or a lone "-" (stdin) when there are none. */
static const char **operands(int argc, char **argv, int first, int *n)
{
	static const char *const dash[] = { "-" };

	*n = first < argc ? argc - first : 1;
	return first < argc ? (const char **)(void *)(argv + first) : (const char **)(size_t)dash;
}

static int set_output(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	(void)key;
	(void)err;
	(void)errlen;
	((struct cliopt_files *)ctx)->output = arg;
	return 0;
}

/* Writes paragraph p (n bytes) wrapped at WRAP columns. */
static void wrap(const char *p, size_t n)
{
	size_t col = 0, w;

	while (n) {
		for (w = 0; w < n && p[w] != ' '; w++)
			;
		if (col && col + 1 + w > WRAP) {
			putchar('\n');
			col = 0;
		} else if (col) {
			putchar(' ');
			col++;
		}
		fwrite(p, 1, w, stdout);
		col += w;
		for (; w < n && p[w] == ' '; w++)
			;
		p += w;
		n -= w;
	}
	putchar('\n');
}

/* "Usage: PROG ..." lines, then what the tool does. */
static void tool_about(const struct cliopt_tool *t)
{
	const char *s = t->usage, *nl;
	int first = 1;

	for (;;) {
		size_t len;

		nl = strchr(s, '\n');
		len = nl ? (size_t)(nl - s) : strlen(s);
		printf("%s %s %.*s\n", first ? "Usage:" : "      ", t->prog, (int)len, s);
		first = 0;
		if (!nl)
			break;
		s = nl + 1;
	}
	for (s = t->about; *s;) {
		size_t len;

		nl = strchr(s, '\n');
		len = nl ? (size_t)(nl - s) : strlen(s);
		wrap(s, len);
		s += len + (nl != NULL);
	}
	putchar('\n');
}

/* Help, version or a usage error: prints it and returns the exit status. */
static int answer(const struct cliopt_tool *t, int result, const struct cliopt_group *g,
		  size_t ng, const char *err)
{
	switch (result) {
	case CLIOPT_SHOW_VERSION:
		return cliopt_version(t->prog);
	case CLIOPT_SHOW_HELP:
		tool_about(t);
		cliopt_help(stdout, g, ng, t->shorts);
		printf("\n%sExit status: 0 every input read (what could not be used in it is\n"
		       "named, counted and skipped), 1 an input could not be read through\n"
		       "or the output not written (what was read is still written), 2 usage\n"
		       "error.\n", t->after ? t->after : "");
		return cliopt_stdout_status();
	default:
		return cliopt_usage(t->prog, err);
	}
}

int cliopt_tool_parse(const struct cliopt_tool *t, void *obj, int argc, char **argv,
		      struct cliopt_files *io)
{
	static const struct cliopt out[] = {
		{ "output", 'o', "FILE", "write FILE atomically instead of stdout" },
		{ NULL, 0, NULL, NULL }
	};
	static const struct cliopt none[] = { { NULL, 0, NULL, NULL } };
	const struct cliopt_family *fam = t->family;
	const struct cliopt_group g[] = {
		{ NULL, fam->opts, fam->set, obj }, { NULL, t->own ? t->own : none, fam->set, obj },
		{ NULL, out, set_output, io },
	};
	char err[512];
	int first, rc;

	memset(io, 0, sizeof(*io));
	if (fam->init)
		fam->init(obj);
	else
		memset(obj, 0, fam->size);
	rc = cliopt_parse(g, 3, t->shorts, 0, argc, argv, &first, err, sizeof(err));
	if (rc != CLIOPT_RUN) {
		if (fam->release)
			fam->release(obj);
		return answer(t, rc, g, 3, err);
	}
	if (fam->ready)
		fam->ready(obj);
	io->inputs = operands(argc, argv, first, &io->ninputs);
	progress_install(t->prog);
	return -1;
}

const char *cliopt_name(const struct option *opts, int val)
{
	const struct option *p;

	for (p = opts; p->name; p++)
		if (p->val == val)
			return p->name;
	return "?";
}

int cliopt_long(const char *s, long lo, long hi, long *v)
{
	char *end;

	if ((*s < '0' || *s > '9') && *s != '-' && *s != '+')
		return -1;
	*v = strtol(s, &end, 10);
	return *end || *v < lo || *v > hi ? -1 : 0;
}

int cliopt_real(const char *s, double *v)
{
	char *end;

	if (*s == ' ' || *s == '\t')
		return -1;
	*v = strtod(s, &end);
	return *s && !*end && isfinite(*v) ? 0 : -1;
}

int cliopt_size(const char *s, unsigned long long *v)
{
	char *end;
	unsigned shift = 0;

	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoull(s, &end, 10);
	if (*end && end[1] == 0)
		shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30
		      : *end == 'T' ? 40 : 64;
	else if (*end)
		return -1;
	if (shift == 64 || *v == 0 || *v > (~0ULL >> shift))
		return -1;
	*v <<= shift;
	return 0;
}

int cliopt_numbers(const char *s, long **list, size_t *n)
{
	while (*s) {
		char *end;
		long v = strtol(s, &end, 10);

		if (end == s || (*end && *end != ','))
			return -1;
		*list = xrealloc(*list, (*n + 1) * sizeof(**list));
		(*list)[(*n)++] = v;
		s = *end ? end + 1 : end;
	}
	return 0;
}

void cliopt_names(const char *s, char ***list, size_t *n)
{
	while (*s) {
		const char *c = strchr(s, ',');
		size_t len = c ? (size_t)(c - s) : strlen(s);

		*list = xrealloc(*list, (*n + 1) * sizeof(**list));
		(*list)[(*n)++] = xstrndup(s, len);
		s += len + (c != NULL);
	}
}
