/* goraw: the collapser over linefmt, and its sniffer.  Samples come
 * before the locations that name them, so both are kept (stacks of ids
 * with their counts, names by id) and joined at the end. */
#include "goraw.h"
#include "bytes.h"
#include "folded.h"
#include "leafstack.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

enum { IGNORE, SAMPLES, LOCATIONS, DONE };

struct loc {
	char *name;		/* the frames, root first, or NULL */
	size_t len;		/* their length */
};

struct goraw {
	struct linefmt_out o;	/* first: where stacks go */
	int state;		/* where in the report */
	struct strtab *stacks;	/* "ID ID ..." -> uint64_t count */
	struct strtab *locs;	/* "ID" -> struct loc */
	struct loc *cur;	/* the last location, for its inlined lines */
	struct leafstack st;	/* a stack being named */
};

static void init(void *st)
{
	struct goraw *g = st;

	g->stacks = strtab_new(sizeof(uint64_t));
	g->locs = strtab_new(sizeof(struct loc));
	leafstack_init(&g->st);
}

static void release(void *st)
{
	struct goraw *g = st;
	size_t i, n = strtab_count(g->locs);

	for (i = 0; i < n; i++)
		free(((struct loc *)strtab_val(g->locs, (uint32_t)i))->name);
	strtab_free(g->locs);
	strtab_free(g->stacks);
	leafstack_release(&g->st);
}

static size_t skip_blank(const char *s, size_t i, size_t n)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

static size_t digits(const char *s, size_t i, size_t n)
{
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/* "   10  100000000: 1 2 3 ": the first number is the weight (the
 * samples when there are more), the ids after ": " the stack. */
static int sample(struct goraw *g, const char *s, size_t n)
{
	size_t i = skip_blank(s, 0, n), a = i, e, j;
	uint64_t w, *acc;
	uint32_t id;

	if ((e = digits(s, i, n)) == i || linefmt_u64(s + a, e - a, &w) < 0)
		return 0;
	for (j = e; j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == ' ' || s[j] == '\t'); j++)
		;
	if (n - j < 3 || s[j] != ':' || s[j + 1] != ' ' || s[j + 2] < '0' || s[j + 2] > '9')
		return 0;
	for (i = j += 2; j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == ' '); j++)
		;
	while (j > i && s[j - 1] == ' ')
		j--;
	id = strtab_intern(g->stacks, s + i, j - i, NULL);
	acc = strtab_val(g->stacks, id);
	*acc += w;
	return 1;
}

/* "    12: 0x4a8a0e M=1 main.leafA /src/main.go:13 s=0": location 12 is
 * main.leafA.  Returns 0 when the line is not one. */
static int location(struct goraw *g, const char *s, size_t n)
{
	size_t i = skip_blank(s, 0, n), a = i, e, f;
	const char *sp;
	struct loc *l;

	e = digits(s, i, n);
	if (n - e < 5 || memcmp(s + e, ": 0x", 4) != 0)
		return 0;
	for (f = e + 4; f < n && ((s[f] >= '0' && s[f] <= '9') || (s[f] >= 'a' && s[f] <= 'f')); f++)
		;
	if (f == e + 4 || f == n || s[f] != ' ')
		return 0;
	f++;
	if (n - f > 2 && s[f] == 'M' && s[f + 1] == '=' && digits(s, f + 2, n) > f + 2 &&
	    digits(s, f + 2, n) < n && s[digits(s, f + 2, n)] == ' ')
		f = digits(s, f + 2, n) + 1;
	sp = memchr(s + f, ' ', n - f);
	if (!sp || sp == s + f)
		return 0;
	l = strtab_val(g->locs, strtab_intern(g->locs, s + a, e - a, NULL));
	free(l->name);
	l->len = (size_t)(sp - s) - f;
	l->name = xstrndup(s + f, l->len);
	g->cur = l;
	return 1;
}

/* "             main.main /src/main.go:32 s=0": the last location was
 * inlined into main.main, which goes in front of it. */
static void inlined(struct goraw *g, const char *s, size_t n)
{
	size_t i = skip_blank(s, 0, n);
	const char *sp = memchr(s + i, ' ', n - i);
	size_t fl = sp ? (size_t)(sp - s) - i : 0;
	char *name;

	if (!g->cur || !g->cur->name || i == 0 || fl == 0)
		return;
	name = xmalloc(fl + 1 + g->cur->len + 1);
	memcpy(name, s + i, fl);
	name[fl] = ';';
	memcpy(name + fl + 1, g->cur->name, g->cur->len + 1);
	free(g->cur->name);
	g->cur->name = name;
	g->cur->len += fl + 1;
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct goraw *g = st;

	(void)no;
	if (n && s[0] == '#')
		return 0;
	if (g->state == IGNORE && memmem(s, n, "Samples:", 8))
		g->state = SAMPLES;
	else if (g->state == SAMPLES && !sample(g, s, n) && memmem(s, n, "Locations", 9))
		g->state = LOCATIONS;
	else if (g->state == LOCATIONS && !location(g, s, n)) {
		if (memmem(s, n, "Mappings", 8)) {
			g->state = DONE;
			return -1;
		}
		inlined(g, s, n);
	}
	return 0;
}

/* Each stack of ids, named (an id no location names stays a number). */
static void end(void *st)
{
	struct goraw *g = st;
	size_t k, n = strtab_count(g->stacks), len, b, e;
	const char *ids, *text;
	const struct loc *l;
	uint32_t li;

	for (k = 0; k < n; k++) {
		ids = strtab_str(g->stacks, (uint32_t)k, &len);
		leafstack_clear(&g->st);
		for (b = 0; b <= len; b = e + 1) {
			for (e = b; e < len && ids[e] != ' '; e++)
				;
			li = strtab_find(g->locs, ids + b, e - b);
			l = li == UINT32_MAX ? NULL : strtab_val(g->locs, li);
			if (l && l->name)
				leafstack_push(&g->st, l->name, l->len);
			else
				leafstack_push(&g->st, ids + b, e - b);
		}
		text = leafstack_text(&g->st, &len);
		linefmt_add(&g->o, text, len, *(uint64_t *)strtab_val(g->stacks, (uint32_t)k));
	}
}

const struct linefmt goraw_linefmt = {
	"no samples (\"Samples:\" then \"COUNT VALUE: ID ...\" lines): not go tool pprof -raw "
	"output", sizeof(struct goraw), init, line, end, release
};

int goraw_sniff(const char *head, size_t len)
{
	return len > 12 && memcmp(head, "PeriodType: ", 12) == 0 &&
	       bytes_contains(head, len, "\nSamples:") ? 90 : 0;
}

int goraw_collect(const struct format_job *j)
{
	return linefmt_collect(j, &goraw_linefmt);
}
