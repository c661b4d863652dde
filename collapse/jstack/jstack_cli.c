/* jstack_cli: options of stackcollapse-jstack, as the script names them. */
#include "jstack_cli.h"
#include "ctool.h"
#include "jstack.h"

enum { O_TNAME = 1400, O_NO_TNAME, O_TID, O_NO_TID, O_SHORTEN, O_NO_SHORTEN };

static const struct cliopt format_opts[] = {
	{ "include-tname", O_TNAME, NULL, "thread names as root frames (the default)" },
	{ "no-include-tname", O_NO_TNAME, NULL, "no thread name frames" },
	{ "include-tid", O_TID, NULL, "keep a thread name's \"-N\" suffix" },
	{ "no-include-tid", O_NO_TID, NULL, "drop it (the default)" },
	{ "shorten-pkgs", O_SHORTEN, NULL, "java.util.HashMap.get -> j.u.HashMap.get" },
	{ "no-shorten-pkgs", O_NO_SHORTEN, NULL, "full package names (the default)" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct jstack_opts *o = ctx;

	(void)err, (void)errlen;
	switch (key) {
	case O_TNAME: o->no_tname = 0; return 0;
	case O_NO_TNAME: o->no_tname = 1; return 0;
	case O_TID: o->tid = 1; return 0;
	case O_NO_TID: o->tid = 0; return 0;
	case O_SHORTEN: o->shorten = 1; return 0;
	case O_NO_SHORTEN: o->shorten = 0; return 0;
	default: return ctool_set(&o->common, key, arg);
	}
}

const struct cliopt_family jstack_cli_family = {
	"jstack thread dumps (as stackcollapse-jstack)", format_opts, set,
	sizeof(struct jstack_opts), NULL, NULL, NULL
};

const struct cliopt_tool jstack_cli_tool = {
	.prog = "stackcollapse-jstack",
	.usage = "[options] [FILE...] > out.folded",
	.about = "Turns Java thread dumps (jstack PID, taken again and again into one file) into "
		"collapsed stacks for flamegraph, as stackcollapse-jstack.pl does: each RUNNABLE "
		"thread of each dump is one sample, under its thread's name; threads waiting in "
		"epoll or on a socket, and the JVM's compiler, signal, service and attach threads, "
		"are left out.\n",
	.shorts = "o:qvn:", .family = &jstack_cli_family, .own = ctool_opts
};
