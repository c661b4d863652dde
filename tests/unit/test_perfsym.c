/* Unit tests for the perf.data symbol resolver (collapse/perfdata/perfsym).
 * Names and addresses are checked against binutils (nm, readelf, objdump)
 * on programs built here with gcc and g++, in the layouts perf meets:
 * PIE, non-PIE, text at an offset other than its address, a stripped
 * binary with its symbols in a .gnu_debuglink file, in the build-id
 * cache, under --symfs /usr/lib/debug/.build-id, MiniDebugInfo,
 * compressed debug sections.  The kernel path runs on a made-up
 * kallsyms, the JIT path on a made-up perf-PID.map.
 *
 * With "--perf SCRIPT BUILDIDS" it instead checks every frame of
 * `perf script --show-mmap-events -F pid,ip,sym,dso` output against its
 * own lookup (tests/perfsym.sh). */
#include "check.h"
#include "demangle.h"
#include "kallsyms.h"
#include "perfsym.h"
#include "perfsym_file.h"
#include "perfsym_tab.h"

#include <stdarg.h>
#include <sys/auxv.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/perfsym-test-XXXXXX";
static int have_tools;

__attribute__((format(printf, 1, 2))) static int sh(const char *fmt, ...);
static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

struct fn {
	char name[256];		/* as perf shows it (nm -C without parameters) */
	uint64_t addr, size;	/* from nm -S */
};

/* Sized text symbols of bin, demangled by nm, parameters cut. */
static size_t nm_functions(const char *bin, struct fn *out, size_t max)
{
	char cmd[1024], line[1024];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm -S -C --defined-only %s", bin);
	if (!(p = popen(cmd, "r")))
		return 0;
	while (n < max && fgets(line, sizeof(line), p)) {
		unsigned long long a, s;
		char t, name[512], *paren;

		if (sscanf(line, "%llx %llx %c %511[^\n]", &a, &s, &t, name) != 4 || (t != 'T' && t != 't' && t != 'W'))
			continue;
		if ((paren = strchr(name, '(')) != NULL)
			*paren = '\0';
		snprintf(out[n].name, sizeof(out[n].name), "%.255s", name);
		out[n].addr = a, out[n].size = s;
		n++;
	}
	pclose(p);
	return n;
}

struct seg {
	uint64_t off, vaddr, memsz;	/* of an executable PT_LOAD, from readelf */
};

static size_t text_segments(const char *bin, struct seg *out, size_t max)
{
	char cmd[1024], line[1024];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -lW %s", bin);
	if (!(p = popen(cmd, "r")))
		return 0;
	while (n < max && fgets(line, sizeof(line), p)) {
		unsigned long long o, v, pa, fs, ms;

		if (sscanf(line, " LOAD %llx %llx %llx %llx %llx", &o, &v, &pa, &fs, &ms) == 5 &&
		    strstr(line, " E ")) {
			out[n].off = o, out[n].vaddr = v, out[n].memsz = ms;
			n++;
		}
	}
	pclose(p);
	return n;
}

/* The map a loader would make for the executable segment holding addr,
 * at load bias base. */
static int map_for(const struct seg *segs, size_t nseg, uint64_t addr, uint64_t base,
		   struct perfsym_map *m)
{
	size_t i;

	for (i = 0; i < nseg; i++)
		if (addr >= segs[i].vaddr && addr < segs[i].vaddr + segs[i].memsz) {
			m->start = base + (segs[i].vaddr & ~(uint64_t)0xfff);
			m->len = segs[i].memsz + (segs[i].vaddr & 0xfff);
			m->pgoff = segs[i].off & ~(uint64_t)0xfff;
			return 0;
		}
	return -1;
}

/* Looks up each function of truth (an unstripped build, for nm) named in
 * want, at its first, middle and last byte, through a map of runtime's
 * text at load bias base.  With found 0 every lookup must fail, as perf
 * prints [unknown]. */
