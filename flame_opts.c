/* flame_opts: flame's own options are taken out of argv; what is left
 * goes to the renderer's parser, so every flamegraph.pl option works. */
#include "flame_opts.h"
#include "cliopt.h"
#include "perfview_cli.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { O_FORMAT, O_COLLAPSED, O_DIFF, O_SUMMARY, O_FAIL_SELF, O_FAIL_TOTAL, O_SPLIT, O_TOP,
       O_PID, O_TID, O_PROCESS, O_BEGIN, O_END, O_MAX_INFLATE, O_THREADS, O_CLASSIC, O_NORMALIZE,
       O_EVENT, O_N };

static const struct { const char *name; int arg; } own[O_N] = {
	{ "format", 1 }, { "collapsed", 0 }, { "diff", 0 }, { "summary", 1 },
	{ "fail-if-self-grows", 1 }, { "fail-if-total-grows", 1 }, { "split-by", 1 }, { "top", 1 },
	{ "pid", 1 }, { "tid", 1 }, { "process", 1 }, { "begin", 1 }, { "end", 1 },
	{ "max-inflate", 1 }, { "threads", 1 }, { "classic-diff", 0 },
	{ "normalize", 0 }, { "event-filter", 1 },
};


static int number(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return *s && !*end && isfinite(*v) ? 0 : -1;
}

static int value(struct flame_opts *f, int k, const char *a)
{
	unsigned long long size;
	double d;

	switch (k) {
	case O_FORMAT: return (f->c.format = detect_parse(a)) == FMT_UNKNOWN ? -1 : 0;
	case O_SUMMARY: f->summary = a; return 0;
	case O_EVENT: f->c.perf.event_filter = a; return 0;
	case O_FAIL_SELF: return number(a, &f->fail_self) < 0 || f->fail_self < 0 ? -1 : 0;
	case O_FAIL_TOTAL: return number(a, &f->fail_total) < 0 || f->fail_total < 0 ? -1 : 0;
	case O_SPLIT:
		f->split_by = !strcmp(a, "thread") ? SPLIT_THREAD : !strcmp(a, "process") ? SPLIT_PROCESS : SPLIT_NONE;
		return f->split_by == SPLIT_NONE ? -1 : 0;
	case O_TOP: return number(a, &d) < 0 || d < 1 || d != floor(d) ? -1 : (f->top = (size_t)d, 0);
	case O_PID: return cliopt_numbers(a, &f->pids, &f->c.etw.npid);
	case O_TID: return cliopt_numbers(a, &f->tids, &f->c.etw.ntid);
	case O_PROCESS: cliopt_names(a, &f->procs, &f->c.etw.nprocess); return 0;
	case O_BEGIN: f->c.has_begin = f->c.etw.has_begin = 1; return number(a, &f->c.begin);
	case O_END: f->c.has_end = f->c.etw.has_end = 1; return number(a, &f->c.end);
	case O_MAX_INFLATE: return pv_cli_size(a, &size) < 0 ? -1 : (f->c.max_inflate = size, 0);
	case O_THREADS: return number(a, &d) < 0 || d < 1 || d > 1024 ? -1 : (f->c.threads = (int)d, 0);
	default:
		f->collapsed |= k == O_COLLAPSED;
		f->diff |= k == O_DIFF;
		f->classic |= k == O_CLASSIC;
		f->normalize |= k == O_NORMALIZE;
		return 0;
	}
}

/* Takes flame's own options out of argv into f; the rest go to f->argv. */
static int take_own(struct flame_opts *f, int argc, char **argv, int *n, char *err, size_t errlen)
{
	int i, k;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq;
		size_t len;

		if (strcmp(a, "--") == 0) {
			while (i < argc)
				f->argv[(*n)++] = argv[i++];
			break;
		}
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a) : strlen(a);
		for (k = 0; k < O_N && !(a[0] == '-' && a[1] == '-' && len - 2 == strlen(own[k].name) &&
					  !memcmp(a + 2, own[k].name, len - 2)); k++)
			;
		if (k == O_N) {
			f->argv[(*n)++] = argv[i];
			continue;
		}
		if (own[k].arg && !eq && i + 1 == argc) {
			snprintf(err, errlen, "option '--%s' needs a value", own[k].name);
			return -1;
		}
		if (value(f, k, own[k].arg ? (eq ? eq + 1 : argv[++i]) : "") < 0) {
			snprintf(err, errlen, k == O_FORMAT ? "unknown --format '%s' (known: %s)"
				 : "invalid value '%s' for --%s", own[k].arg ? (eq ? eq + 1 : argv[i]) : "",
				 k == O_FORMAT ? detect_names() : own[k].name);
			return -1;
		}
	}
	return 0;
}

