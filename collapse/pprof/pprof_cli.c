/* pprof_cli: options of stackcollapse-pprof. */
#include "pprof_cli.h"
#include "pprof_set.h"

enum { O_SAMPLE_TYPE = 1400, O_LABELS };

static const struct cliopt format_opts[] = {
	{ "sample-type", O_SAMPLE_TYPE, "NAME", "draw the values of sample type NAME (cpu,\n"
	  "alloc_space, ...; default: the profile's default\nsample type, else its last, as pprof)" },
	{ "labels", O_LABELS, NULL, "root each stack in its sample's labels, a frame\n"
	  "key:value each, by key" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct pprof_opts *o = ctx;

	(void)err, (void)errlen;
	switch (key) {
	case O_SAMPLE_TYPE: o->sample_type = arg; return 0;
	case O_LABELS: o->labels = 1; return 0;
	default: return ctool_set(&o->common, key, arg);
	}
}

static void release(void *obj)
{
	struct pprof_opts *o = obj;

	pprof_set_free(o->set);
	o->set = NULL;
}

const struct cliopt_family pprof_cli_family = {
	"pprof profiles (as stackcollapse-pprof)", format_opts, set, sizeof(struct pprof_opts),
	NULL, NULL, release
};

const struct cliopt_tool pprof_cli_tool = {
	.prog = "stackcollapse-pprof",
	.usage = "[options] [PROFILE.pb.gz...] > out.folded",
	.about = "Turns pprof profiles (profile.proto, gzipped or not: Go's runtime/pprof "
		"and net/http/pprof, perf_data_converter, Pyroscope and Parca exports) into "
		"collapsed stacks for flamegraph. Each sample is a stack, root first, weighing "
		"its value of one sample type; inlined functions are frames of their own. A "
		"location no function names is [FILE], its mapping's base name, else its "
		"address.\n",
	.after = "In names ';' becomes ':' and line ends and tabs spaces. Samples that "
		"cannot be read, name unknown locations or have negative values are counted "
		"and named on stderr; a profile that breaks off keeps what came before, and "
		"the byte offset where it broke is named.\n",
	.shorts = "o:qvn:", .family = &pprof_cli_family, .own = ctool_opts
};