static void check_names(const char *label, const char *truth, const char *runtime,
			const char *map_path, const struct perfsym_opts *o, uint64_t base,
			const char *const *want, int found, const uint8_t *bid, size_t bid_len)
{
	static struct fn fns[2048];
	struct seg segs[8];
	size_t nf = nm_functions(truth, fns, 2048), nseg = text_segments(runtime, segs, 8), i, w;
	struct perfsym *s = perfsym_new(o);

	for (w = 0; want[w]; w++) {
		int seen = 0;

		for (i = 0; i < nf; i++) {
			struct perfsym_map m = { map_path, 0, 0, 0, bid, bid_len, (uint32_t)getpid() };
			uint64_t k[3] = { 0, fns[i].size / 2, fns[i].size - 1 };
			int j;

			if (strcmp(fns[i].name, want[w]) != 0)
				continue;
			seen = 1;
			if (map_for(segs, nseg, fns[i].addr, base, &m) != 0) {
				printf("FAIL %s: %s at %llx is in no text segment\n", label, want[w],
				       (unsigned long long)fns[i].addr);
				check_fail++;
				continue;
			}
			for (j = 0; j < 3; j++) {
				uint64_t off = 99;
				const char *got = perfsym_lookup(s, &m, base + fns[i].addr + k[j], &off);
				int ok = found ? got && strcmp(got, want[w]) == 0 && off == k[j] : got == NULL;

				if (ok) {
					check_pass++;
					continue;
				}
				check_fail++;
				printf("FAIL %s: %s+%llu gave %s+%llu\n", label, want[w], (unsigned long long)k[j],
				       got ? got : "(null)", (unsigned long long)off);
			}
		}
		if (!seen) {
			printf("FAIL %s: nm shows no %s\n", label, want[w]);
			check_fail++;
		}
	}
	perfsym_free(s);
}

static int has_plt(const struct perfsym_tab *t, uint64_t a, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].start == a && (t->v[i].flags & PERFSYM_PLT) &&
		    strcmp(perfsym_tab_raw(t, &t->v[i]), name) == 0)
			return 1;
	return 0;
}

/* The NAME@plt entries objdump labels in bin's .plt, looked up through
 * its text map: each is named NAME@plt, or _init where perf's tree meets
 * the unsized _init (stretched over .plt, as the PLT entries are added
 * after) first; which of the two is checked against perf script in
 * tests/perfdata.sh.  Each must be in the file's table. */
static void check_plt(const char *label, const char *bin, uint64_t base)
{
	char cmd[1024], line[1024];
	struct seg segs[8];
	size_t nseg = text_segments(bin, segs, 8);
	struct perfsym *s = perfsym_new(&(struct perfsym_opts){ .buildid_dir = "" });
	int n = 0;
	struct perfsym_file f;
	FILE *p;

	CHECK(perfsym_file_load(&f, &(struct perfsym_opts){ .buildid_dir = "" }, bin, NULL, 0, NULL,
				NULL) == 0);

	snprintf(cmd, sizeof(cmd), "objdump -d -j .plt %s", bin);
	if (!(p = popen(cmd, "r")))
		return;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long a;
		char name[256];
		struct perfsym_map m = { bin, 0, 0, 0, NULL, 0, 1 };
		const char *got;
		uint64_t off;

		if (sscanf(line, "%llx <%255[^>]>:", &a, name) != 2 || !strstr(name, "@plt") || strchr(name, '-'))
			continue;
		n++;
		CHECK(map_for(segs, nseg, a, base, &m) == 0);
		got = perfsym_lookup(s, &m, base + a + 4, &off);
		if (((got && strcmp(got, name) == 0 && off == 4) || (got && strcmp(got, "_init") == 0)) &&
		    has_plt(&f.tab, a, name)) {
			check_pass++;
		} else {
			check_fail++;
			printf("FAIL %s: %s gave %s\n", label, name, got ? got : "(null)");
		}
	}
	pclose(p);
	if (n == 0) {
		printf("FAIL %s: objdump shows no PLT entries\n", label);
		check_fail++;
	}
	perfsym_file_release(&f);
	perfsym_free(s);
}

/* The build id readelf shows for bin, into id; returns its length. */
static size_t read_build_id(const char *bin, uint8_t *id, char *hex)
{
	char cmd[1024], line[1024];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -n %s", bin);
	if (!(p = popen(cmd, "r")))
		return 0;
	while (fgets(line, sizeof(line), p)) {
		char *b = strstr(line, "Build ID: ");
		unsigned v;

		if (!b)
			continue;
		b += 10;
		while (n < 20 && sscanf(b + 2 * n, "%2x", &v) == 1)
			id[n++] = (uint8_t)v;
		memcpy(hex, b, 2 * n);
		hex[2 * n] = '\0';
	}
	pclose(p);
	return n;
}

