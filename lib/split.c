/* split: grouping stacks by thread or process, for --split-by and --split. */
#include "split.h"
#include "folded.h"
#include "outfile.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A group's key: its first frame (process), or first two (thread). */
static size_t group_len(const char *s, size_t len, int frames)
{
	const char *semi = memchr(s, ';', len);

	if (!semi)
		return len;
	if (frames == 2 && (semi = memchr(semi + 1, ';', len - (size_t)(semi + 1 - s))) == NULL)
		return len;
	return (size_t)(semi - s);
}

/* Where a perf root "COMM-PID", "COMM-PID/TID" or "COMM-?/TID" puts its
 * '-' before the numbers, or len when s is not one. */
static size_t perf_dash(const char *s, size_t len)
{
	size_t i = len, dash;

	while (i && s[i - 1] != '-')
		i--;
	if (!i)
		return len;
	dash = i - 1;
	if (i < len && s[i] == '?')
		i++;
	else
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
	if (i == dash + 1)
		return len;
	if (i < len && s[i] == '/') {
		size_t t = ++i;

		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == t)
			return len;
	}
	return i == len ? dash : len;
}

/* UIforETW's PROCESS_PID_TID names: "chrome.exe (88);TID 12" and perf's
 * "chrome-88/12" -> "chrome.exe_88_12", "chrome_88_12"; a PID perf could
 * not tell ("-?") is left out. */
static void file_name(char *d, size_t cap, const char *s, size_t len)
{
	size_t o = 0, i, dash = perf_dash(s, len);

	for (i = 0; i < len && o + 2 < cap; i++) {
		char c = s[i];

		if (len - i > 4 && !memcmp(s + i, "TID ", 4)) {
			i += 3;
			continue;
		}
		if (i == dash || (i > dash && (c == '/' || c == '?')))
			c = '_';
		if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    c == '.' || c == '-')
			d[o++] = c;
		else if (o && d[o - 1] != '_')
			d[o++] = '_';
	}
	while (o && d[o - 1] == '_')
		o--;
	d[o] = 0;
	if (!o || !strcmp(d, ".") || !strcmp(d, ".."))
		snprintf(d, cap, "group");
}

/* Makes name unique among the names drawn so far ("x", "x-2", ...): two
 * groups may differ only in characters a file name cannot keep, or only
 * in case, which Windows' and macOS's file systems do not tell apart
 * (names are compared in lower case everywhere, so every build names the
 * files alike). */
static void unique_name(struct strtab *used, char *name, size_t cap)
{
	size_t base = strlen(name), i, n;
	unsigned k = 1;
	char low[256];
	int added;

	for (;;) {
		n = strlen(name) < sizeof(low) ? strlen(name) : sizeof(low) - 1;
		for (i = 0; i < n; i++)
			low[i] = name[i] >= 'A' && name[i] <= 'Z' ? (char)(name[i] - 'A' + 'a') : name[i];
		strtab_intern(used, low, n, &added);
		if (added)
			return;
		snprintf(name + (base < cap - 12 ? base : cap - 12), 12, "-%u", ++k);
	}
}

struct root {
	double weight;		/* samples under this root */
	uint32_t group;		/* id in the group table */
};

struct group {
	double weight;		/* samples of its roots */
	uint32_t name;		/* the root it is named after */
	double name_weight;	/* that root's samples */
	int main_thread;	/* perf: the name root is the process's own thread */
	int rank;		/* among the busiest: its graph; else -1 */
};

/* The group key of a root.  perf roots ("COMM-PID/TID") are grouped by
 * their numbers, so a process whose threads carry other names, or a
 * thread renamed while it ran, stays one graph; a PID perf could not tell
 * ('?') falls back to the name.  Other formats: the root itself. */
static size_t group_key(enum split_by by, const char *s, size_t len, int perf,
			const char **key, int *main_thread)
{
	size_t dash = perf ? perf_dash(s, len) : len;
	const char *slash;

	*key = s;
	*main_thread = 0;
	if (dash == len)
		return len;
	slash = memchr(s + dash, '/', len - dash);
	if (slash) {
		size_t plen = (size_t)(slash - (s + dash + 1));

		*main_thread = (size_t)(s + len - slash - 1) == plen && !memcmp(s + dash + 1, slash + 1, plen);
	}
	if (s[dash + 1] == '?')		/* "comm-?/TID": process by name */
		return by == SPLIT_PROCESS ? dash + 2 : len;
	*key = s + dash + 1;
	if (by == SPLIT_PROCESS && slash)
		return (size_t)(slash - *key);
	return (size_t)(s + len - *key);
}

static int heavier(const void *a, const void *b, void *ctx)
{
	const struct group *g = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (g[x].weight != g[y].weight)
		return g[x].weight < g[y].weight ? 1 : -1;
	return (x > y) - (x < y);
}

/* Fills roots (root -> struct root) and groups (key -> struct group) from
 * t's stacks; rootof[i] is stack i's root. */
static void group_stacks(enum split_by by, const struct strtab *t, int frames, int perf,
			 struct strtab *roots, struct strtab *groups, uint32_t *rootof)
{
	size_t i, n = strtab_count(t);

