/* perfview_cli: options of stackcollapse-perfview. */
#include "perfview_cli.h"
#include "cliopt.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { O_BEGIN = 256, O_END, O_MAX_INFLATE };

static const struct option longopts[] = {
	{ "to-xml", no_argument, NULL, 'X' },
	{ "to-json", no_argument, NULL, 'J' },
	{ "zip", no_argument, NULL, 'z' },
	{ "time-order", no_argument, NULL, 't' },
	{ "begin", required_argument, NULL, O_BEGIN },
	{ "end", required_argument, NULL, O_END },
	{ "max-inflate", required_argument, NULL, O_MAX_INFLATE },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

int pv_cli_size(const char *s, unsigned long long *v)
{
	char *end;
	unsigned shift = 0;

	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoull(s, &end, 10);
	if (*end && end[1] == 0)
		shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30
		      : *end == 'T' ? 40 : 64;
	else if (*end)
		return -1;
	if (shift == 64 || *v == 0 || *v > (~0ULL >> shift))
		return -1;
	*v <<= shift;
	return 0;
}

static int value(struct pv_cli *cli, int c, const char *arg, char *err, size_t errlen)
{
	unsigned long long size;
	char *end;
	double d;
	int bad;

	if (c == O_MAX_INFLATE) {
		bad = pv_cli_size(arg, &size) < 0;
		cli->opts.max_inflate = size;
	} else {
		d = strtod(arg, &end);
		bad = !*arg || *end || !isfinite(d);
		if (c == O_BEGIN)
			cli->opts.begin = d, cli->opts.has_begin = 1;
		else
			cli->opts.end = d, cli->opts.has_end = 1;
	}
	if (bad)
		snprintf(err, errlen, "invalid value '%s' for --%s", arg, cliopt_name(longopts, c));
	return bad ? -1 : 0;
}

int pv_cli_parse(struct pv_cli *cli, int argc, char **argv, char *err, size_t errlen)
{
	static const char *const dash[] = { "-" };
	size_t n;
	int c;

	memset(cli, 0, sizeof(*cli));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'X': cli->mode = PV_TO_XML; break;
		case 'J': cli->mode = PV_TO_JSON; break;
		case 'z': cli->zip = 1; break;
		case 't': cli->opts.time_order = 1; break;
		case 'o': cli->output = optarg; break;
		case 'h': return PV_CLI_HELP;
		case 'V': return PV_CLI_VERSION;
		case '?':
		case ':':
			snprintf(err, errlen, c == ':' ? "option '%s' needs a value"
				 : "unknown or ambiguous option '%s'", argv[optind - 1]);
			return PV_CLI_USAGE;
		default:
			if (value(cli, c, optarg, err, errlen) < 0)
				return PV_CLI_USAGE;
		}
	}
	n = cli->output ? strlen(cli->output) : 0;
	if (n > 4 && strcasecmp(cli->output + n - 4, ".zip") == 0)
		cli->zip = 1;
	if (cli->mode == PV_COLLAPSE && cli->zip) {
		snprintf(err, errlen, "--zip and -o NAME.zip go with --to-xml or --to-json");
		return PV_CLI_USAGE;
	}
	cli->inputs = optind < argc ? (const char **)(void *)(argv + optind) : (const char **)(size_t)dash;
	cli->ninputs = optind < argc ? argc - optind : 1;
	return PV_CLI_RUN;
}

int pv_cli_exit(int result, const char *prog, const char *err)
{
	if (result == PV_CLI_VERSION) {
		printf("%s (flame) %s\n", prog, FLAME_VERSION);
		return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	}
	if (result != PV_CLI_HELP) {
		fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", prog, err, prog);
		return 2;
	}
	printf("Usage: %s [options] [FILE.PerfView.xml|.json[.zip]...] > out.folded\n"
"       %s --to-xml|--to-json [-o OUT[.zip]] [STACKS.folded...]\n"
"Reads PerfView's stack files -- XML in the interned form PerfView writes\n"
"(Frames, Stacks, Samples) or with frames listed in each Sample, JSON\n"
"{\"StackSource\":{\"Samples\":[{\"Time\",\"Metric\",\"Stack\":[leaf..root]}]}},\n"
"plain, gzipped or zipped -- into collapsed stacks weighted by Metric.\n"
"Or writes collapsed stacks as a file PerfView opens.\n"
"\n"
"  --time-order          keep samples in Time order, merging only adjacent\n"
"                        equal stacks (for flamegraph --flamechart)\n"
"  --begin MS, --end MS  keep samples with begin <= Time < end\n"
"  --max-inflate SIZE    refuse zip members larger than SIZE (default 4G)\n"
"  --to-xml, --to-json   write PerfView XML or JSON from collapsed stacks\n"
"  --zip                 ...inside a zip archive (implied by -o NAME.zip)\n"
"  -o, --output FILE     write FILE atomically instead of stdout\n"
"  --help, --version\n"
"\n"
"Exit status: 0 every input read (unusable samples are named, counted and\n"
"skipped); 1 an input could not be read or was broken (what was read\n"
"before the fault is still written); 2 usage error.\n",
	       prog, prog);
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
