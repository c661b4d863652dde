/* flame_export: the --to table. */
#include "flame_export.h"
#include "folded.h"
#include "format.h"
#include "perf_cli.h"
#include "pprof_write.h"
#include "sswrite.h"
#ifndef _WIN32
#include "lnt_perf.h"
#endif

#include <stdio.h>
#include <stdlib.h>
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

#ifndef _WIN32
/* perf.data to an LNT profile: perf's --symfs, objdump from $OBJDUMP. */
static int convert_lnt(const char *const *in, int n, const struct export_info *x, const char *path,
		       char *err, size_t errlen)
{
	struct lnt_perf_opts o = { getenv("OBJDUMP"), NULL };
	size_t i;

	for (i = 0; x->fopts && format_families[i]; i++)
		if (format_families[i] == &perf_cli_family && x->fopts[i])
			o.symfs = ((const struct perf_cli *)x->fopts[i])->opts.symfs;
	if (o.objdump && !o.objdump[0])
		o.objdump = NULL;
	return lnt_perf_convert(in, n, &o, path, x->warn, x->ctx, err, errlen);
}
#else
/* The Windows build has no perf.data reader (windows.mk). */
static int convert_lnt(const char *const *in, int n, const struct export_info *x, const char *path,
		       char *err, size_t errlen)
{
	(void)in, (void)n, (void)x, (void)path;
	snprintf(err, errlen, "--to lnt reads perf.data, which needs the Linux build");
	return -1;
}
#endif

const struct flame_export flame_exports[] = {
	{ "svg", "an interactive flame graph (the default)", NULL, NULL },
	{ "collapsed", "collapsed stacks, one 'frame;frame;... count' per line", save_collapsed, NULL },
	{ "pprof", "a gzipped pprof profile (profile.proto), for go tool pprof, Pyroscope, Parca",
	  save_pprof, NULL },
	{ "speedscope", "a speedscope JSON file (one sampled profile), for speedscope.app", save_speedscope,
	  NULL },
	{ "lnt", "an LLVM LNT profile (v2) from perf.data: per function and instruction, "
	  "with objdump's disassembly", NULL, convert_lnt },
	{ NULL, NULL, NULL, NULL }
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
