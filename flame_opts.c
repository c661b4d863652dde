/* flame_opts: flame's own options and the format tools' (their cliopt
 * tables, so an option means the same in flame as in stackcollapse-X) are
 * taken out of argv; what is left goes to the renderer's parser, so every
 * flamegraph.pl option works. */
#include "flame_opts.h"
#include "cliopt.h"
#include "flame_export.h"
#include "perf_cli.h"
#include "pprof_cli.h"
#include "stackops.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { O_FORMAT = 256, O_COLLAPSED, O_DIFF, O_SUMMARY, O_FAIL_SELF, O_FAIL_TOTAL, O_SPLIT, O_TOP,
       O_PID, O_TID, O_PROCESS, O_BEGIN, O_END, O_MAX_INFLATE, O_CLASSIC, O_NORMALIZE,
       O_TOP_FUNCTIONS, O_LIST_FORMATS, O_TO };

static const struct cliopt own[] = {
	{ "format", O_FORMAT, "NAME", "do not detect: read every input as NAME" },
	{ "collapsed", O_COLLAPSED, NULL, "write collapsed stacks instead of SVG (--to collapsed)" },
	/* Every row of flame_exports, as tests/options.sh checks. */
	{ "to", O_TO, "FORMAT", "write FORMAT: svg (the default), collapsed,\npprof, speedscope, lnt" },
	{ "list-formats", O_LIST_FORMATS, NULL, "list the formats flame reads, and exit" },
	{ "pid", O_PID, "N,..", "ETW and perf inputs: keep these processes" },
	{ "tid", O_TID, "N,..", "ETW and perf inputs: keep these threads" },
	{ "process", O_PROCESS, "NAME,..", "ETW and perf inputs: keep these process names\n"
	  "(ETW: any case, .exe optional)" },
	{ "begin", O_BEGIN, "T", "keep samples at or after T (ETW and perf: seconds;\n"
	  "PerfView: ms)" },
	{ "end", O_END, "T", "keep samples before T" },
	{ "max-inflate", O_MAX_INFLATE, "SIZE", "refuse zip members larger than SIZE (4G)" },
	{ "split-by", O_SPLIT, "thread|process", "with -o DIR: one SVG per busiest thread or\n"
	  "process (--top N of them), listed on stdout" },
	{ "top", O_TOP, "N", "how many --split-by writes (default 1)" },
	{ "summary", O_SUMMARY, "FILE", "top functions by self and inclusive weight as JSON\n"
	  "(with --diff: by their change)" },
	{ "top-functions", O_TOP_FUNCTIONS, "N", "print a table of the N heaviest functions,\n"
	  "self and total with shares (with --diff: the N\nthat grew most); on stdout with -o FILE,\n"
	  "else on stderr" },
	{ "diff", O_DIFF, NULL, "BEFORE AFTER: differential graph: widths from AFTER,\n"
	  "red grew, blue shrank (--negate swaps); stacks gone\nfrom AFTER drawn hatched with "
	  "their BEFORE width;\ntooltips give each frame's before/after/change" },
	{ "classic-diff", O_CLASSIC, NULL, "--diff: exactly difffolded | flamegraph" },
	{ "normalize", O_NORMALIZE, NULL, "--diff: scale BEFORE to AFTER's total first" },
	{ "fail-if-self-grows", O_FAIL_SELF, "PCT", "--diff: exit 3 when a function's self share of\n"
	  "the total grows by more than PCT points" },
	{ "fail-if-total-grows", O_FAIL_TOTAL, "PCT", "--diff: the same for the inclusive share" },
	{ NULL, 0, NULL, NULL }
};

static int nonneg(const char *a, double *v)
{
	return cliopt_real(a, v) < 0 || *v < 0 ? -1 : 0;
}

static int set_range(struct flame_opts *f, int key, const char *a)
{
	struct filter *fl = &f->c.filter;

	if (key == O_BEGIN) {
		fl->has_begin = 1;
		return cliopt_real(a, &fl->begin);
	}
	fl->has_end = 1;
	return cliopt_real(a, &fl->end);
}

