/* Unit tests for the format table and the shared command line: every row
 * complete, names unique, detection of a sample of each format, option
 * names meaning the same (flag or value) in every family that has them,
 * and cliopt's parsing and numbers. */
#include "check.h"
#include "cliopt.h"
#include "format.h"

#include <string.h>
#include <zlib.h>

static void rows_complete(void)
{
	const struct format *f, *g;
	size_t n = 0;
	char names[1024];

	for (f = formats; f->name; f++, n++) {
		CHECK(f->what && f->sniff && f->run);
		CHECK(format_find(f->name) == f);
		for (g = f + 1; g->name; g++)
			CHECK(strcmp(f->name, g->name) != 0);
		CHECK(!f->family || format_families[format_family_index(f->family)] == f->family);
	}
	CHECK(n >= 8);
	CHECK(format_find("no-such-format") == NULL);
	format_names(names, sizeof(names));
	CHECK(strncmp(names, "perf, perf.data, wpa-csv, ", 26) == 0);
	CHECK(strstr(names, ", collapsed") != NULL);
}

static const char *detected(const char *text)
{
	const struct format *f = format_detect(text, strlen(text));

	return f ? f->name : "none";
}

/* An .etl's first buffer: its size, bytes used, then a SYSTEM64 event
 * marker (version 2, kind 2, 0xc0) at 72. */
static void etl_detection(void)
{
	char head[512];
	const struct format *f;

	memset(head, 0, sizeof(head));
	memcpy(head, "\x00\x02\x00\x00\xb8\x01\x00\x00", 8);
	memcpy(head + 72, "\x02\x00\x02\xc0", 4);
	f = format_detect(head, sizeof(head));
	CHECK_STR(f ? f->name : "none", "etl");
	head[75] = 0;		/* no event marker */
	f = format_detect(head, sizeof(head));
	CHECK(f == NULL || strcmp(f->name, "etl") != 0);
}

