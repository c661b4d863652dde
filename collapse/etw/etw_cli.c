/* etw_cli: options of stackcollapse-etw. */
#include "etw_cli.h"
#include "xalloc.h"
#include "cliopt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_NO_PROCESS = 'P', O_NO_THREAD = 'T', O_COLLAPSE = 'c', O_INCLUDE_IDLE = 'i',
       O_EXCLUDE_IDLE = 'e', O_NMI = 'N', O_ADDRS = 'A',
       O_PROCESS = 256, O_PID, O_TID, O_BEGIN, O_END, O_GREP, O_WEIGHT, O_SPLIT, O_TOP, O_SYMBOLS };

/* What flame offers for ETW input too. */
static const struct cliopt format_opts[] = {
	{ "no-process", O_NO_PROCESS, NULL, "no PROCESS (PID) root frame" },
	{ "no-thread", O_NO_THREAD, NULL, "no TID N frame" },
	{ "collapse-threads", O_COLLAPSE, NULL, "one graph per process: the thread as TID:N" },
	{ "grep", O_GREP, "TEXT", "keep stacks with a frame containing TEXT" },
	{ "exclude-idle", O_EXCLUDE_IDLE, NULL, "drop Idle (0) and DPC/ISR samples (the default)" },
	{ "include-idle", O_INCLUDE_IDLE, NULL, "keep them" },
	{ "weight", O_WEIGHT, "COLUMN", "CSV: weigh rows by COLUMN (Count, Weight), not 1" },
	{ "nmi", O_NMI, NULL, "dumper: SampledProfileNmi events are samples too" },
	{ "addrs", O_ADDRS, NULL, "dumper: unresolved frames as module!0xADDR\n"
	  "(default module!<PDB_not_found>, as WPA);\n.etl: frames as module!0xRVA (default module!?)" },
	{ "symbols", O_SYMBOLS, "PATH", ".etl: frames named module!NAME from PATH, a directory\n"
	  "of MODULE.sym maps (lines RVA SIZE NAME, hex) or one\nsuch file; a PE image PATH/MODULE through\n"
	  "llvm-symbolizer (its PDB) when that is on PATH" },
	{ NULL, 0, NULL, NULL }
};

static const struct cliopt tool_only[] = {
	{ "process", O_PROCESS, "NAME[,NAME]", "keep these processes (any case, .exe optional)" },
	{ "pid", O_PID, "N[,N]", "keep these processes" },
	{ "tid", O_TID, "N[,N]", "keep these threads" },
	{ "begin", O_BEGIN, "SEC", "keep samples at or after SEC (TimeStamp column)" },
	{ "end", O_END, "SEC", "keep samples before SEC" },
	{ "split", O_SPLIT, "DIR", "write DIR/PROCESS_PID_TID.folded for the --top N busiest\n"
	  "threads (processes with --collapse-threads) and\nlist them on stdout" },
	{ "top", O_TOP, "N", "how many --split writes (default 1)" },
	{ NULL, 0, NULL, NULL }
};

static int set_flag(struct etw_opts *o, int key)
{
	switch (key) {
	case O_NO_PROCESS: o->no_process = 1; break;
	case O_NO_THREAD: o->no_thread = 1; break;
	case O_COLLAPSE: o->collapse_threads = 1; break;
	case O_INCLUDE_IDLE: o->include_idle = 1; break;
	case O_EXCLUDE_IDLE: o->include_idle = 0; break;
	case O_NMI: o->nmi = 1; break;
	case O_ADDRS: o->addrs = 1; break;
	default: return -1;
	}
	return 0;
}

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct etw_cli *cli = ctx;
	struct etw_opts *o = &cli->opts;
	long n;

	(void)err;
	(void)errlen;
	switch (key) {
	case O_PROCESS: cliopt_names(arg, &cli->procs, &o->filter.nprocess); break;
	case O_PID: return cliopt_numbers(arg, &cli->pids, &o->filter.npid);
	case O_TID: return cliopt_numbers(arg, &cli->tids, &o->filter.ntid);
	case O_BEGIN: o->filter.has_begin = 1; return cliopt_real(arg, &o->filter.begin);
	case O_END: o->filter.has_end = 1; return cliopt_real(arg, &o->filter.end);
	case O_GREP: o->grep = arg; break;
	case O_WEIGHT: o->weight = arg; break;
	case O_SYMBOLS: o->symbols = arg; break;
	case O_SPLIT: cli->split = arg; break;
	case O_TOP:
		if (cliopt_long(arg, 1, 1000000, &n) < 0)
			return -1;
		cli->top = (size_t)n;
		break;
	default: return set_flag(o, key);
	}
	return 0;
}

static void init(void *obj)
{
	struct etw_cli *cli = obj;

	memset(cli, 0, sizeof(*cli));
	cli->top = 1;
}

static void ready(void *obj)
{
	struct etw_cli *cli = obj;

	cli->opts.filter.process = (const char *const *)(void *)cli->procs;
	cli->opts.filter.pid = cli->pids;
	cli->opts.filter.tid = cli->tids;
}

const struct cliopt_tool etw_cli_tool = {
	.prog = "stackcollapse-etw",
	.usage = "[options] [TRACE.etl|EXPORT.csv...] > out.folded",
	.about = "Turns Windows ETW CPU sampling exports into collapsed stacks, the format read from the content: wpaexporter CSV from a CPU Usage (Sampled) preset (e.g. UIforETW's ExportCPUUsageSampled.wpaProfile), one row per sample; or 'xperf -i trace.etl -symbols -a dumper [-stacktimeshifting]' text, where kernel and user stack fragments are joined to their samples; or the .etl trace itself (also in a zip), its SampledProfile events joined to their StackWalk stacks, frames module!? (module!0xRVA with --addrs). Stacks start with PROCESS (PID) and TID N.\n",
	.after = "Names are kept as they are (only ';' becomes ':').\n",
	.shorts = "o:", .family = &etw_cli_family, .own = tool_only
};

static void release(void *obj)
{
	etw_cli_release(obj);
}

const struct cliopt_family etw_cli_family = {
	"ETW exports (as stackcollapse-etw)", format_opts, set, sizeof(struct etw_cli), init,
	ready, release
};

void etw_cli_release(struct etw_cli *cli)
{
	size_t i;

	for (i = 0; i < cli->opts.filter.nprocess; i++)
		free(cli->procs[i]);
	free(cli->procs);
	free(cli->pids);
	free(cli->tids);
	memset(cli, 0, sizeof(*cli));
}