/* --to NAME: the SVG and collapsed stacks are flame's own outputs; the
 * other rows are written by their format's writer. */
static int set_to(struct flame_opts *f, const char *a, char *err, size_t errlen)
{
	const struct flame_export *e = flame_export_find(a);
	char names[256];

	if (!e) {
		flame_export_names(names, sizeof(names));
		snprintf(err, errlen, "unknown --to '%s' (known: %s)", a, names);
		return -1;
	}
	f->collapsed = strcmp(e->name, "collapsed") == 0;
	f->to = (e->save || e->convert) && !f->collapsed ? e : NULL;
	return 0;
}

static int set_own(void *ctx, int key, const char *a, char *err, size_t errlen)
{
	struct flame_opts *f = ctx;
	unsigned long long size;
	char names[1024];
	long n;

	switch (key) {
	case O_FORMAT:
		if ((f->c.format = format_find(a)))
			return 0;
		format_names(names, sizeof(names));
		snprintf(err, errlen, "unknown --format '%s' (known: %s)", a, names);
		return -1;
	case O_SUMMARY: f->summary = a; return 0;
	case O_FAIL_SELF: return nonneg(a, &f->fail_self);
	case O_FAIL_TOTAL: return nonneg(a, &f->fail_total);
	case O_SPLIT:
		f->split_by = !strcmp(a, "thread") ? SPLIT_THREAD : !strcmp(a, "process") ? SPLIT_PROCESS : SPLIT_NONE;
		return f->split_by == SPLIT_NONE ? -1 : 0;
	case O_TOP: return cliopt_long(a, 1, 1000000, &n) < 0 ? -1 : (f->top = (size_t)n, 0);
	case O_TOP_FUNCTIONS:
		return cliopt_long(a, 1, 1000000, &n) < 0 ? -1 : (f->top_functions = (size_t)n, 0);
	case O_PID: return cliopt_numbers(a, &f->pids, &f->c.filter.npid);
	case O_TID: return cliopt_numbers(a, &f->tids, &f->c.filter.ntid);
	case O_PROCESS: cliopt_names(a, &f->procs, &f->c.filter.nprocess); return 0;
	case O_BEGIN: case O_END: return set_range(f, key, a);
	case O_MAX_INFLATE: return cliopt_size(a, &size) < 0 ? -1 : (f->c.max_inflate = size, 0);
	case O_COLLAPSED: f->collapsed = 1; return 0;
	case O_TO: return set_to(f, a, err, errlen);
	case O_LIST_FORMATS: f->list_formats = 1; return 0;
	case O_DIFF: f->diff = 1; return 0;
	case O_CLASSIC: f->classic = 1; return 0;
	case O_NORMALIZE: f->normalize = 1; return 0;
	default: return -1;
	}
}

#define MAX_GROUPS 34	/* flame's own, the operators, the families */

/* flame's own options first: an option of its own (--pid N) is not the
 * format tools' option of the same name (stackcollapse-perf --pid). */
static size_t groups(struct flame_opts *f, struct cliopt_group *g)
{
	size_t i, n = 1;

	g[0] = (struct cliopt_group){ NULL, own, set_own, f };
	for (i = 0; format_families[i] && n < MAX_GROUPS; i++) {
		const struct cliopt_family *fam = format_families[i];

		g[n++] = (struct cliopt_group){ fam->title, fam->opts, fam->set, f->fopts[i] };
	}
	g[n++] = (struct cliopt_group){ stackops_family.title, stackops_family.opts,
					stackops_family.set, f->ops };
	return n;
}

/* Applies option a (with its value from argv at *i) to every group that
 * has it, flame's own alone when it has it.  Returns 1 when applied, 0
 * when no group has it, -1 with a message in err. */
