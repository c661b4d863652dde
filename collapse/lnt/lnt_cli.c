/* lnt_cli: options of stackcollapse-lnt. */
#include "lnt_cli.h"

#include <stdio.h>
#include <string.h>

enum { O_EVENT = 256, O_PER_INSN, O_ROOT, O_TABLE, O_WRITE };

/* What flame offers for LNT profiles too.  --event-filter is the perf
 * family's name: in flame one option picks the event of either. */
static const struct cliopt format_opts[] = {
	{ "event-filter", O_EVENT, "EV", "draw counter EV (default: cycles, else the first\n"
	  "by name; the others are named on stderr)" },
	{ "per-instruction", O_PER_INSN, NULL, "a frame per instruction under its function\n"
	  "(0xADDR and its disassembly)" },
	{ "root-frame", O_ROOT, "WHAT", "what roots the stacks: counter (its name, the\n"
	  "default: runs compare), file (the profile's name),\nor none" },
	{ NULL, 0, NULL, NULL }
};

static const struct cliopt tool_only[] = {
	{ "table", O_TABLE, NULL, "a table instead: per function, every counter,\n"
	  "by the chosen counter" },
	{ "write-v2", O_WRITE, "FILE", "write the one input as an LNT v2 profile to FILE\n"
	  "(as 'lnt profile upgrade' does a v1 file)" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct lnt_cli *cli = ctx;

	switch (key) {
	case O_EVENT: cli->opts.event = arg; break;
	case O_PER_INSN: cli->opts.per_insn = 1; break;
	case O_TABLE: cli->table = 1; break;
	case O_WRITE: cli->write_v2 = arg; break;
	case O_ROOT:
		if (strcmp(arg, "counter") == 0)
			cli->opts.root = LNT_ROOT_COUNTER;
		else if (strcmp(arg, "file") == 0)
			cli->opts.root = LNT_ROOT_FILE;
		else if (strcmp(arg, "none") == 0)
			cli->opts.root = LNT_ROOT_NONE;
		else {
			snprintf(err, errlen, "unknown --root-frame '%s': counter, file or none", arg);
			return -1;
		}
		break;
	default: return -1;
	}
	return 0;
}

const struct cliopt_family lnt_cli_family = {
	"LNT profiles (as stackcollapse-lnt)", format_opts, set, sizeof(struct lnt_cli),
	NULL, NULL, NULL
};

const struct cliopt_tool lnt_cli_tool = {
	.prog = "stackcollapse-lnt",
	.usage = "[options] [PROFILE.lntprof...] > out.folded\n[--table] PROFILE.lntprof...",
	.about = "Turns LLVM LNT profiles (version 1, zlib-compressed pickle, and version 2, binary with bzip2 sections; 'lnt profile upgrade' writes them) into collapsed stacks for flamegraph. LNT profiles hold counters per function and per instruction, not call stacks: the graph is flat, a function under the counter's name, weighted by its counter as LNT stores it (a percentage of the profile's total; with --per-instruction each instruction's share of that).\n",
	.after = "Weights are written exactly (the fewest decimals that read back as the stored number). In names ';' becomes ':' and line ends and tabs spaces.\n",
	.shorts = "o:", .family = &lnt_cli_family, .own = tool_only
};
