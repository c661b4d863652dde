/* perfview_cli: options of stackcollapse-perfview. */
#include "perfview_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { O_TO_XML = 'X', O_TO_JSON = 'J', O_ZIP = 'z', O_TIME_ORDER = 't', O_OUTPUT = 'o',
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
	{ "output", O_OUTPUT, "FILE", "write FILE atomically instead of stdout" },
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
	case O_OUTPUT: cli->output = arg; break;
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

int pv_cli_parse(struct pv_cli *cli, int argc, char **argv, char *err, size_t errlen)
{
	static const char *const dash[] = { "-" };
	const struct cliopt_group g = { NULL, options, set, cli };
	size_t n;
	int first, rc;

	memset(cli, 0, sizeof(*cli));
	rc = cliopt_parse(&g, 1, "o:", 0, argc, argv, &first, err, errlen);
	if (rc != CLIOPT_RUN)
		return rc;
	n = cli->output ? strlen(cli->output) : 0;
	if (n > 4 && strcasecmp(cli->output + n - 4, ".zip") == 0)
		cli->zip = 1;
	if (cli->mode == PV_COLLAPSE && cli->zip) {
		snprintf(err, errlen, "--zip and -o NAME.zip go with --to-xml or --to-json");
		return CLIOPT_USAGE;
	}
	cli->inputs = first < argc ? (const char **)(void *)(argv + first) : (const char **)(size_t)dash;
	cli->ninputs = first < argc ? argc - first : 1;
	return CLIOPT_RUN;
}

int pv_cli_exit(int result, const char *prog, const char *err)
{
	const struct cliopt_group g = { NULL, options, set, NULL };

	if (result == CLIOPT_SHOW_VERSION)
		return cliopt_version(prog);
	if (result != CLIOPT_SHOW_HELP)
		return cliopt_usage(prog, err);
	printf("Usage: %s [options] [FILE.PerfView.xml|.json[.zip]...] > out.folded\n"
"       %s --to-xml|--to-json [-o OUT[.zip]] [STACKS.folded...]\n"
"Reads PerfView's stack files -- XML in the interned form PerfView writes\n"
"(Frames, Stacks, Samples) or with frames listed in each Sample, JSON\n"
"{\"StackSource\":{\"Samples\":[{\"Time\",\"Metric\",\"Stack\":[leaf..root]}]}},\n"
"plain, gzipped or zipped -- into collapsed stacks weighted by Metric.\n"
"Or writes collapsed stacks as a file PerfView opens.\n"
"\n"
, prog, prog);
	cliopt_help(stdout, &g, 1, "o:");
	printf("\n"
"Exit status: 0 every input read (unusable samples are named, counted and\n"
"skipped); 1 an input could not be read or was broken (what was read\n"
"before the fault is still written); 2 usage error.\n");
	return cliopt_stdout_status();
}