static int apply(struct cliopt_group *g, size_t ng, char **argv, int argc, int *i, char *err,
		 size_t errlen)
{
	const char *a = argv[*i], *eq = strchr(a, '='), *val = NULL;
	size_t len = (eq ? (size_t)(eq - a) : strlen(a)) - 2, k, found = 0;

	for (k = 0; k < ng && !(found && k == 1); k++) {
		const struct cliopt *o = cliopt_find(&g[k], a + 2, len);

		if (!o)
			continue;
		if (o->arg && !val) {
			if (!eq && *i + 1 == argc) {
				snprintf(err, errlen, "option '--%s' needs a value", o->name);
				return -1;
			}
			val = eq ? eq + 1 : argv[++*i];
		}
		if (cliopt_set(&g[k], o, o->arg ? val : "", err, errlen) < 0)
			return -1;
		found = 1;
	}
	return found ? 1 : 0;
}

/* Takes flame's and the formats' options out of argv into f; the rest
 * go to f->argv for the renderer. */
static int take_own(struct flame_opts *f, int argc, char **argv, int *n, char *err, size_t errlen)
{
	struct cliopt_group g[MAX_GROUPS];
	size_t ng = groups(f, g);
	int i, r;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				f->argv[(*n)++] = argv[i++];
			break;
		}
		r = argv[i][0] == '-' && argv[i][1] == '-' ? apply(g, ng, argv, argc, &i, err, errlen) : 0;
		if (r < 0)
			return -1;
		if (r == 0)
			f->argv[(*n)++] = argv[i];
	}
	return 0;
}

/* Each family's options, empty (flame_opts_release frees them). */
static void families_init(struct flame_opts *f)
{
	size_t i;

	for (i = 0; format_families[i] && i < sizeof(f->fopts) / sizeof(f->fopts[0]); i++) {
		f->fopts[i] = xcalloc(1, format_families[i]->size);
		if (format_families[i]->init)
			format_families[i]->init(f->fopts[i]);
	}
}

/* flame's --threads (an option of perf's family) is pprof's too, when
 * given: one option for the worker threads of every input. */
static void share_threads(struct flame_opts *f)
{
	const struct perf_cli *perf = NULL;
	struct pprof_opts *pprof = NULL;
	size_t i;

	for (i = 0; format_families[i] && f->fopts[i]; i++) {
		if (format_families[i] == &perf_cli_family)
			perf = f->fopts[i];
		if (format_families[i] == &pprof_cli_family)
			pprof = f->fopts[i];
	}
	if (perf && pprof && perf->run.threads)
		pprof->threads = perf->run.threads > 64 ? 64 : perf->run.threads;
}

/* After the options: the filter lists and each family's options into c. */
static void ready(struct flame_opts *f)
{
	size_t i;

	share_threads(f);
	for (i = 0; format_families[i] && f->fopts[i]; i++)
		if (format_families[i]->ready)
			format_families[i]->ready(f->fopts[i]);
	f->c.fopts = f->fopts;
	f->c.filter.pid = f->pids;
	f->c.filter.tid = f->tids;
	f->c.filter.process = (const char *const *)(void *)f->procs;
	/* perf roots carry both numbers when splitting: a process is told by
	 * its PID (its threads may have other names), a thread by its TID. */
	f->c.split_roots = f->split_by != SPLIT_NONE;
}

static const char *check(const struct flame_opts *f, int operands)
{
	int i, dashes;

	for (i = dashes = 0; i < f->ninputs; i++)
		dashes += strcmp(f->inputs[i], "-") == 0;
	if (dashes > 1)
		return "stdin ('-') can be read only once";
	if (f->diff && f->ninputs != 2)
		return "--diff needs two inputs, BEFORE and AFTER";
	if (!f->diff && (f->fail_self >= 0 || f->fail_total >= 0 || f->classic || f->normalize))
		return "--fail-if-*, --classic-diff and --normalize go with --diff";
	if (f->split_by && (!f->fg.output || f->diff || f->collapsed || f->to))
		return "--split-by needs -o DIR (and no --diff, --collapsed or --to)";
	if (f->to && (f->diff || f->fg.flamechart))
		return "--to writes one profile: not with --diff or --flamechart";
	if (f->to && f->to->convert && (stackops_count(f->ops) || filter_has_ids(&f->c.filter) ||
					 filter_has_time(&f->c.filter)))
		return "--to lnt is made from the recording itself: no stack operators or filters";
	if (f->fg.flamechart && stackops_count(f->ops))
		return "stack operators do not go with --flamechart (not yet)";
	if (!operands && isatty(0))	/* would wait for typing */
		return "no input: name a profile, or pipe one in";
	return NULL;
}

