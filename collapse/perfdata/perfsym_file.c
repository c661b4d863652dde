/* perfsym_file: locating symbol files in perf's order and reading them. */
#include "perfsym_file.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <link.h>

/* What one search works with. */
struct search {
	const struct perfsym_opts *o;	/* symfs, build-id cache */
	const char *path;		/* the file as recorded */
	uint8_t bid[20];		/* the build id wanted */
	size_t bid_len;			/* its length, 0: unknown */
	char bid_hex[41];		/* bid in hex */
	struct elfsym run;		/* the runtime image (segments, .dynsym, PLT) */
	int have_run;			/* run is open */
	char *run_name;			/* the file run came from */
};

int perfsym_file_same_id(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen, i;

	if (n == 0 || memcmp(a, b, n) != 0)
		return 0;
	for (i = n; i < alen; i++)
		if (a[i])
			return 0;
	for (i = n; i < blen; i++)
		if (b[i])
			return 0;
	return 1;
}

void perfsym_file_release(struct perfsym_file *f)
{
	perfsym_tab_release(&f->tab);
	free(f->segs);
	free(f->from);
	memset(f, 0, sizeof(*f));
}

char *perfsym_file_slurp(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf = NULL;
	size_t cap = 0, used = 0;
	ssize_t n = 1;

	if (fd < 0)
		return NULL;
	while (n > 0 && used < max) {
		xgrow(&buf, &cap, used + 65536, 1);
		n = read(fd, buf + used, cap - used < max - used ? cap - used : max - used);
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n > 0)
			used += (size_t)n;
	}
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	*len = used;
	return buf ? buf : xcalloc(1, 1);
}

/* The build-id cache: $PERF_BUILDID_DIR, else ~/.debug; under --symfs
 * when one is given, as perf looks for it (a recording from elsewhere
 * must not take this machine's files). */
static const char *buildid_dir(const struct perfsym_opts *o, char *buf, size_t size);

const char *perfsym_file_buildid_dir(const struct perfsym_opts *o, char *buf, size_t size)
{
	return buildid_dir(o, buf, size);
}

static const char *buildid_dir(const struct perfsym_opts *o, char *buf, size_t size)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	const char *fs = o->symfs ? o->symfs : "";
	int n;

	if (o->buildid_dir)
		return o->buildid_dir[0] ? o->buildid_dir : NULL;
	if (env && env[0])
		n = snprintf(buf, size, "%s%s", fs, env);
	else if (home)
		n = snprintf(buf, size, "%s%s/.debug", fs, home);
	else
		return NULL;
	return n >= 0 && n < (int)size ? buf : NULL;
}

static int is_vdso(const char *path)
{
	return strcmp(path, "[vdso]") == 0;
}

/* Opens name into e when it is ELF and carries the build id wanted (any,
 * while none is known).  Returns 0 or -1. */
static int open_matching(const struct search *s, const char *name, struct elfsym *e)
{
	struct stat st;

	if (stat(name, &st) != 0 || !S_ISREG(st.st_mode) || elfsym_open(e, name) != 0)
		return -1;
	if (s->bid_len && !perfsym_file_same_id(s->bid, s->bid_len, e->build_id, e->build_id_len)) {
		elfsym_close(e);
		return -1;
	}
	return 0;
}

/* This process's own vdso image, copied (libelf must not see read-only
 * memory it might convert in place). */
static int open_own_vdso(struct elfsym *e)
{
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)getauxval(AT_SYSINFO_EHDR);
	size_t size;
	void *img;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0)
		return -1;
	size = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (size < sizeof(*eh) || size > ((size_t)1 << 20))
		return -1;
	img = xmalloc(size);
	memcpy(img, eh, size);
	return elfsym_open_mem(e, img, size, 1);
}

static void hex_id(const uint8_t *id, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * len] = '\0';
}

/* The runtime image: the file itself (under --symfs), else the copy in
 * the build-id cache, else for [vdso] this process's own when its build
 * id is the one recorded. */
