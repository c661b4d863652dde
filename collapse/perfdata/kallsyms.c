/* kallsyms: line parsers for the kernel's and JIT symbol lists. */
#include "kallsyms.h"

#include <ctype.h>
#include <string.h>

/* perf reads at most this much of a kallsyms name (KSYM_NAME_LEN). */
#define KSYM_NAME_MAX 512

/* Reads hex digits at *p (before end) into *v; returns how many. */
static size_t hex(const char **p, const char *end, uint64_t *v)
{
	size_t n = 0;

	*v = 0;
	while (*p < end && isxdigit((unsigned char)**p)) {
		int c = tolower((unsigned char)**p);

		*v = *v << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
		(*p)++, n++;
	}
	return n;
}

static int wanted_type(char c)
{
	c = (char)toupper((unsigned char)c);
	return c == 'T' || c == 'W' || c == 'D' || c == 'B';
}

static unsigned type_flags(char c)
{
	if (c == 'W' || c == 'w')
		return PERFSYM_WEAK;
	return isupper((unsigned char)c) ? PERFSYM_GLOBAL : 0;
}

/* One "ADDR TYPE NAME[\t[mod]]" line (without its newline). */
static void kallsyms_line(const char *p, const char *end, struct perfsym_tab *t,
			  const char *ref_name, uint64_t *ref, int *found)
{
	const char *name, *tab;
	uint64_t addr;
	char type;

	if (hex(&p, end, &addr) == 0 || end - p < 3 || p[0] != ' ' || p[2] != ' ')
		return;
	type = p[1];
	name = p + 3;
	if (end - name > KSYM_NAME_MAX)
		end = name + KSYM_NAME_MAX;
	tab = memchr(name, '\t', (size_t)(end - name));
	if (ref && !*found && (size_t)((tab ? tab : end) - name) == strlen(ref_name) &&
	    memcmp(name, ref_name, strlen(ref_name)) == 0)
		*ref = addr, *found = 1;
	/* ARM modules' local "$a"-style mapping symbols are not functions. */
	if (!wanted_type(type) || name == end || name[0] == '$')
		return;
	perfsym_tab_add(t, addr, 0, name, (size_t)((tab ? tab : end) - name),
			type_flags(type) | (tab ? PERFSYM_MODULE : 0));
}

int kallsyms_parse(const char *buf, size_t len, struct perfsym_tab *t, const char *ref_name,
		   uint64_t *ref)
{
	const char *p = buf, *end = buf + len;
	int found = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		kallsyms_line(p, eol, t, ref_name, ref, &found);
		p = eol + (nl != NULL);
	}
	return found;
}

/* One "START SIZE NAME" line; returns 0, or -1 when malformed. */
static int jit_line(const char *p, const char *end, struct perfsym_tab *t)
{
	uint64_t start, size;

	if (end - p > 1 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (hex(&p, end, &start) == 0 || p == end || *p++ != ' ')
		return -1;
	if (end - p > 1 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (hex(&p, end, &size) == 0 || p == end || *p++ != ' ' || p == end)
		return -1;
	return perfsym_tab_add(t, start, size, p, (size_t)(end - p), PERFSYM_GLOBAL);
}

size_t kallsyms_parse_jit(const char *buf, size_t len, struct perfsym_tab *t)
{
	const char *p = buf, *end = buf + len;
	size_t bad = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (eol > p && jit_line(p, eol, t) < 0)
			bad++;
		p = eol + (nl != NULL);
	}
	return bad;
}
