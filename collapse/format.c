/* format: the table of formats, and detection over it.
 *
 * Adding a format: write its folder's NAME_format.c (sniff and run, and
 * a family if it has options), add its row below and its family to
 * format_families, its tests and its fuzz target.  Nothing else. */
#include "format.h"
#include "bytes.h"
#include "chrome.h"
#include "bpftrace.h"
#include "dtrace.h"
#include "dtrace_cli.h"
#include "etw_cli.h"
#include "etl_format.h"
#include "etw_format.h"
#include "folded_format.h"
#include "gdb.h"
#include "ghcprof.h"
#include "ghcprof_cli.h"
#include "instruments.h"
#include "jstack.h"
#include "jstack_cli.h"
#include "lnt_cli.h"
#include "lnt_format.h"
#include "perf_cli.h"
#include "perf_format.h"
#include "perfdata_format.h"
#include "jfr_format.h"
#include "pprof_cli.h"
#include "pprof_format.h"
#include "pv_format.h"
#include "sample.h"
#include "sample_cli.h"
#include "speedscope.h"
#include "vsp_cli.h"
#include "vsp_format.h"
#include "vtune.h"
#include "vtune_cli.h"
#include "xctrace.h"
/* issue 20: the rest of FlameGraph's collapsers */
#include "stap.h"
#include "elfutils.h"
#include "aix.h"
#include "pmc.h"
#include "faulthandler.h"
#include "wcp.h"
#include "ljp.h"
#include "javaexc.h"
#include "ibmjava.h"
#include "goraw.h"
#include "vtunemc.h"
#include "xdebug.h"
#include "perfsched.h"

#include <stdio.h>
#include <string.h>

const struct format formats[] = {
	{ "perf", "perf script text", perf_sniff, perf_collect, &perf_cli_family,
	  FILTER_IDS | FILTER_TIME, 0 },
	{ "perf.data", "perf record's binary recording", perfdata_fmt_sniff, perfdata_collect,
	  &perf_cli_family, FILTER_IDS | FILTER_TIME, 0 },
	{ "wpa-csv", "wpaexporter CPU sampling CSV (ETW)", wpa_sniff, etw_collect, &etw_cli_family,
	  FILTER_IDS | FILTER_TIME, 0 },
	{ "xperf-dumper", "xperf -a dumper text (ETW)", dumper_sniff, etw_collect, &etw_cli_family,
	  FILTER_IDS | FILTER_TIME, 0 },
	{ "etl", "Windows ETW trace file (.etl)", etl_format_sniff, etl_collect, &etw_cli_family,
	  FILTER_IDS | FILTER_TIME, 0 },
	{ "vs-calltree", "Visual Studio CallTreeSummary CSV", vsp_tree_sniff, vsp_collect,
	  &vsp_cli_family, 0, 0 },
	{ "vs-callercallee", "Visual Studio CallerCalleeSummary CSV", vsp_caller_sniff,
	  vsp_collect, &vsp_cli_family, 0, 0 },
	{ "speedscope", "speedscope JSON (sampled and evented profiles)", speedscope_sniff,
	  speedscope_collect, NULL, 0, 0 },
	{ "cpuprofile", "Chrome DevTools or node .cpuprofile (JavaScript)", cpuprofile_sniff,
	  cpuprofile_collect, NULL, 0, 0 },
	{ "chrome-trace", "Chrome trace-event JSON (X, B, E events; sampled profiles)", trace_sniff, trace_collect,
	  NULL, 0, 0 },
	{ "perfview-json", "PerfView stack JSON", pv_json_sniff, pv_collect, NULL, FILTER_TIME,
	  PV_KIND_JSON },
	{ "perfview-xml", "PerfView stack XML", pv_xml_sniff, pv_collect, NULL, FILTER_TIME,
	  PV_KIND_XML },
	{ "dtrace", "DTrace stack aggregations (stack(), ustack())", dtrace_sniff, dtrace_collect,
	  &dtrace_cli_family, 0, 0 },
	{ "sample", "macOS sample report", sample_sniff, sample_collect, &sample_cli_family, 0, 0 },
	{ "vtune", "Intel VTune top-down CSV", vtune_sniff, vtune_collect, &vtune_cli_family, 0, 0 },
	{ "ghcprof", "GHC profiling report (.prof)", ghcprof_sniff, ghcprof_collect,
	  &ghcprof_cli_family, 0, 0 },
	{ "xctrace", "xctrace export XML (Instruments time profile)", xctrace_sniff, xctrace_collect,
	  NULL, 0, 0 },
	{ "instruments", "Instruments call tree text export", instruments_sniff,
	  instruments_collect, NULL, 0, 0 },
	{ "bpftrace", "bpftrace maps of stacks (@[kstack] = count())", bpftrace_sniff,
	  bpftrace_collect, NULL, 0, 0 },
	{ "jstack", "Java thread dumps (jstack)", jstack_sniff, jstack_collect, &jstack_cli_family,
	  0, 0 },
	{ "gdb", "gdb backtraces (thread apply all bt)", gdb_sniff, gdb_collect, NULL, 0, 0 },
	/* issue 20: the rest of FlameGraph's collapsers */
	{ "stap", "SystemTap stack counts (print_stack, then the count)", stap_sniff, stap_collect,
	  NULL, 0, 0 },
	{ "elfutils", "eu-stack backtraces (elfutils)", elfutils_sniff, elfutils_collect,
	  &elfutils_cli_family, 0, 0 },
	{ "aix", "AIX procstack output", aix_sniff, aix_collect, NULL, 0, 0 },
	{ "pmc", "FreeBSD pmcstat -G callgraph", pmc_sniff, pmc_collect, NULL, 0, 0 },
	{ "faulthandler", "Python faulthandler dumps", faulthandler_sniff, faulthandler_collect, NULL, 0, 0 },
	{ "wcp", "wcp (wall-clock profiler) report", wcp_sniff, wcp_collect, NULL, 0, 0 },
	{ "ljp", "lightweight-java-profiler traces", ljp_sniff, ljp_collect, NULL, 0, 0 },
	{ "java-exceptions", "Java exception stack traces", javaexc_sniff, javaexc_collect,
	  &javaexc_cli_family, 0, 0 },
	{ "ibmjava", "IBM Java javacore thread dumps", ibmjava_sniff, ibmjava_collect,
	  &jstack_cli_family, 0, 0 },
	{ "go", "go tool pprof -raw text", goraw_sniff, goraw_collect, NULL, 0, 0 },
	{ "vtune-mc", "Intel VTune memory-consumption top-down CSV", vtunemc_sniff, vtunemc_collect,
	  &vtunemc_cli_family, 0, 0 },
	{ "xdebug", "PHP Xdebug function trace (trace_format=1)", xdebug_sniff, xdebug_collect,
	  &xdebug_cli_family, 0, 0 },
	{ "perf-sched", "perf script of scheduler events (off-CPU time)", perfsched_sniff,
	  perfsched_collect, &perfsched_cli_family, 0, 0 },
	{ "lnt", "LLVM LNT profile (v1 or v2)", lnt_format_sniff, lnt_collect, &lnt_cli_family, 0, 0 },
	{ "pprof", "pprof profile (profile.proto, gzipped or not)", pprof_fmt_sniff, pprof_collect,
	  &pprof_cli_family, 0, 0 },
	{ "jfr", "Java Flight Recorder recording (.jfr)", jfr_fmt_sniff, jfr_collect, NULL, 0, 0 },
	{ "collapsed", "collapsed stacks (flamegraph.pl's input)", folded_sniff, folded_collect,
	  NULL, 0, 0 },
	{ NULL, NULL, NULL, NULL, NULL, 0, 0 }
};

