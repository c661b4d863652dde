/* pprof_cli: options of stackcollapse-pprof. */
#include "pprof_cli.h"
#include "pprof_set.h"

#include <stdio.h>
#include <unistd.h>

enum { O_SAMPLE_TYPE = 1400, O_LABELS, O_THREADS };

static const struct cliopt format_opts[] = {
	{ "sample-type", O_SAMPLE_TYPE, "NAME", "draw the values of sample type NAME (cpu,\n"
	  "alloc_space, ...; default: the profile's default\nsample type, else its last, as pprof)" },
	{ "labels", O_LABELS, NULL, "root each stack in its sample's labels, a frame\n"
	  "key:value each, by key" },
	{ NULL, 0, NULL, NULL }
};

/* The tool's own: ctool's, with -n/--nthreads meaning what it says. */
static const struct cliopt tool_opts[] = {
	{ "threads", O_THREADS, "N", "threads reading the samples, the main one too\n"
	  "(0 = one per core, the default, up to 8; the\noutput is the same for any N)" },
	{ "nthreads", CTOOL_NTHREADS, "N", "the same as --threads (inferno's spelling; more\nthan 64 is 64)" },
	{ "quiet", CTOOL_QUIET, NULL, "no warnings on stderr" },
	{ "verbose", CTOOL_VERBOSE, NULL, "accepted for inferno's scripts; does nothing" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct pprof_opts *o = ctx;
	long n;

	switch (key) {
	case O_SAMPLE_TYPE: o->sample_type = arg; return 0;
	case O_LABELS: o->labels = 1; return 0;
	case O_THREADS:
		if (cliopt_long(arg, 0, 64, &n) < 0) {
			snprintf(err, errlen, "invalid --threads '%s': expected 0 to 64", arg);
			return -1;
		}
		o->threads = (int)n;
		return 0;
	case CTOOL_NTHREADS:
		/* What inferno's scripts pass (the cores, maybe many), as
		 * every collapser takes it: more than 64 is 64. */
		if (cliopt_long(arg, 0, 1L << 20, &n) < 0)
			return -1;
		o->threads = n > 64 ? 64 : (int)n;
		return 0;
	default: return ctool_set(&o->common, key, arg);
	}
}

static void release(void *obj)
{
	struct pprof_opts *o = obj;

	pprof_set_free(o->set);
	o->set = NULL;
}

/* The most threads by default: each keeps a table of the keys it met,
 * most of them, in memory. */
#define THREADS_MAX 8

int pprof_threads(const struct pprof_opts *o)
{
	long n;

	if (o && o->threads)
		return o->threads;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > THREADS_MAX ? THREADS_MAX : (int)n;
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
	.shorts = "o:qvn:", .family = &pprof_cli_family, .own = tool_opts
};