static const char *const c_funcs[] = { "helper_static", "work_global", "work_weak", "main", NULL };
static const char *const c_static[] = { "helper_static", "work_global", NULL };
#define PIE_BASE 0x555555554000ULL

static int build(const char *flags, const char *out)
{
	return sh("cc -O1 -g %s -o %s/%s tests/data/perfsym/prog.c 2>/dev/null", flags, dir, out);
}

/* The same program in the layouts and packagings perf meets. */
static void elf_layouts(const struct perfsym_opts *o)
{
	char t[512], r[512];

	snprintf(t, sizeof(t), "%s/pie", dir);
	check_names("pie", t, t, t, o, PIE_BASE, c_funcs, 1, NULL, 0);
	snprintf(r, sizeof(r), "%s/nopie", dir);
	check_names("no-pie", r, r, r, o, 0, c_funcs, 1, NULL, 0);
	snprintf(r, sizeof(r), "%s/shifted", dir);
	check_names("text offset != address", r, r, r, o, PIE_BASE, c_funcs, 1, NULL, 0);
	snprintf(r, sizeof(r), "%s/gz", dir);
	check_names("-gz", r, r, r, o, PIE_BASE, c_funcs, 1, NULL, 0);
	snprintf(r, sizeof(r), "%s/linked", dir);
	check_names("stripped + .gnu_debuglink", t, r, r, o, PIE_BASE, c_funcs, 1, NULL, 0);
	snprintf(r, sizeof(r), "%s/bare", dir);
	check_names("stripped, no debug file", t, r, r, o, PIE_BASE, c_static, 0, NULL, 0);
	if (sh("xz --version >/dev/null 2>&1") == 0) {
		snprintf(r, sizeof(r), "%s/mini", dir);
		check_names("MiniDebugInfo", t, r, r, o, PIE_BASE, c_funcs, 1, NULL, 0);
	} else {
		printf("skip: MiniDebugInfo (no xz)\n");
	}
	snprintf(r, sizeof(r), "%s/nopie", dir);
	check_plt("PLT no-pie", r, 0);
	check_plt("PLT pie", t, PIE_BASE);
}

/* Build ids: a file whose id differs is never used; the build-id cache
 * and /usr/lib/debug/.build-id under --symfs are. */
static void elf_build_ids(void)
{
	struct perfsym_opts o = { .buildid_dir = "" };
	uint8_t id[20], wrong[20];
	char hex[48], t[512], r[512], p[512];
	size_t n;

	snprintf(t, sizeof(t), "%s/pie", dir);
	n = read_build_id(t, id, hex);
	CHECK(n == 20);
	memset(wrong, 0xab, sizeof(wrong));
	check_names("build id mismatch", t, t, t, &o, PIE_BASE, c_funcs, 0, wrong, 20);
	check_names("build id match", t, t, t, &o, PIE_BASE, c_funcs, 1, id, n);
	CHECK(sh("mkdir -p %s/cache/.build-id/%.2s/%s && cp %s %s/cache/.build-id/%.2s/%s/elf", dir, hex,
		 hex + 2, t, dir, hex, hex + 2) == 0);
	snprintf(r, sizeof(r), "%s/cache", dir);
	o.buildid_dir = r;
	check_names("build-id cache", t, t, "/nonexistent/pie", &o, PIE_BASE, c_funcs, 1, id, n);
	check_names("build-id cache, no id", t, t, "/nonexistent/pie", &o, PIE_BASE, c_static, 0, NULL, 0);
	/* The file on disk was rebuilt since the recording: the cache's copy
	 * holds the recorded build's symbols. */
	snprintf(p, sizeof(p), "%s/nopie", dir);
	check_names("build-id cache over a rebuilt file", t, t, p, &o, PIE_BASE, c_funcs, 1, id, n);
	CHECK(sh("mkdir -p %s/root/bin %s/root/usr/lib/debug/.build-id/%.2s && cp %s/bare %s/root/bin/prog && "
		 "cp %s/pie.debug %s/root/usr/lib/debug/.build-id/%.2s/%s.debug", dir, dir, hex, dir, dir,
		 dir, dir, hex, hex + 2) == 0);
	snprintf(r, sizeof(r), "%s/root", dir);
	o.symfs = r;
	o.buildid_dir = "";
	snprintf(p, sizeof(p), "%s/bare", dir);
	check_names("symfs + /usr/lib/debug/.build-id", t, p, "/bin/prog", &o, PIE_BASE, c_funcs, 1, NULL, 0);
	/* .gnu_debuglink's file in .debug/ beside the binary, then under
	 * /usr/lib/debug/DIR, both under --symfs. */
	CHECK(sh("mkdir -p %s/r2/opt/.debug && cp %s/linked %s/r2/opt/prog && cp %s/pie.debug %s/r2/opt/.debug/",
		 dir, dir, dir, dir, dir) == 0);
	snprintf(r, sizeof(r), "%s/r2", dir);
	o.symfs = r;
	snprintf(p, sizeof(p), "%s/linked", dir);
	check_names("symfs + DIR/.debug/LINK", t, p, "/opt/prog", &o, PIE_BASE, c_funcs, 1, NULL, 0);
	CHECK(sh("mkdir -p %s/r2/usr/lib/debug/opt && mv %s/r2/opt/.debug/pie.debug %s/r2/usr/lib/debug/opt/",
		 dir, dir, dir) == 0);
	check_names("symfs + /usr/lib/debug/DIR/LINK", t, p, "/opt/prog", &o, PIE_BASE, c_funcs, 1, NULL, 0);
	CHECK(sh("rm %s/r2/usr/lib/debug/opt/pie.debug", dir) == 0);
	check_names("symfs, debug file gone", t, p, "/opt/prog", &o, PIE_BASE, c_static, 0, NULL, 0);
}