int flame_opts_parse(struct flame_opts *f, int argc, char **argv, char *err, size_t errlen)
{
	static const char *const dash[] = { "-" };
	const char *bad;
	int n = 1, first;

	memset(f, 0, sizeof(*f));
	families_init(f);
	f->ops = xcalloc(1, stackops_family.size);
	f->fail_self = f->fail_total = -1;
	f->top = 1;
	f->argv = xcalloc((size_t)argc + 1, sizeof(*f->argv));
	f->argv[0] = argv[0];
	fgopt_init(&f->fg);
	if (take_own(f, argc, argv, &n, err, errlen) < 0 ||
	    fgopt_parse(&f->fg, n, f->argv, &first, err, errlen) < 0)
		return FL_USAGE;
	if (f->fg.help || f->fg.version)
		return f->fg.help ? FL_HELP : FL_VERSION;
	if (f->list_formats)
		return FL_LIST;
	f->inputs = first < n ? (const char *const *)f->argv + first : dash;
	f->ninputs = first < n ? n - first : 1;
	ready(f);
	if (!(bad = check(f, first < n)))
		return FL_RUN;
	snprintf(err, errlen, "%s", bad);
	return FL_USAGE;
}

void flame_opts_release(struct flame_opts *f)
{
	size_t i;

	for (i = 0; format_families[i] && f->fopts[i]; i++) {
		if (format_families[i]->release)
			format_families[i]->release(f->fopts[i]);
		free(f->fopts[i]);
		f->fopts[i] = NULL;
	}
	for (i = 0; i < f->c.filter.nprocess; i++)
		free(f->procs[i]);
	free(f->procs);
	if (f->ops)
		stackops_family.release(f->ops);
	free(f->ops);
	f->ops = NULL;
	free(f->pids);
	free(f->tids);
	free(f->argv);
	f->procs = NULL;
	f->pids = f->tids = NULL;
	f->argv = NULL;
}

static void help(struct flame_opts *f, const char *prog)
{
	struct cliopt_group g[MAX_GROUPS];
	size_t ng = groups(f, g);
	char names[1024];

	format_names(names, sizeof(names));
	printf("Usage: %s [options] INPUT... [-o OUT.svg]\n"
"       %s --diff BEFORE AFTER [-o diff.svg] [--summary S.json] [--fail-if-...]\n"
"       %s record [options] [--call-graph fp|dwarf] [--freq HZ] -- COMMAND [ARGS...]\n"
"Draws a flame graph from any supported profile, its format told from its\n"
"content: %s\n"
"(also gzipped or zipped).  Several inputs are merged.\n"
"\n", prog, prog, prog, names);
	cliopt_help(stdout, g, ng, "");
	printf("\nEvery flamegraph option is accepted too (--title, --width, --colors,\n"
	       "--minwidth, --inverted, --flamechart, --negate, -o FILE, ...):\n\n");
	fgopt_options(stdout);
	printf("\nflame record runs COMMAND under 'perf record' (frame pointers, or DWARF\n"
	       "with --call-graph dwarf; --freq samples per second, default 997) and\n"
	       "draws the recording to flame.svg, or to -o FILE.\n");
	printf("\nExit status: 0 graph written (skipped rows are warnings), 1 an input\n"
	       "could not be read through or an I/O error, 2 usage error or\n"
	       "no samples, 3 a --fail-if threshold was passed.\n");
}

int flame_opts_exit(struct flame_opts *f, int result, const char *prog, const char *err)
{
	int rc;

	if (result == FL_VERSION) {
		rc = cliopt_version(prog);
	} else if (result == FL_LIST) {
		const struct format *fmt;

		for (fmt = formats; fmt->name; fmt++)
			printf("%s\t%s\n", fmt->name, fmt->what);
		rc = cliopt_stdout_status();
	} else if (result == FL_HELP) {
		help(f, prog);
		rc = cliopt_stdout_status();
	} else {
		rc = cliopt_usage(prog, err);
	}
	flame_opts_release(f);
	return rc;
}
