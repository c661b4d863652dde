/* cliopt: getopt_long table helpers. */
#include "cliopt.h"

#include <stddef.h>

const char *cliopt_name(const struct option *opts, int val)
{
	const struct option *p;

	for (p = opts; p->name; p++)
		if (p->val == val)
			return p->name;
	return "?";
}