const struct cliopt_family *const format_families[] = {
	&perf_cli_family, &etw_cli_family, &vsp_cli_family, &dtrace_cli_family, &sample_cli_family,
	&vtune_cli_family, &ghcprof_cli_family, &jstack_cli_family, &lnt_cli_family,
	/* issue 20: the rest of FlameGraph's collapsers */
	&elfutils_cli_family, &javaexc_cli_family,
	&vtunemc_cli_family, &xdebug_cli_family,
	&perfsched_cli_family, &pprof_cli_family, NULL
};

const struct format *format_detect(const char *head, size_t len)
{
	const struct format *f, *best = NULL;
	int score, top = 0;

	for (f = formats; f->name; f++)
		if ((score = f->sniff(head, len)) > top) {
			top = score;
			best = f;
		}
	return best;
}

const struct format *format_find(const char *name)
{
	const struct format *f;

	for (f = formats; f->name; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

void format_names(char *buf, size_t cap)
{
	const struct format *f;
	size_t n = 0;

	buf[0] = '\0';
	for (f = formats; f->name && n < cap; f++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%s", f == formats ? "" : ", ", f->name);
}

size_t format_family_index(const struct cliopt_family *fam)
{
	size_t i;

	for (i = 0; format_families[i] && format_families[i] != fam; i++)
		;
	return i;
}

int format_next_line(const char **p, const char *end, const char **s, size_t *n)
{
	const char *nl;

	if (*p >= end)
		return 0;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*s = *p;
	*n = (size_t)((nl ? nl : end) - *p);
	if (*n && (*s)[*n - 1] == '\r')
		(*n)--;
	*p = nl ? nl + 1 : end;
	return 1;
}

int format_first_line(const char *head, size_t len, const char **s, size_t *n)
{
	const char *p = head, *end = head + len;

	while (format_next_line(&p, end, s, n))
		if (*n && (*s)[0] != '#')
			return 1;
	return 0;
}

const char *format_hint(const char *head, size_t len)
{
	if (len >= 8 && memcmp(head, "Nettrace", 8) == 0)
		return "a .nettrace file: open it in PerfView and save the stacks as .PerfView.xml.zip";
	if (len >= 4 && memcmp(head, "\x89PNG", 4) == 0)
		return "a PNG image, not a profile";
	if (bytes_contains(head, len < 1024 ? len : 1024, "<svg"))
		return "an SVG image already, not a profile";
	return NULL;
}
