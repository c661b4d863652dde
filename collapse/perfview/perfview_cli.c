/* perfview_cli: options of stackcollapse-perfview. */
#include "perfview_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { O_TO_XML = 'X', O_TO_JSON = 'J', O_ZIP = 'z', O_TIME_ORDER = 't',
       O_BEGIN = 256, O_END, O_MAX_INFLATE };

static const struct cliopt options[] = {
	{ "time-order", O_TIME_ORDER, NULL, "keep samples in Time order, merging only adjacent\n"
	  "equal stacks (for flamegraph --flamechart)" },
	{ "begin", O_BEGIN, "MS", "keep samples with begin <= Time" },
	{ "end", O_END, "MS", "keep samples with Time < end" },
	{ "max-inflate", O_MAX_INFLATE, "SIZE", "refuse zip members larger than SIZE (default 4G)" },
	{ "to-xml", O_TO_XML, NULL, "write PerfView XML from collapsed stacks" },
	{ "to-json", O_TO_JSON, NULL, "write PerfView JSON from collapsed stacks" },
	{ "zip", O_ZIP, NULL, "...inside a zip archive (implied by -o NAME.zip)" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct pv_cli *cli = ctx;
	unsigned long long size;

	(void)err;
	(void)errlen;
	switch (key) {
	case O_TO_XML: cli->mode = PV_TO_XML; break;
	case O_TO_JSON: cli->mode = PV_TO_JSON; break;
	case O_ZIP: cli->zip = 1; break;
	case O_TIME_ORDER: cli->opts.time_order = 1; break;
	case O_BEGIN: cli->opts.has_begin = 1; return cliopt_real(arg, &cli->opts.begin);
	case O_END: cli->opts.has_end = 1; return cliopt_real(arg, &cli->opts.end);
	case O_MAX_INFLATE:
		if (cliopt_size(arg, &size) < 0)
			return -1;
		cli->opts.max_inflate = size;
		break;
	default: return -1;
	}
	return 0;
}

static const struct cliopt_family family = {
	NULL, options, set, sizeof(struct pv_cli), NULL, NULL, NULL
};

static const struct cliopt_tool tool = {
	.prog = "stackcollapse-perfview",
	.usage = "[options] [FILE.PerfView.xml|.json[.zip]...] > out.folded\n"
		"--to-xml|--to-json [-o OUT[.zip]] [STACKS.folded...]",
	.about = "Reads PerfView's stack files -- XML in the interned form PerfView writes (Frames, Stacks, Samples) or with frames listed in each Sample, JSON {\"StackSource\":{\"Samples\":[{\"Time\",\"Metric\",\"Stack\":[leaf..root]}]}}, plain, gzipped or zipped -- into collapsed stacks weighted by Metric. Or writes collapsed stacks as a file PerfView opens.\n",
	.shorts = "o:", .family = &family
};

int pv_cli_parse(struct pv_cli *cli, int argc, char **argv)
{
	int rc = cliopt_tool_parse(&tool, cli, argc, argv, &cli->io);
	const char *out = cli->io.output;
	size_t n = out ? strlen(out) : 0;

	if (rc >= 0)
		return rc;
	if (n > 4 && strcasecmp(out + n - 4, ".zip") == 0)
		cli->zip = 1;
	if (cli->mode == PV_COLLAPSE && cli->zip)
		return cliopt_usage(tool.prog, "--zip and -o NAME.zip go with --to-xml or --to-json");
	return -1;
}
