/* perf_cli: options of stackcollapse-perf. */
#include "perf_cli.h"
#include "a2l.h"
#include "xalloc.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { O_EVENT = 256, O_SKIP, O_THREADS };

static const struct option longopts[] = {
	{ "pid", no_argument, NULL, 'p' },
	{ "tid", no_argument, NULL, 't' },
	{ "kernel", no_argument, NULL, 'k' },
	{ "jit", no_argument, NULL, 'j' },
	{ "all", no_argument, NULL, 'a' },
	{ "addrs", no_argument, NULL, 'A' },
	{ "srcline", no_argument, NULL, 's' },
	{ "inline", no_argument, NULL, 'I' },
	{ "context", no_argument, NULL, 'c' },
	{ "event-filter", required_argument, NULL, O_EVENT },
	{ "skip-after", required_argument, NULL, O_SKIP },
	{ "threads", required_argument, NULL, O_THREADS },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static int set_flag(struct perf_cli *cli, int c)
{
	struct perf_opts *o = &cli->opts;

	switch (c) {
	case 'p': o->pid = 1; break;
	case 't': o->tid = 1; break;
	case 'k': o->kernel = 1; break;
	case 'j': o->jit = 1; break;
	case 'a': o->kernel = o->jit = 1; break;
	case 'A': o->addrs = 1; break;
	case 's': o->srcline = 1; break;
	case 'I': cli->inline_frames = 1; break;
	case 'c': cli->context = 1; break;
	default: return -1;
	}
	return 0;
}

static int set_value(struct perf_cli *cli, int c, char *err, size_t errlen)
{
	char *end;
	long n;

	switch (c) {
	case O_EVENT:
		cli->opts.event_filter = optarg;
		return 0;
	case O_SKIP:
		cli->skip = xrealloc(cli->skip, (cli->nskip + 1) * sizeof(*cli->skip));
		cli->skip[cli->nskip++] = optarg;
		return 0;
	case O_THREADS:
		n = strtol(optarg, &end, 10);
		cli->run.threads = (int)n;
		if (!*optarg || *end || n < 0 || n > 1024) {
			snprintf(err, errlen, "invalid --threads '%s': expected 0 to 1024", optarg);
			return -1;
		}
		return 0;
	case 'o':
		cli->output = optarg;
		return 0;
	default:
		return -1;
	}
}

int perf_cli_parse(struct perf_cli *cli, int argc, char **argv, char *err, size_t errlen)
{
	static const char *const dash[] = { "-" };
	int c;

	memset(cli, 0, sizeof(*cli));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		if (c == 'h')
			return PERF_CLI_HELP;
		if (c == 'V')
			return PERF_CLI_VERSION;
		if (c == '?' || c == ':') {
			snprintf(err, errlen, c == ':' ? "option '%s' needs a value"
				 : "unknown or ambiguous option '%s'", argv[optind - 1]);
			return PERF_CLI_USAGE;
		}
		if (set_flag(cli, c) < 0 && set_value(cli, c, err, errlen) < 0)
			return PERF_CLI_USAGE;
	}
	if (cli->run.threads == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		cli->run.threads = n > 0 ? (int)(n > 64 ? 64 : n) : 1;
	}
	if (cli->inline_frames || cli->context) {
		cli->opts.inline_frames = a2l_new(cli->context);
		cli->run.threads = 1;	/* the addr2line cache is not shared */
	}
	cli->opts.skip_after = cli->skip;
	cli->opts.nskip_after = cli->nskip;
	cli->inputs = optind < argc ? (const char **)(void *)(argv + optind) : (const char **)(size_t)dash;
	cli->ninputs = optind < argc ? argc - optind : 1;
	return PERF_CLI_RUN;
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
"Usage: %s [options] [FILE...] > out.folded\n"
"Collapses 'perf script' output into stacks for flamegraph: one line per\n"
"distinct stack, \"comm;root;...;leaf COUNT\", sorted.  Reads stdin when no\n"
"FILE or -; .gz input is inflated.  A sample counts its period when perf\n"
"printed one, else 1.\n"
"\n"
"  --pid               root frame comm-PID\n"
"  --tid               root frame comm-PID/TID\n"
"  --kernel            annotate kernel frames with _[k]\n"
"  --jit               annotate JIT frames (perf-PID.map, jitdump) with _[j]\n"
"  --all               both --kernel and --jit\n"
"  --addrs             name unknown symbols [dso <address>]\n"
"  --event-filter EV   keep events EV (default: the first event type seen)\n"
"  --srcline           input from 'perf script -F+srcline': add file:line\n"
"  --skip-after FUNC   drop the frames above FUNC (repeatable)\n"
"  --inline            un-inline frames with addr2line (binutils), cached per\n"
"                      address; slow, and runs on one thread\n"
"  --context           with --inline, add file:line to those frames\n"
"  --threads N         worker threads (0 = all cores; output is the same)\n"
"  -o, --output FILE   write to FILE atomically instead of stdout\n"
"  --help, --version\n"
"\n"
"Exit status: 0 input read (even with no stacks), 1 a file could not be\n"
"read or written, 2 usage error.\n", prog);
}

int perf_cli_exit(struct perf_cli *cli, int result, const char *prog, const char *err)
{
	int rc = 2;

	if (result == PERF_CLI_HELP) {
		usage(stdout, prog);
		rc = fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	} else if (result == PERF_CLI_VERSION) {
		printf("%s (flame) %s\n", prog, FLAME_VERSION);
		rc = fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	} else {
		fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", prog, err, prog);
	}
	perf_cli_release(cli);
	return rc;
}

void perf_cli_report(const struct perf_cli *cli, const struct perf_stats *st, const char *prog)
{
	if ((cli->inline_frames || cli->context) && !cli->opts.inline_frames)
		fprintf(stderr, "%s: --inline needs addr2line (binutils), which is not on PATH; "
			"frames are shown as perf printed them\n", prog);
	if (st->filtered)
		fprintf(stderr, "%s: kept only '%s' events; skipped %" PRIu64
			" samples of other events such as '%s' (choose with --event-filter)\n",
			prog, st->event, st->filtered, st->other[0] ? st->other : "?");
	if (st->malformed)
		fprintf(stderr, "%s: skipped %" PRIu64 " malformed lines\n", prog, st->malformed);
}

void perf_cli_release(struct perf_cli *cli)
{
	free(cli->skip);
	cli->skip = NULL;
	a2l_free(cli->opts.inline_frames);
	cli->opts.inline_frames = NULL;
}