static void cxx_names(void)
{
	static const char *const want[] = { "ns::Box<long>::spin", "local_fn", "overloaded", "main", NULL };
	struct perfsym_opts o = { .buildid_dir = "" };
	char t[512];

	if (sh("c++ -O1 -g -o %s/cxx tests/data/perfsym/prog.cc 2>/dev/null", dir) != 0) {
		printf("skip: C++ names (no c++)\n");
		return;
	}
	snprintf(t, sizeof(t), "%s/cxx", dir);
	check_names("C++", t, t, t, &o, PIE_BASE, want, 1, NULL, 0);
}

static void elf_tests(void)
{
	struct perfsym_opts o = { .buildid_dir = "" };

	if (sh("{ cc --version && nm --version && readelf --version && objcopy --version && objdump --version; } >/dev/null 2>&1") != 0 ||
	    access("tests/data/perfsym/prog.c", R_OK) != 0) {
		printf("skip: ELF tests (no cc, binutils or tests/data)\n");
		return;
	}
	if (!mkdtemp(dir))
		return;
	have_tools = 1;
	CHECK(build("", "pie") == 0 && build("-no-pie", "nopie") == 0 && build("-gz", "gz") == 0);
	CHECK(build("-Wl,--section-start=.text=0x30000", "shifted") == 0);
	CHECK(sh("cd %s && objcopy --only-keep-debug pie pie.debug && "
		 "objcopy --strip-all --add-gnu-debuglink=pie.debug pie linked && "
		 "objcopy --strip-all pie bare", dir) == 0);
	if (sh("xz --version >/dev/null 2>&1") == 0)
		CHECK(sh("cd %s && nm pie --format=posix --defined-only | awk '$2 ~ /[TtW]/ {print $1}' > keep && "
			 "objcopy --only-keep-debug pie mini.full && objcopy -S --remove-section .gdb_index "
			 "--remove-section .comment --keep-symbols=keep mini.full mini.elf && xz -k mini.elf && "
			 "objcopy --strip-all --add-section .gnu_debugdata=mini.elf.xz pie mini", dir) == 0);
	elf_layouts(&o);
	elf_build_ids();
	cxx_names();
}

static const char *look(struct perfsym *s, const char *path, uint64_t pgoff, uint64_t ip, uint64_t *off)
{
	struct perfsym_map m = { path, 0, 1ULL << 40, pgoff, NULL, 0, (uint32_t)getpid() };

	return perfsym_lookup(s, &m, ip, off);
}

#define CHECK_AT(s, path, pgoff, ip, want, want_off) do { \
	uint64_t off_ = 0; \
	const char *got_ = look(s, path, pgoff, ip, &off_); \
	if (want) CHECK_STR(got_, want); else CHECK(got_ == NULL); \
	if (want) CHECK(off_ == (want_off)); \
} while (0)

/* A recording of another kernel than the running one: its kallsyms
 * comes from the build-id cache. */