static void detection(void)
{
	CHECK_STR(detected("main;a;b 3\nmain;c 2\n"), "collapsed");
	CHECK_STR(detected("prog 123 [000] 1.000001: 1 cpu-clock:\n\tffff a (/bin/x)\n\n"), "perf");
	CHECK_STR(detected("Process,Thread ID,Stack,Weight\n"), "wpa-csv");
	CHECK_STR(detected("# note\nBeginHeader\nSampledProfile, TimeStamp\nEndHeader\n"), "xperf-dumper");
	CHECK_STR(detected("Level,Function Name,Inclusive Samples\n"), "vs-calltree");
	CHECK_STR(detected("Type,Function Name,Inclusive Samples\n"), "vs-callercallee");
	CHECK_STR(detected("  {\"StackSource\":{}}"), "perfview-json");
	CHECK_STR(detected("<StackWindow><StackSource>"), "perfview-xml");
	CHECK_STR(detected("CPU ID FUNCTION:NAME\n  0 1 :tick-60s\n\n\n  genunix`f+0x1\n  unix`g\n  3\n"),
		  "dtrace");
	CHECK_STR(detected("h\n\n  0xfffffffffb8001d6\n  1\n"), "dtrace");
	/* A perf sample's frames have no backquote: not DTrace. */
	CHECK_STR(detected("p 1 [0] 1.0: 1 cycles:\n\n\tffff f (/x)\n\n"), "perf");
	CHECK_STR(detected("Process: a [1]\n\nCall graph:\n    12 Thread_1\n    + 12 main  (in a)\n"),
		  "sample");
	CHECK_STR(detected("Function Stack,CPU Time:Self,Module\nTotal,0.0,[Unknown]\n"), "vtune");
	CHECK_STR(detected("\tReport\n\nCOST CENTRE MODULE SRC no. entries %time %alloc %time %alloc\n"),
		  "ghcprof");
	CHECK_STR(detected("<?xml version=\"1.0\"?>\n<trace-query-result>\n<node>"), "xctrace");
	CHECK_STR(detected("Running Time\tSelf (ms)\t\tSymbol Name\n1.0 ms   100.0%\t1.0 ms\t \tmain\n"),
		  "instruments");
	CHECK_STR(detected("Attaching 1 probe...\n\n@[\n    f+1\n    g+2\n]: 3\n"), "bpftrace");
	CHECK_STR(detected("Full thread dump OpenJDK:\n\n\"main\" #1\n   java.lang.Thread.State: RUNNABLE\n"),
		  "jstack");
	CHECK_STR(detected("Thread 1 (Thread 0x7f (LWP 1) \"a\"):\n#0  0x1 in f () at a.c:1\n#1  0x2 in main () at a.c:2\n"),
		  "gdb");
	/* issue 20: the rest of FlameGraph's collapsers */
	CHECK_STR(detected(" 0xffffffff8101 : schedule+0x0/0x60 [kernel]\n 0x4005a0 : main+0x1/0x2 [x]\n\t12\n"),
		  "stap");
	CHECK_STR(detected("PID 31 - process\nTID 31:\n#0  0x00007f9b7dfe7df2 pause\n#1  0x000055bb0c5db1f4 main\n"),
		  "elfutils");
	CHECK_STR(detected("12: /usr/bin/x\n---------- tid# 5 (pthread ID: 1) ----------\n0x0900  f(a, b) + 0x1\n"),
		  "aix");
	CHECK_STR(detected("31.24%  [653]      f @ /lib/x.so\n 100.0%  [653]       g\n"), "pmc");
	CHECK_STR(detected("Thread 0x7f5e (most recent call first):\n  File \"a.py\", line 3 in f\n"),
		  "faulthandler");
	CHECK_STR(detected("Top of stacks:\n\nFull stacks:\n\n60.00% ==== (6 samples)\n0: f\n"), "wcp");
	CHECK_STR(detected("5 3 java.lang.Object.wait(Native Method)\n\tcom.a.W.run(W.java:4)\n"), "ljp");
	CHECK_STR(detected("java.lang.IllegalStateException: x\n\tat com.a.P.take(P.java:8)\n"),
		  "java-exceptions");
	CHECK_STR(detected("0SECTION       TITLE subcomponent dump routine\n3XMTHREADINFO      \"main\"\n"),
		  "ibmjava");
	CHECK_STR(detected("PeriodType: cpu nanoseconds\nPeriod: 10000000\nSamples:\n"), "go");
	CHECK_STR(detected("\"Function Stack\",\"Allocation Size:Self\",\"Deallocation Size:Self\",\"Allocations:Self\",\"Module\"\n"),
		  "vtune-mc");
	CHECK_STR(detected("Version: 3.2.0\nTRACE START [2026-11-26 01:00:00]\n1\t0\t0\t0.1\t1\t{main}\n"),
		  "xdebug");
	CHECK_STR(detected("a 1 [0] 1.0: sched:sched_switch: prev_pid=1\n\na 1 [0] 2.0: sched:sched_stat_sleep: comm=a pid=1 delay=5\n"),
		  "perf-sched");
	/* async-profiler's collapsed output is collapsed stacks */
	CHECK_STR(detected("java/lang/Thread.run;com/a/Worker.run_[j];Unsafe_Park_[k] 12\nall;f_[i] 3\n"),
		  "collapsed");
	CHECK_STR(detected("{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\"}"),
		  "speedscope");
	CHECK_STR(detected("{\"profiles\": [], \"shared\": {\"frames\": []}}"), "speedscope");
	CHECK_STR(detected("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"}}]}"),
		  "cpuprofile");
	CHECK_STR(detected("{\"head\":{\"functionName\":\"(root)\",\"children\":[]}}"), "cpuprofile");
	CHECK_STR(detected(" [{\"pid\":1,\"tid\":1,\"ph\":\"X\",\"ts\":1,\"dur\":2}]"), "chrome-trace");
	CHECK_STR(detected("{\"traceEvents\": [], \"nodes\": [{\"callFrame\": {}}]}"), "chrome-trace");
	/* A PerfView file names none of these. */
	CHECK_STR(detected("{\"Samples\":[{\"Stack\":[\"a\"]}]}"), "perfview-json");
	CHECK_STR(detected(""), "none");
	CHECK_STR(detected("hello\nworld\n"), "none");
	CHECK_STR(detected("PERFILE2xxxxxxxx"), "perf.data");
	CHECK_STR(detected("2ELIFREPxxxxxxxx"), "perf.data");
	CHECK(format_hint("PERFILE2xxxxxxxx", 16) == NULL);
	CHECK(format_hint("Nettrace", 8) != NULL);
	etl_detection();
}

