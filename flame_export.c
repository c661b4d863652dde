/* flame_export: the --to table. */
#include "flame_export.h"
#include "folded.h"
#include "pprof_write.h"
#include "sswrite.h"

#include <stdio.h>
#include <string.h>

static int save_collapsed(const struct strtab *t, const struct export_info *x, const char *path, char *err,
			  size_t errlen)
{
	(void)x;
	return folded_save(t, path, err, errlen);
}

static int save_pprof(const struct strtab *t, const struct export_info *x, const char *path, char *err,
		      size_t errlen)
{
	return pprof_write_save(t, x->unit, x->title, path, err, errlen);
}

static int save_speedscope(const struct strtab *t, const struct export_info *x, const char *path,
			   char *err, size_t errlen)
{
	return sswrite_save(t, x->unit, x->title, path, err, errlen);
}

const struct flame_export flame_exports[] = {
	{ "svg", "an interactive flame graph (the default)", NULL },
	{ "collapsed", "collapsed stacks, one 'frame;frame;... count' per line", save_collapsed },
	{ "pprof", "a gzipped pprof profile (profile.proto), for go tool pprof, Pyroscope, Parca",
	  save_pprof },
	{ "speedscope", "a speedscope JSON file (one sampled profile), for speedscope.app", save_speedscope },
	{ NULL, NULL, NULL }
};

const struct flame_export *flame_export_find(const char *name)
{
	const struct flame_export *e;

	for (e = flame_exports; e->name; e++)
		if (strcmp(e->name, name) == 0)
			return e;
	return NULL;
}

void flame_export_names(char *buf, size_t len)
{
	const struct flame_export *e;
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (e = flame_exports; e->name && used < len; e++) {
		int n = snprintf(buf + used, len - used, "%s%s", e == flame_exports ? "" : ", ", e->name);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}
