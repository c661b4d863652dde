/* etl_sym: --symbols PATH, names for the frames of a module.  PATH is a
 * directory or one file.  MODULE.sym (MODULE as the trace names the
 * image, e.g. ntdll.dll.sym; any case) holds "RVA SIZE NAME" lines, RVA
 * and SIZE in hex (0x optional), '#' starting a comment; a file PATH
 * named so maps that one module.  Without a map, a PE image PATH/MODULE
 * is asked through llvm-symbolizer when that is on PATH (it reads the
 * PDB the image names, on any OS): one process per module, kept open,
 * every answer cached per address. */
#include "etl_int.h"
#include "strtab.h"
#include "xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define SYM_MSGS 3		/* faults named per map file */

struct sym {
	uint64_t rva, size;
	uint32_t name;		/* names table */
};

struct smod {
	char *name;		/* the module */
	struct sym *sym;	/* a map, by RVA; or */
	size_t n;
	struct etl_pe *pe;	/* an image asked through llvm-symbolizer */
	struct map64 cache;	/* its answers: RVA -> name + 1, 0: none */
};

struct etl_syms {
	char *path;		/* --symbols */
	int is_dir;
	struct smod *mod;
	size_t n, cap;
};

struct etl_syms *etl_syms_new(const char *path)
{
	struct etl_syms *s = xcalloc(1, sizeof(*s));
	struct stat st;

	s->path = xstrndup(path, strlen(path));
	s->is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	return s;
}

void etl_syms_free(struct etl_syms *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->mod[i].name);
		free(s->mod[i].sym);
		etl_pe_free(s->mod[i].pe);
		map64_free(&s->mod[i].cache);
	}
	free(s->mod);
	free(s->path);
	free(s);
}

static int by_rva(const void *a, const void *b)
{
	const struct sym *p = a, *q = b;

	return p->rva < q->rva ? -1 : p->rva > q->rva;
}

/* One "RVA SIZE NAME" line into m; returns -1 when it is not one. */
static int map_line(struct etl *x, struct smod *m, char *line, size_t *cap)
{
	char *p = line, *end;
	unsigned long long rva, size;
	size_t len;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '#' || *p == 0)
		return 0;
	rva = strtoull(p, &end, 16);
	if (end == p || !isspace((unsigned char)*end))
		return -1;
	size = strtoull(p = end, &end, 16);
	if (end == p || !isspace((unsigned char)*end))
		return -1;
	for (p = end; isspace((unsigned char)*p); p++)
		;
	for (len = strlen(p); len && isspace((unsigned char)p[len - 1]); len--)
		;
	if (!len)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (p[i] == ';')
			p[i] = ':';	/* ';' separates frames */
	if (m->n == *cap)
		xgrow(&m->sym, cap, m->n + 1, sizeof(*m->sym));
	m->sym[m->n].rva = rva;
	m->sym[m->n].size = size;
	m->sym[m->n++].name = strtab_intern(x->names, p, len, NULL);
	return 0;
}

/* Reads the map file into m; faults named through x's warn. */
static void load_map(struct etl *x, struct smod *m, FILE *f, const char *file)
{
	char line[4096];
	size_t cap = 0, len;
	unsigned long lineno = 0, bad = 0;
	int c;

	while (fgets(line, sizeof(line), f)) {
		lineno++;
		len = strlen(line);
		if (len == sizeof(line) - 1 && line[len - 1] != '\n')
			while ((c = getc(f)) != EOF && c != '\n')
				;	/* a longer line: its name cut */
		if (map_line(x, m, line, &cap) < 0 && ++bad <= SYM_MSGS)
			x->warn(x->ctx, file, lineno, "not RVA SIZE NAME (hex numbers); skipped");
	}
	if (bad > SYM_MSGS) {
		char msg[80];

		snprintf(msg, sizeof(msg), "%lu lines skipped in all", bad);
		x->warn(x->ctx, file, 0, msg);
	}
	if (m->n)
		qsort(m->sym, m->n, sizeof(*m->sym), by_rva);
}