static void kernel_cache_test(void)
{
	char d[] = "/tmp/perfsym-kcache-XXXXXX", path[600];
	struct perfsym_opts o = { 0 };
	uint8_t id[20];
	struct perfsym *s;
	FILE *f;

	if (!mkdtemp(d))
		return;
	memset(id, 0xab, sizeof(id));
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/abababababababababababababababababababab", d);
	CHECK(sh("mkdir -p '%s'", path) == 0);
	strcat(path, "/kallsyms");
	f = fopen(path, "w");
	CHECK(f && fputs("ffffffff81000000 T _text\nffffffff81000100 T cached_fn\n", f) >= 0 && fclose(f) == 0);
	o.buildid_dir = d;
	s = perfsym_new(&o);
	perfsym_note_build_id(s, "[kernel.kallsyms]", id, 20);
	CHECK_AT(s, "[kernel.kallsyms]_text", 0xffffffff81000000ULL, 0xffffffff81000110ULL, "cached_fn", 0x10);
	perfsym_free(s);
	sh("rm -rf '%s'", d);
}

/* A made-up kallsyms, relocated as KASLR would: the recording saw _text
 * 16 MiB higher than this file says. */
static void kernel_tests(void)
{
	static const char ks[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000000 T startup_64\n"
		"ffffffff81001000 t do_thing\n"
		"ffffffff81002000 W do_weak\n"
		"ffffffff81002000 T do_strong\n"
		"ffffffff81003000 D some_data\n"
		"ffffffff81004000 A abs_sym\n"
		"ffffffff81005000 T last_kernel\n"
		"ffffffffc0001000 t mod_fn\t[mymod]\n"
		"ffffffffc0001100 t mod_fn2\t[mymod]\n"
		"garbage line\n";
	char path[600];
	struct perfsym_opts o = { .buildid_dir = "" };
	struct perfsym *s;
	const uint64_t rec = 0xffffffff82000000ULL;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perfsym-kallsyms-%d", (int)getpid());
	f = fopen(path, "w");
	CHECK(f && fputs(ks, f) >= 0 && fclose(f) == 0);
	o.kallsyms = path;
	s = perfsym_new(&o);
	CHECK_AT(s, "[kernel.kallsyms]_text", rec, rec + 0x1010, "do_thing", 0x10);
	/* Same address: fewer leading underscores wins; strong over weak. */
	CHECK_AT(s, "[kernel.kallsyms]_text", rec, rec + 0x10, "startup_64", 0x10);
	CHECK_AT(s, "[kernel.kallsyms]_text", rec, rec + 0x2ff0, "do_strong", 0xff0);
	CHECK_AT(s, "[kernel.kallsyms]_text", rec, rec + 0x4010, "some_data", 0x1010);
	/* The last kernel symbol ends at the page after it, not at the
	 * first module's. */
	CHECK_AT(s, "[kernel.kallsyms]_text", rec, rec + 0x5800, "last_kernel", 0x800);
	CHECK_AT(s, "[kernel.kallsyms]_text", rec, rec + 0x6800, NULL, 0);
	CHECK_AT(s, "[mymod]", 0, 0xffffffffc0001040ULL, "mod_fn", 0x40);
	CHECK_AT(s, "/lib/modules/x/mymod.ko", 0, 0xffffffffc0001140ULL, "mod_fn2", 0x40);
	CHECK(perfsym_stats(s)->lookups == 8 && perfsym_stats(s)->unknown == 1);
	perfsym_free(s);
	/* No relocation when the file is the running kernel's. */
	s = perfsym_new(&o);
	CHECK_AT(s, "[kernel.kallsyms]_text", 0xffffffff81000000ULL, 0xffffffff81001004ULL, "do_thing", 4);
	perfsym_free(s);
	unlink(path);
	kernel_cache_test();
}

static void jit_tests(void)
{
	char path[64];
	struct perfsym *s = perfsym_new(&(struct perfsym_opts){ .buildid_dir = "" });
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	CHECK(f && fputs("7f0000001000 100 jit_a\n7f0000001100 80 LazyCompile:*foo bar.js:1\n"
			 "not a line\n7f0000002000 0 zero_size\n7f0000001000 40 jit_a_again\n", f) >= 0 &&
	      fclose(f) == 0);
	/* perf inserts the lines in order into its red-black tree: jit_a,
	 * then LazyCompile to its right, zero_size turns LazyCompile into
	 * the root, and jit_a_again goes right of jit_a, below it.  Its
	 * walk from the root meets jit_a first (worked by hand). */
	CHECK_AT(s, "//anon", 0, 0x7f0000001010ULL, "jit_a", 0x10);
	CHECK_AT(s, "//anon", 0, 0x7f0000001050ULL, "jit_a", 0x50);
	CHECK_AT(s, "//anon", 0, 0x7f0000001110ULL, "LazyCompile:*foo bar.js:1", 0x10);
	CHECK_AT(s, path, 0, 0x7f0000001110ULL, "LazyCompile:*foo bar.js:1", 0x10);
	/* An entry of size 0 holds its own address (perf's search). */
	CHECK_AT(s, "//anon", 0, 0x7f0000002000ULL, "zero_size", 0);
	CHECK_AT(s, "//anon", 0, 0x7f0000002001ULL, NULL, 0);
	CHECK_AT(s, "[vsyscall]", 0, 0xffffffffff600000ULL, NULL, 0);
	perfsym_free(s);
	unlink(path);
	/* No map file: nothing named, nothing crashes. */
	s = perfsym_new(NULL);
	CHECK_AT(s, "//anon", 0, 0x7f0000001010ULL, NULL, 0);
	CHECK(perfsym_stats(s)->missing == 1);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	CHECK_STR(perfsym_missing(s, 0), path);
	CHECK(perfsym_missing(s, 1) == NULL);
	perfsym_free(s);
}

/* perf's rules for symbols at one address and for unsized ones. */
static void tab_tests(void)
{
	struct perfsym_tab t;

	perfsym_tab_init(&t);
	perfsym_tab_add(&t, 0x100, 0, "a_zero", 6, PERFSYM_GLOBAL);
	perfsym_tab_add(&t, 0x200, 0x10, "weak_one", 8, PERFSYM_WEAK);
	perfsym_tab_add(&t, 0x200, 0x10, "global_one", 10, PERFSYM_GLOBAL);
	perfsym_tab_add(&t, 0x300, 0x100, "outer", 5, PERFSYM_GLOBAL);
	perfsym_tab_add(&t, 0x320, 0x10, "inner", 5, PERFSYM_GLOBAL);
	perfsym_tab_add(&t, 0x500, 0x10, "__under", 7, PERFSYM_GLOBAL);
	perfsym_tab_add(&t, 0x500, 0x10, "_under", 6, PERFSYM_GLOBAL);
	perfsym_tab_add(&t, 0x600, 0, "last", 4, 0);
	perfsym_tab_add(&t, 0x700, 0x100, "func", 4, PERFSYM_GLOBAL);
	perfsym_tab_add(&t, 0x740, 0, "label_in_func", 13, 0);
	perfsym_tab_add(&t, 0x900, 0x10, "after", 5, PERFSYM_GLOBAL);
	perfsym_tab_finish(&t, PERFSYM_TAB_ELF, NULL, NULL);
	CHECK(perfsym_tab_find(&t, 0x1ff) && strcmp(perfsym_tab_raw(&t, perfsym_tab_find(&t, 0x1ff)), "a_zero") == 0);
	CHECK(strcmp(perfsym_tab_raw(&t, perfsym_tab_find(&t, 0x205)), "global_one") == 0);
	CHECK(perfsym_tab_find(&t, 0x210) == NULL);
	/* Nested symbols: the one perf's tree walk meets first (checked
	 * against perf script in tests/perfdata.sh), never a third. */
	CHECK(strcmp(perfsym_tab_raw(&t, perfsym_tab_find(&t, 0x325)), "inner") == 0 ||
	      strcmp(perfsym_tab_raw(&t, perfsym_tab_find(&t, 0x325)), "outer") == 0);
	CHECK(strcmp(perfsym_tab_raw(&t, perfsym_tab_find(&t, 0x340)), "outer") == 0);
	CHECK(strcmp(perfsym_tab_raw(&t, perfsym_tab_find(&t, 0x505)), "_under") == 0);
	CHECK(strcmp(perfsym_tab_raw(&t, perfsym_tab_find(&t, 0x6ff)), "last") == 0);
	/* An unsized label inside a function: either may hold what the
	 * function covers, the label alone what lies between the function
	 * and the next. */
	CHECK(strcmp(perfsym_tab_raw(&t, perfsym_tab_find(&t, 0x750)), "func") == 0 ||
	      strcmp(perfsym_tab_raw(&t, perfsym_tab_find(&t, 0x750)), "label_in_func") == 0);
	CHECK(strcmp(perfsym_tab_raw(&t, perfsym_tab_find(&t, 0x850)), "label_in_func") == 0);
	CHECK(perfsym_tab_find(&t, 0x910) == NULL);
	CHECK(perfsym_tab_find(&t, 0x50) == NULL);
	perfsym_tab_release(&t);
}

/* [vdso]: this process's own image, when the recording's build id is
 * its; nothing without a build id (perf prints [unknown]).  Truth: nm on
 * a copy of the image, the global of each weak/global alias pair (perf
 * prefers non-weak symbols at one address). */
static void vdso_tests(void)
{
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)getauxval(AT_SYSINFO_EHDR);
	char path[600], cmd[700], line[512], hex[48];
	uint8_t id[20];
	size_t n, size, checked = 0;
	struct perfsym *s;
	FILE *f, *p;

	if (!eh || !have_tools)
		return;
	size = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	snprintf(path, sizeof(path), "%s/vdso.so", dir);
	f = fopen(path, "wb");
	CHECK(f && fwrite(eh, 1, size, f) == size && fclose(f) == 0);
	n = read_build_id(path, id, hex);
	s = perfsym_new(&(struct perfsym_opts){ .buildid_dir = "" });
	snprintf(cmd, sizeof(cmd), "nm -D -S --defined-only %s", path);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		unsigned long long a, sz;
		char t, name[256];
		uint64_t off;
		struct perfsym_map m = { "[vdso]", (uint64_t)(uintptr_t)eh, 0x2000, 0, id, n, 1 };
		struct perfsym_map anon = { "[vdso]", (uint64_t)(uintptr_t)eh, 0x2000, 0, NULL, 0, 1 };

		if (sscanf(line, "%llx %llx %c %255s", &a, &sz, &t, name) != 4 || t != 'T')
			continue;
		name[strcspn(name, "@")] = '\0';	/* nm's version suffix */
		CHECK_STR(perfsym_lookup(s, &m, m.start + a + sz / 2, &off), name);
		CHECK(off == sz / 2);
		CHECK(perfsym_lookup(s, &anon, m.start + a, &off) == NULL);
		checked++;
	}
	if (p)
		pclose(p);
	CHECK(checked > 0);
	perfsym_free(s);
}