int flame_opts_parse(struct flame_opts *f, int argc, char **argv, char *err, size_t errlen)
{
	static const char *const dash[] = { "-" };
	int n = 1, first, i, dashes;

	memset(f, 0, sizeof(*f));
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
	f->inputs = first < n ? (const char *const *)f->argv + first : dash;
	f->ninputs = first < n ? n - first : 1;
	f->c.etw.process = (const char *const *)(void *)f->procs;
	f->c.etw.pid = f->pids;
	f->c.etw.tid = f->tids;
	f->c.etw.begin = f->c.begin;
	f->c.etw.end = f->c.end;
	/* perf roots carry both numbers when splitting: a process is told by
	 * its PID (its threads may have other names), a thread by its TID. */
	if (f->split_by)
		f->c.perf.tid = f->c.perf.pid = 1;
	for (i = dashes = 0; i < f->ninputs; i++)
		dashes += strcmp(f->inputs[i], "-") == 0;
	if (dashes > 1)
		snprintf(err, errlen, "stdin ('-') can be read only once");
	else if (f->diff && f->ninputs != 2)
		snprintf(err, errlen, "--diff needs two inputs, BEFORE and AFTER");
	else if (!f->diff && (f->summary || f->fail_self >= 0 || f->fail_total >= 0 || f->classic ||
			      f->normalize))
		snprintf(err, errlen, "--summary, --fail-if-*, --classic-diff and --normalize go with --diff");
	else if (f->split_by && (!f->fg.output || f->diff || f->collapsed))
		snprintf(err, errlen, "--split-by needs -o DIR (and no --diff or --collapsed)");
	else if (first >= n && isatty(0))	/* would wait for typing */
		snprintf(err, errlen, "no input: name a profile, or pipe one in");
	else
		return FL_RUN;
	return FL_USAGE;
}

void flame_opts_release(struct flame_opts *f)
{
	size_t i;

	for (i = 0; i < f->c.etw.nprocess; i++)
		free(f->procs[i]);
	free(f->procs);
	free(f->pids);
	free(f->tids);
	free(f->argv);
	f->procs = NULL;
	f->pids = f->tids = NULL;
	f->argv = NULL;
}

int flame_opts_exit(struct flame_opts *f, int result, const char *prog, const char *err)
{
	int rc = 0;

	if (result == FL_VERSION) {
		printf("%s (flame) %s\n", prog, FLAME_VERSION);
	} else if (result == FL_HELP) {
		printf("Usage: %s [options] INPUT... [-o OUT.svg]\n"
"       %s --diff BEFORE AFTER [-o diff.svg] [--summary S.json] [--fail-if-...]\n"
"Draws a flame graph from any supported profile, its format told from its\n"
"content: %s\n"
"(also gzipped or zipped).  Several inputs are merged.\n"
"\n"
"  --format NAME             do not detect: read every input as NAME\n"
"  --collapsed               write collapsed stacks instead of SVG\n"
"  --pid N,.. --tid N,.. --process NAME,..   ETW and perf inputs: keep\n"
"                            these (ETW names: any case, .exe optional)\n"
"  --begin T --end T         ETW and perf: seconds; PerfView: ms\n"
"  --threads N               perf: worker threads (default: all cores)\n"
"  --event-filter EV         perf: keep events EV (default: the first seen)\n"
"  --max-inflate SIZE        refuse zip members larger than SIZE (4G)\n"
"  --split-by thread|process --top N -o DIR\n"
"                            one SVG per busiest thread or process, listed\n"
"  --diff BEFORE AFTER       differential graph: widths from AFTER, red\n"
"                            grew, blue shrank (--negate swaps); stacks gone\n"
"                            from AFTER drawn hatched with their BEFORE width;\n"
"                            tooltips give each frame's before/after/change\n"
"  --classic-diff            --diff: exactly difffolded | flamegraph\n"
"  --normalize               --diff: scale BEFORE to AFTER's total first\n"
"  --summary FILE            --diff: top functions by inclusive and self\n"
"                            change, as JSON\n"
"  --fail-if-self-grows PCT  --diff: exit 3 when a function's self share of\n"
"  --fail-if-total-grows PCT the total grows by more than PCT points\n"
"                            (inclusive share for -total-)\n"
"\n"
"Every flamegraph option is accepted too (--title, --width, --colors,\n"
"--minwidth, --inverted, --flamechart, --negate, -o FILE, ...):\n\n", prog, prog,
		       detect_names());
		fgopt_options(stdout);
		printf("\nExit status: 0 graph written (skipped rows are warnings), 1 an input\n"
		       "could not be read through or an I/O error, 2 usage error or\n"
		       "no samples, 3 a --fail-if threshold was passed.\n");
	} else {
		fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", prog, err, prog);
		rc = 2;
	}
	flame_opts_release(f);
	if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
		rc = 1;
	return rc;
}