	for (i = 0; i < n; i++) {
		size_t len;
		const char *s = strtab_str(t, (uint32_t)i, &len);

		rootof[i] = strtab_intern(roots, s, group_len(s, len, frames), NULL);
		((struct root *)strtab_val(roots, rootof[i]))->weight += fcount_value(strtab_val(t, (uint32_t)i));
	}
	for (i = 0; i < strtab_count(roots); i++) {
		struct root *r = strtab_val(roots, (uint32_t)i);
		size_t len, klen;
		const char *s = strtab_str(roots, (uint32_t)i, &len), *key;
		int main_thread, added;
		struct group *g;

		klen = group_key(by, s, len, perf, &key, &main_thread);
		r->group = strtab_intern(groups, key, klen, &added);
		g = strtab_val(groups, r->group);
		g->weight += r->weight;
		/* Named after the process's own thread, else its busiest. */
		if (added || (main_thread && !g->main_thread) ||
		    (main_thread == g->main_thread && r->weight > g->name_weight)) {
			g->name = (uint32_t)i;
			g->name_weight = r->weight;
			g->main_thread = main_thread;
		}
	}
}

struct split {
	struct strtab *roots;		/* root -> struct root */
	struct strtab *groups;		/* key -> struct group */
	uint32_t *rootof;		/* each stack's root */
	struct group *g;		/* the groups, with their ranks */
	struct split_group *kept;	/* the top ones, busiest first */
	size_t nkept;			/* how many */
};

/* Names, labels and ranks of the top groups (order: busiest first). */
static void keep(struct split *sp, enum split_by by, int perf, const uint32_t *order, size_t top,
		 double total)
{
	struct strtab *used = strtab_new(0);
	size_t i;

	for (i = 0; i < top; i++) {
		struct split_group *k = &sp->kept[i];
		const struct group *g = &sp->g[order[i]];
		size_t len;
		const char *s = strtab_str(sp->roots, g->name, &len), *slash = memchr(s, '/', len);

		snprintf(k->label, sizeof(k->label), "%.*s", (int)len, s);
		/* A perf process is named COMM_PID, without a thread's number. */
		if (perf && by == SPLIT_PROCESS && slash)
			len = (size_t)(slash - s);
		file_name(k->name, sizeof(k->name), s, len);
		unique_name(used, k->name, sizeof(k->name));
		k->weight = g->weight;
		k->share = total > 0 ? g->weight / total : 0;
		sp->g[order[i]].rank = (int)i;
	}
	strtab_free(used);
}

struct split *split_new(const struct strtab *t, enum split_by by, size_t top)
{
	struct split *sp = xcalloc(1, sizeof(*sp));
	size_t i, n = strtab_count(t), ng, len0;
	uint32_t *order;
	const char *s0;
	double total = 0;
	int frames, perf;

	sp->roots = strtab_new(sizeof(struct root));
	sp->groups = strtab_new(sizeof(struct group));
	sp->rootof = xcalloc(n ? n : 1, sizeof(*sp->rootof));
	if (n == 0)
		return sp;
	/* perf roots are "COMM-PID/TID" (one frame); ETW's "PROCESS (PID);TID N". */
	s0 = strtab_str(t, 0, &len0);
	len0 = group_len(s0, len0, 1);
	perf = perf_dash(s0, len0) != len0 && memchr(s0, '/', len0);
	frames = by == SPLIT_THREAD && !perf ? 2 : 1;
	group_stacks(by, t, frames, perf, sp->roots, sp->groups, sp->rootof);
	/* The groups as one array (strtab values are not), busiest first. */
	ng = strtab_count(sp->groups);
	sp->g = xcalloc(ng, sizeof(*sp->g));
	order = xcalloc(ng, sizeof(*order));
	for (i = 0; i < ng; i++) {
		sp->g[i] = *(struct group *)strtab_val(sp->groups, (uint32_t)i);
		sp->g[i].rank = -1;
		order[i] = (uint32_t)i;
		total += sp->g[i].weight;
	}
	qsort_r(order, ng, sizeof(*order), heavier, sp->g);
	sp->nkept = ng < top ? ng : top;
	sp->kept = xcalloc(sp->nkept ? sp->nkept : 1, sizeof(*sp->kept));
	keep(sp, by, perf, order, sp->nkept, total);
	free(order);
	return sp;
}

void split_free(struct split *s)
{
	if (!s)
		return;
	strtab_free(s->roots);
	strtab_free(s->groups);
	free(s->rootof);
	free(s->g);
	free(s->kept);
	free(s);
}

size_t split_count(const struct split *s)
{
	return s->nkept;
}

const struct split_group *split_group(const struct split *s, size_t i)
{
	return &s->kept[i];
}

int split_rank(const struct split *s, uint32_t id)
{
	const struct root *r = strtab_val(s->roots, s->rootof[id]);

	return s->g[r->group].rank;
}

/* What split_save_folded writes. */
struct part {
	const struct split *sp;
	size_t i;
	const struct strtab *t;
};

static int part_lines(FILE *f, void *ctx)
{
	const struct part *p = ctx;
	uint32_t *ids = strtab_sorted(p->t);
	size_t k, len;
	int rc = 0;

	/* The first failed write ends it (errno tells why). */
	for (k = 0; k < strtab_count(p->t) && rc == 0; k++) {
		const char *s = strtab_str(p->t, ids[k], &len);

		if (split_rank(p->sp, ids[k]) == (int)p->i)
			rc = folded_write(f, s, len, strtab_val(p->t, ids[k]));
	}
	free(ids);
	return rc;
}

int split_save_folded(const struct split *sp, size_t i, const struct strtab *t, const char *path,
		      char *err, size_t errlen)
{
	struct part p = { sp, i, t };

	return outfile_save(path, part_lines, &p, err, errlen);
}
