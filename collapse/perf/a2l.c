/* a2l: addr2line and nm as child processes, answers cached. */
#include "a2l.h"
#include "child.h"
#include "strtab.h"
#include "xalloc.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct answer {
	char *text;	/* frames joined by ';', NULL when unknown */
	size_t len;	/* bytes of text */
};

struct a2l {
	int context;		/* add ":file:line" */
	struct strtab *cache;	/* "dso\0pc" -> struct answer */
	struct strtab *nm;	/* dso -> char * (nm output, owned) */
};

/* Whether name is an executable file in a PATH directory. */
static int on_path(const char *name)
{
	const char *path = getenv("PATH"), *p;
	char buf[4096];

	for (p = path; p && *p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);

		if (n && n + strlen(name) + 2 < sizeof(buf)) {
			snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, name);
			if (access(buf, X_OK) == 0)
				return 1;
		}
		p = colon ? colon + 1 : NULL;
	}
	return 0;
}

struct a2l *a2l_new(int context)
{
	struct a2l *a;

	if (!A2L_AVAILABLE || !on_path("addr2line"))
		return NULL;
	a = xcalloc(1, sizeof(*a));
	a->context = context;
	a->cache = strtab_new(sizeof(struct answer));
	a->nm = strtab_new(sizeof(char *));
	return a;
}

void a2l_free(struct a2l *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < strtab_count(a->cache); i++)
		free(((struct answer *)strtab_val(a->cache, (uint32_t)i))->text);
	for (i = 0; i < strtab_count(a->nm); i++)
		free(*(char **)strtab_val(a->nm, (uint32_t)i));
	strtab_free(a->cache);
	strtab_free(a->nm);
	free(a);
}

/* Runs argv (no shell) and returns its standard output, NUL-terminated
 * (caller frees); NULL when it cannot run.  Stderr is discarded. */
static char *run(const char *const argv[])
{
	struct child *c = child_start(argv, 0);
	char *out = NULL;
	size_t len = 0, cap = 0, n;

	if (!c)
		return NULL;
	do {
		xgrow(&out, &cap, len + 65536, 1);
		n = fread(out + len, 1, cap - len - 1, child_out(c));
		len += n;
	} while (n > 0);
	child_finish(c);
	out[len] = '\0';
	return out;
}

static char *addr2line(const char *pc, const char *dso)
{
	const char *argv[] = { "addr2line", "-a", pc, "-e", dso, "-i", "-f", "-s", "-C", NULL };

	return run(argv);
}

/* The address nm gives func in dso (NUL-terminated), or 0. */
static uint64_t nm_address(struct a2l *a, const char *dso, size_t dlen, const char *func, size_t flen)
{
	int added;
	char **text = strtab_val(a->nm, strtab_intern(a->nm, dso, dlen, &added));
	const char *p;

	if (added) {
		const char *argv[] = { "nm", dso, NULL };

		*text = run(argv);
	}
	/* Lines are "ADDRESS TYPE NAME". */
	for (p = *text; p && *p;) {
		const char *nl = strchr(p, '\n'), *sp1 = strchr(p, ' ');
		const char *end = nl ? nl : p + strlen(p);

		if (sp1 && sp1 + 3 < end && sp1[2] == ' ' && (size_t)(end - sp1 - 3) == flen &&
		    memcmp(sp1 + 3, func, flen) == 0)
			return strtoull(p, NULL, 16);
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* addr2line's pairs of lines (function, file:line), innermost first, as
 * frames joined root first. */
static void parse(const struct a2l *a, const char *out, struct answer *ans)
{
	const char *p = strchr(out, '\n');	/* the address line */
	char **lines = NULL;
	size_t n = 0, cap = 0, i, len = 0, o = 0;

	for (p = p ? p + 1 : ""; *p;) {
		const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);
		const char *d = memmem(p, (size_t)(end - p), " (discriminator ", 16);

		xgrow(&lines, &cap, n + 1, sizeof(*lines));
		lines[n++] = xstrndup(p, (size_t)((d ? d : end) - p));
		p = nl ? nl + 1 : end;
	}
	for (i = 0; i + 1 < n; i += 2)
		len += strlen(lines[i]) + strlen(lines[i + 1]) + 2;
	ans->text = xmalloc(len + 1);
	for (i = n / 2 * 2; i >= 2; i -= 2) {
		size_t f = strlen(lines[i - 2]);

		if (o)
			ans->text[o++] = ';';
		memcpy(ans->text + o, lines[i - 2], f);
		o += f;
		if (a->context) {
			ans->text[o++] = ':';
			memcpy(ans->text + o, lines[i - 1], strlen(lines[i - 1]));
			o += strlen(lines[i - 1]);
		}
	}
	ans->text[o] = '\0';
	ans->len = o;
	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	if (o == 0 || strcmp(ans->text, "??") == 0 || strcmp(ans->text, "??:??:0") == 0) {
		free(ans->text);
		ans->text = NULL;
		ans->len = 0;
	}
}

static int unknown(const char *out)
{
	return strstr(out, "??\n??:0") != NULL;
}

/* func+0xoff -> nm's address of func + off, as "0x..." in buf; 0 or -1.
 * dso is NUL-terminated. */
static int nm_pc(struct a2l *a, const char *dso, size_t dlen, const char *raw, size_t rawlen,
		 char *buf, size_t size)
{
	const char *plus = NULL, *q;
	uint64_t base, off;

	for (q = raw; q + 3 <= raw + rawlen; q++)
		if (memcmp(q, "+0x", 3) == 0)
			plus = q;
	if (!plus || plus == raw || plus + 3 == raw + rawlen)
		return -1;
	for (q = plus + 3; q < raw + rawlen; q++)
		if (!strchr("0123456789abcdef", *q))
			return -1;
	base = nm_address(a, dso, dlen, raw, (size_t)(plus - raw));
	if (!base)
		return -1;
	off = strtoull(plus + 3, NULL, 16);
	snprintf(buf, size, "0x%llx", (unsigned long long)(base + off));
	return 0;
}

const char *a2l_frames(struct a2l *a, const char *pc, size_t pclen, const char *dso,
		       size_t dlen, const char *rawfunc, size_t rawlen, size_t *len)
{
	char key[4096], pcs[64], *dsoz, *out;
	struct answer *ans;
	int added;

	size_t i;

	/* Only hex reaches addr2line's command line, never an option. */
	for (i = 0; i < pclen; i++)
		if (!strchr("0123456789abcdefABCDEFx", pc[i]) || !pc[i])
			return NULL;
	if (pclen == 0 || dlen == 0 || dlen + pclen + 2 > sizeof(key) || pclen >= sizeof(pcs) ||
	    memchr(dso, '\0', dlen))
		return NULL;
	memcpy(key, dso, dlen);
	key[dlen] = '\0';
	memcpy(key + dlen + 1, pc, pclen);
	ans = strtab_val(a->cache, strtab_intern(a->cache, key, dlen + 1 + pclen, &added));
	if (added) {
		dsoz = xstrndup(dso, dlen);
		snprintf(pcs, sizeof(pcs), "%.*s", (int)pclen, pc);
		out = addr2line(pcs, dsoz);
		if (out && unknown(out) && nm_pc(a, dsoz, dlen, rawfunc, rawlen, pcs, sizeof(pcs)) == 0) {
			free(out);
			out = addr2line(pcs, dsoz);
		}
		if (out)
			parse(a, out, ans);
		free(out);
		free(dsoz);
	}
	*len = ans->len;
	return ans->text;
}
