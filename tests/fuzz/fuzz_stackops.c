/* libFuzzer target: stack operators over collapsed stacks.  The first
 * line holds the operators, separated by tabs: each one's first byte picks
 * the option, the rest is its value (a pattern, PAT->NAME, a percentage);
 * the other lines are the folded input.  Patterns are kept short and free
 * of counted repetition, so the fuzzer looks at the operators rather than
 * at the C library's regex compiler. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "fuzz.h"
#include "stackops.h"
#include "strtab.h"
#include "xalloc.h"

/* Adds the operator spec s (len bytes) to ops when it is one the tools
 * would take; bad ones are usage errors there and are skipped here. */
static void add_op(void *ops, const char *s, size_t len)
{
	const struct cliopt *o = stackops_family.opts;
	size_t nopts = 0;
	char arg[40], err[256];

	while (o[nopts].name)
		nopts++;
	if (len < 1 || len - 1 >= sizeof(arg) || memchr(s, '{', len) || memchr(s, '\0', len))
		return;
	memcpy(arg, s + 1, len - 1);
	arg[len - 1] = '\0';
	stackops_add(ops, o[(unsigned char)s[0] % nopts].key, arg, err, sizeof(err));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *nl = memchr(p, '\n', size), *end;
	size_t head = nl ? (size_t)(nl - p) : size, rest = size - head - (nl != NULL);
	const char *stop = p + head;	/* the end of the operators' line */
	void *ops = xcalloc(1, stackops_family.size);
	struct strtab *t = strtab_new(sizeof(struct fcount)), *out;
	struct lread *lr;
	unsigned long bad = 0, first = 0;
	char err[256];

	for (end = p; end < stop; p = end + 1) {
		end = memchr(p, '\t', (size_t)(stop - p));
		if (!end)
			end = stop;
		add_op(ops, p, (size_t)(end - p));
	}
	lr = lread_from_mem(data + size - rest, rest, "fuzz");
	folded_read(lr, t, NULL, NULL, &bad, &first, err, sizeof(err));
	lread_free(lr);
	out = stackops_apply(ops, t, NULL, NULL);
	strtab_free(out);
	strtab_free(t);
	stackops_family.release(ops);
	free(ops);
	return 0;
}