static void open_runtime(struct search *s, const char *bdir)
{
	char name[PATH_MAX];
	const char *sfs = s->o->symfs ? s->o->symfs : "";

	if (s->path[0] == '/' && snprintf(name, sizeof(name), "%s%s", sfs, s->path) < (int)sizeof(name) &&
	    open_matching(s, name, &s->run) == 0)
		goto found;
	if (!s->bid_len)
		return;
	if (bdir && snprintf(name, sizeof(name), "%s/.build-id/%.2s/%s/%s", bdir, s->bid_hex,
			     s->bid_hex + 2, is_vdso(s->path) ? "vdso" : "elf") < (int)sizeof(name) &&
	    open_matching(s, name, &s->run) == 0)
		goto found;
	if (!is_vdso(s->path) || open_own_vdso(&s->run) != 0)
		return;
	if (!perfsym_file_same_id(s->bid, s->bid_len, s->run.build_id, s->run.build_id_len)) {
		elfsym_close(&s->run);
		return;
	}
	snprintf(name, sizeof(name), "[vdso]");
found:
	s->have_run = 1;
	s->run_name = xstrndup(name, strlen(name));
	if (!s->bid_len && s->run.build_id_len) {
		s->bid_len = s->run.build_id_len;
		memcpy(s->bid, s->run.build_id, s->bid_len);
		hex_id(s->bid, s->bid_len, s->bid_hex);
	}
}

/* The build-id cache's entries for the id: the whole file ("elf", or
 * "vdso" for [vdso]), an older layout's link to the file itself, and a
 * debug file. */
static int cache_candidate(const struct search *s, int i, const char *bdir, char *buf,
			   size_t size)
{
	const char *leaf = i == 0 ? (is_vdso(s->path) ? "/vdso" : "/elf") : i == 1 ? "" : "/debug";

	return snprintf(buf, size, "%s/.build-id/%.2s/%s%s", bdir, s->bid_hex, s->bid_hex + 2, leaf);
}

/* Candidate i for the symbol table, in perf's order, into buf: returns
 * 1 when buf names one, 0 when i gives none here, -1 past the last.
 * The .gnu_debuglink name (link) is looked for beside the file, in
 * .debug/ there and under /usr/lib/debug; then the build-id cache,
 * /usr/lib/debug by build id and by path, and the file itself. */
