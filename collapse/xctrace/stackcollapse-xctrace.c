/* stackcollapse-xctrace: xctrace export XML (Instruments' Time Profiler)
 * to collapsed stacks.  Exit 0 when every input was read (elements that
 * could not be used are named), 1 when one could not be, was not xctrace's
 * XML or broke off (the rows before are written), 2 on a usage error. */
#include "ctool.h"

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	return ctool_set(ctx, key, arg);
}

static const struct cliopt none[] = { { NULL, 0, NULL, NULL } };

static const struct cliopt_family family = {
	NULL, none, set, sizeof(struct ctool_common), NULL, NULL, NULL
};

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-xctrace",
	.usage = "[options] [FILE.xml...] > out.folded",
	.about = "Turns the time profile of an Instruments trace, exported as XML, into "
		"collapsed stacks for flamegraph, as inferno-collapse-xctrace does:\n"
		"  xctrace export --input run.trace --xpath "
		"'/trace-toc/run[@number=\"1\"]/data/table[@schema=\"time-profile\"]' > out.xml\n"
		"Each row is a sample of its backtrace.\n",
	.shorts = "o:qvn:", .family = &family, .own = ctool_opts
};

int main(int argc, char **argv)
{
	return ctool_main(&tool, "xctrace", argc, argv);
}
