/* cliopt: getopt_long table helpers. */
#include "cliopt.h"

#include "xalloc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const char *cliopt_name(const struct option *opts, int val)
{
	const struct option *p;

	for (p = opts; p->name; p++)
		if (p->val == val)
			return p->name;
	return "?";
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