static int candidate(const struct search *s, int i, const char *bdir, const char *link,
		     char *buf, size_t size)
{
	const char *sfs = s->o->symfs ? s->o->symfs : "", *slash = strrchr(s->path, '/');
	int dl = slash ? (int)(slash - s->path) : 0, n = -1, abs = s->path[0] == '/';
	const char *p = s->path, *h = s->bid_hex;

	if (i > 9)
		return -1;
	if (i < 3 && link && abs)
		n = i == 0 ? snprintf(buf, size, "%s%.*s/%s", sfs, dl, p, link)
		  : i == 1 ? snprintf(buf, size, "%s%.*s/.debug/%s", sfs, dl, p, link)
			   : snprintf(buf, size, "%s/usr/lib/debug%.*s/%s", sfs, dl, p, link);
	else if (i >= 3 && i < 6 && s->bid_len && bdir)
		n = cache_candidate(s, i - 3, bdir, buf, size);
	else if (i == 6 && s->bid_len)
		n = snprintf(buf, size, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", sfs, h, h + 2);
	else if (i > 6 && abs)
		n = i == 7 ? snprintf(buf, size, "%s/usr/lib/debug%s.debug", sfs, p)
		  : i == 8 ? snprintf(buf, size, "%s/usr/lib/debug%s", sfs, p)
			   : snprintf(buf, size, "%s%s", sfs, p);
	return n >= 0 && (size_t)n < size;
}

/* Opens the first candidate with a .symtab into e; returns 0 or -1. */
static int open_symtab(struct search *s, const char *bdir, struct elfsym *e, char **from)
{
	char link[256], name[PATH_MAX];
	int i, r, have_link = s->have_run && elfsym_debuglink(&s->run, link, sizeof(link)) == 0;

	for (i = 0; (r = candidate(s, i, bdir, have_link ? link : NULL, name, sizeof(name))) >= 0; i++) {
		if (r == 0 || open_matching(s, name, e) != 0)
			continue;
		if (e->symtab) {
			*from = xstrndup(name, strlen(name));
			return 0;
		}
		elfsym_close(e);
	}
	return -1;
}

/* Without a .symtab anywhere: .dynsym, and the MiniDebugInfo's symbols
 * (which hold the functions .dynsym lacks).  Returns how many were
 * kept, or -1 when there was no table to read. */
static long load_fallback(struct search *s, struct perfsym_file *f)
{
	struct elfsym inner;
	long n = elfsym_load(&s->run, 1, &f->tab);

	if (elfsym_open_debugdata(&s->run, &inner) == 0) {
		long m = elfsym_load(&inner, 0, &f->tab);

		elfsym_close(&inner);
		if (m >= 0)
			n = n < 0 ? m : n + m;
	}
	return n;
}

int perfsym_file_load(struct perfsym_file *f, const struct perfsym_opts *o, const char *path,
		      const uint8_t *bid, size_t bid_len,
		      char *(*shown)(void *ctx, const char *raw), void *ctx)
{
	struct search s;
	struct elfsym sym;
	char bbuf[PATH_MAX];
	const char *bdir = buildid_dir(o, bbuf, sizeof(bbuf));
	long n;

	memset(f, 0, sizeof(*f));
	memset(&s, 0, sizeof(s));
	s.o = o, s.path = path;
	s.bid_len = bid_len < 20 ? bid_len : 20;
	if (s.bid_len)
		memcpy(s.bid, bid, s.bid_len);
	hex_id(s.bid, s.bid_len, s.bid_hex);
	open_runtime(&s, bdir);
	if (open_symtab(&s, bdir, &sym, &f->from) == 0) {
		n = elfsym_load(&sym, 0, &f->tab);
		if (!s.have_run)
			f->segs = sym.segs, f->nsegs = sym.nsegs, sym.segs = NULL;
		elfsym_close(&sym);
	} else {
		n = s.have_run ? load_fallback(&s, f) : -1;
		f->from = s.run_name, s.run_name = NULL;
	}
	if (s.have_run) {
		/* perf names PLT entries only when the symbol table gave it
		 * a symbol: a stripped PIE whose .dynsym defines nothing
		 * shows its PLT as [unknown]. */
		if (n > 0)
			elfsym_load_plt(&s.run, &f->tab);
		f->segs = s.run.segs, f->nsegs = s.run.nsegs, s.run.segs = NULL;
		elfsym_close(&s.run);
	}
	free(s.run_name);
	perfsym_tab_finish(&f->tab, PERFSYM_TAB_ELF, shown, ctx);
	return n >= 0 || f->tab.n ? 0 : -1;
}

/* The running kernel's build id, from /sys/kernel/notes (raw ELF notes:
 * namesz, descsz, type, then name and desc each padded to 4 bytes). */
static size_t running_kernel_id(uint8_t *id)
{
	size_t len, pos = 0, n = 0;
	char *notes = perfsym_file_slurp("/sys/kernel/notes", 1 << 16, &len);

	while (notes && len - pos >= 12) {
		uint32_t h[3];
		size_t name, desc;

		memcpy(h, notes + pos, sizeof(h));
		name = ((size_t)h[0] + 3) & ~(size_t)3;
		desc = ((size_t)h[1] + 3) & ~(size_t)3;
		if (name > len - pos - 12 || desc > len - pos - 12 - name)
			break;
		if (h[2] == NT_GNU_BUILD_ID && h[0] == 4 && memcmp(notes + pos + 12, "GNU", 4) == 0) {
			n = h[1] < 20 ? h[1] : 20;
			memcpy(id, notes + pos + 12 + name, n);
			break;
		}
		pos += 12 + name + desc;
	}
	free(notes);
	return n;
}

const char *perfsym_file_kallsyms(const struct perfsym_opts *o, const uint8_t *bid,
				  size_t bid_len, char *buf, size_t size)
{
	uint8_t run[20];
	char bbuf[PATH_MAX], hex[41];
	const char *bdir = buildid_dir(o, bbuf, sizeof(bbuf));
	size_t run_len;

	if (o->kallsyms)
		return o->kallsyms;
	if (!bid_len || !bdir)
		return "/proc/kallsyms";
	run_len = running_kernel_id(run);
	if (perfsym_file_same_id(bid, bid_len, run, run_len))
		return "/proc/kallsyms";
	hex_id(bid, bid_len < 20 ? bid_len : 20, hex);
	if (snprintf(buf, size, "%s/[kernel.kallsyms]/%s/kallsyms", bdir, hex) >= (int)size ||
	    access(buf, R_OK) != 0)
		return "/proc/kallsyms";
	return buf;
}