/* LNT profiles are binary: v2 by its chained section table, v1 by zlib
 * data that inflates to a pickle. */
static void lnt_detection(void)
{
	/* Sections at 0/4, 4/3, 7/1, then four empty (the pool's with an
	 * empty file name), the functions at 8/1. */
	unsigned char v2[] = { 2, 0, 4, 4, 3, 7, 1, 8, 0, 8, 0, 8, 0, 8, 0, '\n', 8, 1,
			       'r', 'a', 'w', '\n', 1, 'c', '\n', 0, 0 };
	static const char pk[] = "(dp0\nS'functions'\n(dss.", text[] = "hello, world";
	unsigned char z[128];
	uLongf zn = sizeof(z);
	const struct format *f = format_detect((const char *)v2, sizeof(v2));

	CHECK_STR(f ? f->name : "none", "lnt");
	v2[3] = 5;	/* the names no longer follow the header */
	f = format_detect((const char *)v2, sizeof(v2));
	CHECK(!f || strcmp(f->name, "lnt") != 0);
	CHECK(compress(z, &zn, (const Bytef *)pk, sizeof(pk) - 1) == Z_OK);
	f = format_detect((const char *)z, zn);
	CHECK_STR(f ? f->name : "none", "lnt");
	zn = sizeof(z);
	CHECK(compress(z, &zn, (const Bytef *)text, sizeof(text) - 1) == Z_OK);
	f = format_detect((const char *)z, zn);
	CHECK(!f || strcmp(f->name, "lnt") != 0);
}

/* pprof profiles are protobuf: told by Profile's fields and the shape of
 * its first message, in whatever order the fields come. */
static void pprof_detection(void)
{
	/* time_nanos (9) first, as Go writes it, then a sample type {1, 2}
	 * and a string. */
	static const unsigned char go[] = { 0x48, 0x96, 0x01, 0x0a, 0x04, 0x08, 0x01, 0x10, 0x02,
					    0x32, 0x00, 0x32, 0x03, 'c', 'p', 'u' };
	/* A mapping first {id 1, start 0x400000}, as older Go wrote. */
	static const unsigned char old[] = { 0x1a, 0x06, 0x08, 0x01, 0x10, 0x80, 0x80, 0x01 };
	/* A sample type holding a string where a varint goes. */
	static const unsigned char bad[] = { 0x0a, 0x03, 0x0a, 0x01, 'x', 0x32, 0x00 };
	const struct format *f = format_detect((const char *)go, sizeof(go));

	CHECK_STR(f ? f->name : "none", "pprof");
	f = format_detect((const char *)old, sizeof(old));
	CHECK_STR(f ? f->name : "none", "pprof");
	f = format_detect((const char *)bad, sizeof(bad));
	CHECK(!f || strcmp(f->name, "pprof") != 0);
	/* A field cut by the end of the head is no fault. */
	f = format_detect((const char *)go, sizeof(go) - 2);
	CHECK_STR(f ? f->name : "none", "pprof");
	CHECK_STR(detected("\nhello\n"), "none");
	CHECK_STR(detected("H\x01\n\x02\x08\x01 text"), "none");
}

