/* perf_cli: options of stackcollapse-perf. */
#include "perf_cli.h"
#include "a2l.h"
#include "cliopt.h"
#include "xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { O_PID = 'p', O_TID = 't', O_KERNEL = 'k', O_JIT = 'j', O_ALL = 'a', O_ADDRS = 'A',
       O_SRCLINE = 's', O_INLINE = 'I', O_CONTEXT = 'c',
       O_EVENT = 256, O_SKIP, O_THREADS, O_SYMFS, O_KALLSYMS, O_NO_DEMANGLE };

/* What flame offers for perf input too. */
static const struct cliopt format_opts[] = {
	{ "kernel", O_KERNEL, NULL, "annotate kernel frames with _[k]" },
	{ "jit", O_JIT, NULL, "annotate JIT frames (perf-PID.map, jitdump) with _[j]" },
	{ "all", O_ALL, NULL, "both --kernel and --jit" },
	{ "addrs", O_ADDRS, NULL, "name unknown symbols [dso <address>]" },
	{ "event-filter", O_EVENT, "EV", "keep events EV (default: the first event type seen)" },
	{ "srcline", O_SRCLINE, NULL, "input from 'perf script -F+srcline': add file:line" },
	{ "skip-after", O_SKIP, "FUNC", "drop the frames above FUNC (repeatable)" },
	{ "inline", O_INLINE, NULL, "un-inline frames with addr2line (binutils), cached per\n"
	  "address; slow, and runs on one thread" },
	{ "context", O_CONTEXT, NULL, "with --inline, add file:line to those frames" },
	{ "threads", O_THREADS, "N", "worker threads (0 = all cores; output is the same)" },
	{ "symfs", O_SYMFS, "DIR", "perf.data: look its files up under DIR (a recording\n"
	  "made on another machine), as perf script --symfs" },
	{ "kallsyms", O_KALLSYMS, "FILE", "perf.data: kernel symbols from FILE, not /proc/kallsyms" },
	{ "no-demangle", O_NO_DEMANGLE, NULL, "perf.data: keep C++ and Rust names mangled" },
	{ NULL, 0, NULL, NULL }
};

static const struct cliopt tool_only[] = {
	{ "pid", O_PID, NULL, "root frame comm-PID" },
	{ "tid", O_TID, NULL, "root frame comm-PID/TID" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct perf_cli *cli = ctx;
	struct perf_opts *o = &cli->opts;
	long n;

	switch (key) {
	case O_PID: o->pid = 1; break;
	case O_TID: o->tid = 1; break;
	case O_KERNEL: o->kernel = 1; break;
	case O_JIT: o->jit = 1; break;
	case O_ALL: o->kernel = o->jit = 1; break;
	case O_ADDRS: o->addrs = 1; break;
	case O_SRCLINE: o->srcline = 1; break;
	case O_INLINE: cli->inline_frames = 1; break;
	case O_CONTEXT: cli->context = 1; break;
	case O_EVENT: o->event_filter = arg; break;
	case O_SYMFS: o->symfs = arg; break;
	case O_KALLSYMS: o->kallsyms = arg; break;
	case O_NO_DEMANGLE: o->no_demangle = 1; break;
	case O_SKIP:
		cli->skip = xrealloc(cli->skip, (cli->nskip + 1) * sizeof(*cli->skip));
		cli->skip[cli->nskip++] = arg;
		break;
	case O_THREADS:
		if (cliopt_long(arg, 0, 1024, &n) < 0) {
			snprintf(err, errlen, "invalid --threads '%s': expected 0 to 1024", arg);
			return -1;
		}
		cli->run.threads = (int)n;
		break;
	default: return -1;
	}
	return 0;
}

static void init(void *obj)
{
	memset(obj, 0, sizeof(struct perf_cli));
}

static void ready(void *obj)
{
	struct perf_cli *cli = obj;

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
}

const struct cliopt_tool perf_cli_tool = {
	.prog = "stackcollapse-perf",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Collapses 'perf script' output into stacks for flamegraph: one line per distinct stack, \"comm;root;...;leaf COUNT\", sorted. Reads stdin when no FILE or -; .gz input is inflated. A sample counts its period when perf printed one, else 1.\n",
	.shorts = "o:", .family = &perf_cli_family, .own = tool_only
};

void perf_cli_report(const struct perf_cli *cli, const struct perf_stats *st, const char *prog)
{
	if ((cli->inline_frames || cli->context) && !cli->opts.inline_frames)
		fprintf(stderr, "%s: --inline needs addr2line (binutils), which %s; "
			"frames are shown as perf printed them\n", prog,
			A2L_AVAILABLE ? "is not on PATH" : "only the Linux build can run");
	if (st->filtered)
		fprintf(stderr, "%s: kept only '%s' events; skipped %" PRIu64
			" samples of other events such as '%s' (choose with --event-filter)\n",
			prog, st->event, st->filtered, st->other[0] ? st->other : "?");
	if (st->malformed)
		fprintf(stderr, "%s: skipped %" PRIu64 " malformed lines\n", prog, st->malformed);
}

static void release(void *obj)
{
	perf_cli_release(obj);
}

const struct cliopt_family perf_cli_family = {
	"perf script input (as stackcollapse-perf)", format_opts, set, sizeof(struct perf_cli),
	init, ready, release
};

void perf_cli_release(struct perf_cli *cli)
{
	free(cli->skip);
	cli->skip = NULL;
	a2l_free(cli->opts.inline_frames);
	cli->opts.inline_frames = NULL;
}