/* Finds the file of module name in the symbols directory, any case: its
 * path (owned by the caller) or NULL.  The name as given is tried first
 * (on Windows, whose file names ignore case, that is the whole search). */
static char *find_file(const struct etl_syms *s, const char *name)
{
	char *hit = xmalloc(strlen(s->path) + strlen(name) + 2);
	struct dirent *e;
	DIR *d;

	/* A module name is the trace's: never a path out of the directory. */
	sprintf(hit, "%s/%s", s->path, name);
	if (!strpbrk(name, "/\\") && strcmp(name, "..") != 0 && access(hit, F_OK) == 0)
		return hit;
	free(hit);
	hit = NULL;
	if (!(d = opendir(s->path)))
		return NULL;
	while (!hit && (e = readdir(d)) != NULL) {
		if (strcasecmp(e->d_name, name) == 0) {
			hit = xmalloc(strlen(s->path) + strlen(e->d_name) + 2);
			sprintf(hit, "%s/%s", s->path, e->d_name);
		}
	}
	closedir(d);
	return hit;
}

/* What the path offers for module name: a map, an image, or nothing. */
static void load(struct etl *x, struct smod *m)
{
	struct etl_syms *s = x->syms;
	char *file, *sym = xmalloc(strlen(m->name) + 5);
	const char *base = strrchr(s->path, '/');
	FILE *f;

#ifdef _WIN32
	const char *bs = strrchr(s->path, '\\');

	if (bs && (!base || bs > base))
		base = bs;
#endif
	sprintf(sym, "%s.sym", m->name);
	if (s->is_dir)
		file = find_file(s, sym);
	else
		file = strcasecmp(base ? base + 1 : s->path, sym) == 0 ? xstrndup(s->path, strlen(s->path)) : NULL;
	if (file && (f = fopen(file, "r")) != NULL) {
		load_map(x, m, f, file);
		fclose(f);
	} else if (file) {
		x->warn(x->ctx, file, 0, "cannot be read");
	} else if (s->is_dir && (file = find_file(s, m->name)) != NULL) {
		const char *why;

		if (!(m->pe = etl_pe_new(file, &why)))
			x->warn(x->ctx, file, 0, why);
	}
	free(file);
	free(sym);
}

int etl_sym_module(struct etl *x, const char *name, size_t len)
{
	struct etl_syms *s = x->syms;
	struct smod *m;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strlen(s->mod[i].name) == len && strncasecmp(s->mod[i].name, name, len) == 0)
			return s->mod[i].sym || s->mod[i].pe ? (int)i : -1;
	if (s->n == s->cap)
		xgrow(&s->mod, &s->cap, s->n + 1, sizeof(*s->mod));
	m = &s->mod[s->n++];
	memset(m, 0, sizeof(*m));
	m->name = xmalloc(len + 1);
	memcpy(m->name, name, len);
	m->name[len] = 0;
	load(x, m);
	return m->sym || m->pe ? (int)(s->n - 1) : -1;
}

/* The name llvm-symbolizer gives rva, cached: id + 1, or 0. */
static uint32_t ask(struct etl *x, struct smod *m, uint64_t rva)
{
	char buf[1024];
	size_t c = 0, n;
	uint32_t v;

	if (map64_next(&m->cache, rva, &c, &v) == 0)
		return v;
	v = 0;
	if ((n = etl_pe_name(m->pe, rva, buf, sizeof(buf))) > 0)
		v = strtab_intern(x->names, buf, n, NULL) + 1;
	map64_put(&m->cache, rva, v);
	return v;
}

int etl_sym_name(struct etl *x, int mod, uint64_t rva, uint32_t *name)
{
	struct smod *m = &x->syms->mod[mod];
	size_t lo = 0, hi = m->n;

	if (m->pe) {
		*name = ask(x, m, rva);
		return *name ? (int)(--*name, 1) : 0;
	}
	while (lo < hi) {		/* the first symbol past rva */
		size_t mid = lo + (hi - lo) / 2;

		if (m->sym[mid].rva <= rva)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || rva - m->sym[lo - 1].rva >= m->sym[lo - 1].size)
		return 0;
	*name = m->sym[lo - 1].name;
	return 1;
}