/* An option named in two families must take a value in both or neither
 * (flame gives it to both). */
static void families_agree(void)
{
	size_t i, k;
	const struct cliopt *a, *b;

	for (i = 0; format_families[i]; i++)
		for (k = i + 1; format_families[k]; k++)
			for (a = format_families[i]->opts; a->name; a++)
				for (b = format_families[k]->opts; b->name; b++)
					if (strcmp(a->name, b->name) == 0)
						CHECK((a->arg == NULL) == (b->arg == NULL));
}

static int seen_flag, seen_n;
static const char *seen_s;

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	long n;

	(void)ctx;
	(void)err;
	(void)errlen;
	if (key == 'f')
		seen_flag++;
	else if (key == 300)
		seen_s = arg;
	else if (cliopt_long(arg, 1, 9, &n) < 0)
		return -1;
	else
		seen_n = (int)n;
	return 0;
}

static void parsing(void)
{
	static const struct cliopt opts[] = {
		{ "flag", 'f', NULL, "a flag" }, { "name", 300, "S", "a string" },
		{ "num", 301, "N", "1 to 9" }, { NULL, 0, NULL, NULL }
	};
	const struct cliopt_group g = { NULL, opts, set, NULL };
	char a0[] = "t", a1[] = "--flag", a2[] = "--name=x", a3[] = "--num", a4[] = "7", a5[] = "in";
	char b1[] = "--num", b2[] = "12", c1[] = "-h", d1[] = "--version", e1[] = "--bogus";
	char *good[] = { a0, a1, a2, a3, a4, a5, NULL };
	char *bad[] = { a0, b1, b2, NULL }, *help[] = { a0, c1, NULL }, *ver[] = { a0, d1, NULL };
	char *unknown[] = { a0, e1, NULL };
	char err[128];
	int first;

	CHECK(cliopt_parse(&g, 1, "", 0, 6, good, &first, err, sizeof(err)) == CLIOPT_RUN);
	CHECK(seen_flag == 1 && seen_n == 7 && seen_s && strcmp(seen_s, "x") == 0 && first == 5);
	CHECK(cliopt_parse(&g, 1, "", 0, 3, bad, &first, err, sizeof(err)) == CLIOPT_USAGE);
	CHECK_STR(err, "invalid value '12' for --num");
	CHECK(cliopt_parse(&g, 1, "", 0, 2, help, &first, err, sizeof(err)) == CLIOPT_SHOW_HELP);
	CHECK(cliopt_parse(&g, 1, "", 0, 2, ver, &first, err, sizeof(err)) == CLIOPT_SHOW_VERSION);
	CHECK(cliopt_parse(&g, 1, "", 0, 2, unknown, &first, err, sizeof(err)) == CLIOPT_USAGE);
	CHECK(strstr(err, "'--bogus'") != NULL);
}

static void numbers(void)
{
	unsigned long long sz;
	double d;
	long n;

	CHECK(cliopt_long("0", 0, 10, &n) == 0 && n == 0);
	CHECK(cliopt_long("2.5", 0, 10, &n) < 0);
	CHECK(cliopt_long("", 0, 10, &n) < 0);
	CHECK(cliopt_long("11", 0, 10, &n) < 0);
	CHECK(cliopt_real("2.5", &d) == 0 && d == 2.5);
	CHECK(cliopt_real("inf", &d) < 0 && cliopt_real(" 1", &d) < 0 && cliopt_real("1x", &d) < 0);
	CHECK(cliopt_size("4G", &sz) == 0 && sz == 4ull << 30);
	CHECK(cliopt_size("0", &sz) < 0 && cliopt_size("1Q", &sz) < 0);
}

int main(void)
{
	rows_complete();
	detection();
	lnt_detection();
	pprof_detection();
	families_agree();
	parsing();
	numbers();
	return check_done();
}