/* Rust names as libiberty (and so perf) shows them: legacy without the
 * hash, v0 without the crate disambiguator; C++ without parameters. */
static void demangle_tests(void)
{
	char *d;

	CHECK_STR(d = demangle_name("_ZN4core3fmt5write17h0123456789abcdefE"), "core::fmt::write");
	free(d);
	CHECK_STR(d = demangle_name("_RNvCs1234_7mycrate3foo"), "mycrate::foo");
	free(d);
	CHECK_STR(d = demangle_name("_ZN2ns3BoxIlE4spinEi"), "ns::Box<long>::spin");
	free(d);
	CHECK(demangle_name("main") == NULL);
	CHECK(demangle_name("_Z") == NULL);
}

/* --perf: perf script's own names against ours. */
struct pmap {
	struct perfsym_map m;	/* as the MMAP record gave it */
	char path[512];		/* m.path's storage */
};

struct pscript {
	struct pmap *maps;	/* every MMAP seen */
	size_t n;		/* their number */
	long pid;		/* the current sample's */
	long frames, bad;	/* frames checked, mismatched */
	long skipped;		/* frames of no map (not [unknown]) */
	struct perfsym *s;	/* the resolver */
};

static void mmap_line(struct pscript *p, const char *line)
{
	const char *b = strstr(line, "[0x"), *e;
	unsigned long long start, len, pgoff;
	struct pmap *m;
	const char *rec = strstr(line, "PERF_RECORD_MMAP");
	long pid = strtol(rec + strcspn(rec, " "), NULL, 10);

	if (!b || sscanf(b, "[0x%llx(0x%llx) @ %llx", &start, &len, &pgoff) != 3 || !(e = strstr(b, "]: ")))
		return;
	e = strchr(e + 3, ' ');
	if (!e)
		return;
	p->maps = realloc(p->maps, (p->n + 1) * sizeof(*p->maps));
	m = &p->maps[p->n++];
	memset(m, 0, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%.*s", (int)strcspn(e + 1, "\n"), e + 1);
	m->m.start = start, m->m.len = len, m->m.pgoff = pgoff;
	m->m.pid = (uint32_t)pid;
}

/* perf script printed a frame's address as its map's (file offset for
 * files, the address itself for the kernel), so the map is the latest
 * of the process for that file holding it. */
static void frame_line(struct pscript *p, const char *line)
{
	unsigned long long a;
	/* As long as the line: demangled template names pass 1024 bytes. */
	char *sym = malloc(strlen(line) + 1), dso[512];
	const char *sp, *lp = strrchr(line, '('), *got;
	struct pmap *m = NULL;
	uint64_t off, ip = 0;
	size_t i;

	if (!sym || sscanf(line, " %llx", &a) != 1 || !lp || !(sp = strchr(line + strspn(line, "\t "), ' '))) {
		free(sym);
		return;
	}
	if (strncmp(lp, "(deleted))", 10) == 0)	/* "(/memfd:x (deleted))" */
		while (lp > sp && *--lp != '(')
			;
	snprintf(sym, strlen(line) + 1, "%.*s", (int)(lp - sp - 2 > 0 ? lp - sp - 2 : 0), sp + 1);
	snprintf(dso, sizeof(dso), "%.*s", (int)strcspn(lp + 1, ")"), lp + 1);
	for (i = p->n; i-- > 0;) {
		struct pmap *c = &p->maps[i];
		int kernel = strncmp(c->path, "[kernel.kallsyms]", 17) == 0;
		/* perf names anonymous executable maps after their JIT map
		 * file and prints their addresses as they are. */
		int jit = strncmp(dso, "/tmp/perf-", 10) == 0 && (long)c->m.pid == p->pid &&
			  (strcmp(c->path, "//anon") == 0 || strcmp(c->path, dso) == 0);

		if (jit && a >= c->m.start && a - c->m.start < c->m.len) {
			m = c, ip = a;
			break;
		}
		if (kernel ? strcmp(dso, "[kernel.kallsyms]") == 0
			   : (long)c->m.pid == p->pid && strcmp(c->path, dso) == 0 && a >= c->m.pgoff &&
			     a - c->m.pgoff < c->m.len) {
			m = c;
			ip = kernel ? a : c->m.start + a - c->m.pgoff;
			break;
		}
	}
	if (!m) {
		if (strcmp(dso, "[unknown]") != 0 && p->skipped++ < 5)
			printf("no map for %s %llx in pid %ld\n", dso, a, p->pid);
		free(sym);
		return;
	}
	m->m.path = m->path;
	got = perfsym_lookup(p->s, &m->m, ip, &off);
	p->frames++;
	if (strcmp(got ? got : "[unknown]", sym) != 0 && p->bad++ < 20)
		printf("MISMATCH %s %llx: perf \"%s\", ours \"%s\"\n", dso, a, sym, got ? got : "[unknown]");
	free(sym);
}

static int perf_mode(const char *script, const char *buildids)
{
	struct pscript p = { NULL, 0, -1, 0, 0, 0, perfsym_new(NULL) };
	char line[4096], *big = NULL;
	size_t cap = 0;
	FILE *f = fopen(buildids, "r");

	while (f && fgets(line, sizeof(line), f)) {
		uint8_t id[20];
		size_t n = 0;
		unsigned v;
		char path[2048];

		while (n < 20 && sscanf(line + 2 * n, "%2x", &v) == 1)
			id[n++] = (uint8_t)v;
		if (sscanf(line + 2 * n, " %2047[^\n]", path) == 1)
			perfsym_note_build_id(p.s, path, id, n);
	}
	if (f)
		fclose(f);
	if (!(f = fopen(script, "r")))
		return 2;
	/* Whole lines, however long: a frame line holds a demangled name. */
	while (getline(&big, &cap, f) > 0) {
		if (strstr(big, "PERF_RECORD_MMAP"))
			mmap_line(&p, big);
		else if (big[0] == '\t')
			frame_line(&p, big);
		else if (big[0] != '\n')
			p.pid = strtol(big, NULL, 10);
	}
	free(big);
	fclose(f);
	printf("%ld frames, %ld mismatched, %ld without a map\n", p.frames, p.bad, p.skipped);
	perfsym_free(p.s);
	free(p.maps);
	return p.bad || !p.frames;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--perf") == 0)
		return perf_mode(argv[2], argv[3]);
	tab_tests();
	kernel_tests();
	jit_tests();
	demangle_tests();
	elf_tests();
	vdso_tests();
	if (have_tools)
		sh("rm -rf %s", dir);
	return check_done();
}
