/* perfsym: the resolver.  Each mapped file is found and read once per
 * (path, build id); an address asked for again is answered from a hash
 * of (file, address) without searching, since hot code is sampled over
 * and over; every name returned is interned once. */
#include "perfsym.h"
#include "hkey.h"
#include "demangle.h"
#include "kallsyms.h"
#include "perfinline.h"
#include "perfsym_file.h"
#include "perfsym_kernel.h"
#include "strtab.h"
#include "xalloc.h"

#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cache past this many entries starts afresh: memory stays bounded
 * however many distinct addresses a recording holds. */
#define CACHE_MAX ((size_t)1 << 19)
/* Symbol lists read whole: /proc/kallsyms is a few MB. */
#define TEXT_MAX ((size_t)1 << 30)

/* K_DEFINED: a file perfsym_define named whole (JIT code). */
enum kind { K_ELF, K_KERNEL, K_JIT, K_NONE, K_DEFINED };

struct psfile {
	struct perfsym_file f;	/* symbols and segments */
	enum kind kind;		/* how addresses map into f */
	uint32_t idx;		/* 1-based, the cache's file key */
	int ok;			/* symbols were found */
	const char *key;	/* the files table's key (path first) */
	size_t key_len;		/* its length */
	struct perfinline *dwarf;	/* its DWARF, for inlines, or NULL */
	int dwarf_tried;	/* dwarf was looked for */
	int kallsyms;		/* K_KERNEL: its symbols are kallsyms' */
	uint64_t span_lo, span_hi;	/* kallsyms: the kernel's symbols' extent */
};

struct slot {
	uint64_t addr;		/* address in the file's symbol space */
	uint64_t start;		/* the symbol's start */
	uint32_t file;		/* psfile idx; 0: empty slot */
	uint32_t name;		/* interned name, PERFSYM_NONAME: unknown */
};

/* An address's inline chain: frames [first, first + n) of perfsym.ifr;
 * n 0: none, the frame stands alone. */
struct islot {
	uint64_t addr;		/* address in the file */
	uint32_t file;		/* psfile idx; 0: empty slot */
	uint32_t first;		/* its first frame */
	uint32_t n;		/* its frames */
};

/* A frame of a chain: an interned name, and whether it is inlined. */
struct iframe {
	uint32_t name;		/* in perfsym.names */
	uint32_t inlined;	/* shown "(inlined)" */
};

/* Recent maps, so that a lookup in a map seen lately (a sample's
 * frames alternate between a few) skips hashing its path. */
#define MEMO_SLOTS 16

struct memo {
	struct psfile *f;		/* the map's file, or NULL */
	char *path;			/* the map's path (owned) */
	size_t cap;			/* room in path */
	uint8_t bid[20];		/* the map's own build id */
	size_t bid_len;			/* its length */
	uint32_t pid;			/* the map's pid */
};

struct perfsym {
	struct perfsym_opts o;		/* options, strings owned */
	struct perfsym_stats st;	/* counters */
	struct strtab *names;		/* display names */
	struct strtab *files;		/* kind+path+id -> struct psfile * */
	struct strtab *noted;		/* path -> struct noted_id */
	struct psfile **byidx;		/* files by idx - 1 */
	size_t nfiles, capfiles;	/* used and allocated of byidx */
	struct slot *cache;		/* open addressing, power of two */
	size_t cache_mask, cache_used;	/* size - 1 and entries */
	uint64_t kdelta;		/* kallsyms address - recorded address */
	int kdelta_set;			/* kdelta is known */
	char *keybuf;			/* scratch key */
	size_t keycap;			/* its room */
	struct memo memo[MEMO_SLOTS];	/* recent maps' files, by path pointer */
	uint64_t kref;			/* kallsyms' address of the reference symbol */
	int kref_found;			/* kref was found */
	struct islot *icache;		/* inline chains, open addressing */
	size_t icache_mask, icache_used;	/* size - 1 (0: none yet) and entries */
	uint64_t hmul;			/* hkey_odd's: both caches' slots */
	struct iframe *ifr;		/* the chains' frames */
	size_t nifr, capifr;		/* used and allocated */
};

struct noted_id {
	uint8_t id[20];		/* build id */
	size_t len;		/* its length */
};

static char *dup_or_null(const char *s)
{
	return s ? xstrndup(s, strlen(s)) : NULL;
}

struct perfsym *perfsym_new(const struct perfsym_opts *o)
{
	struct perfsym *s = xcalloc(1, sizeof(*s));

	if (o)
		s->o = *o;
	s->o.symfs = dup_or_null(s->o.symfs);
	s->o.kallsyms = dup_or_null(s->o.kallsyms);
	s->o.buildid_dir = dup_or_null(s->o.buildid_dir);
	s->hmul = hkey_odd();
	s->names = strtab_new(0);
	s->files = strtab_new(sizeof(struct psfile *));
	s->noted = strtab_new(sizeof(struct noted_id));
	elf_version(EV_CURRENT);
	return s;
}

void perfsym_free(struct perfsym *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nfiles; i++) {
		perfsym_file_release(&s->byidx[i]->f);
		perfinline_free(s->byidx[i]->dwarf);
		free(s->byidx[i]);
	}
	free(s->byidx);
	free(s->cache);
	free(s->icache);
	free(s->ifr);
	free(s->keybuf);
	for (i = 0; i < MEMO_SLOTS; i++)
		free(s->memo[i].path);
	strtab_free(s->names);
	strtab_free(s->files);
	strtab_free(s->noted);
	free((char *)(uintptr_t)s->o.symfs);
	free((char *)(uintptr_t)s->o.kallsyms);
	free((char *)(uintptr_t)s->o.buildid_dir);
	free(s);
}

void perfsym_note_build_id(struct perfsym *s, const char *path, const uint8_t *id, size_t len)
{
	struct noted_id *n = strtab_val(s->noted, strtab_intern(s->noted, path, strlen(path), NULL));
	size_t i;

	n->len = len < 20 ? len : 20;
	if (n->len)
		memcpy(n->id, id, n->len);
	for (i = 0; i < MEMO_SLOTS; i++)	/* the build id a path means may change */
		s->memo[i].f = NULL;
}

const struct perfsym_stats *perfsym_stats(const struct perfsym *s)
{
	return &s->st;
}

const char *perfsym_missing(const struct perfsym *s, size_t i)
{
	size_t k;

	for (k = 0; k < s->nfiles; k++)
		if (!s->byidx[k]->ok && s->byidx[k]->kind != K_NONE && i-- == 0)
			return s->byidx[k]->f.from ? s->byidx[k]->f.from : s->byidx[k]->key;
	return NULL;
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* How perf treats a map by its name: the kernel and its modules from
 * kallsyms; anonymous executable memory from /tmp/perf-PID.map; the
 * pseudo-maps it has no symbols for; files (and [vdso]) as ELF. */
static enum kind kind_of(const char *path)
{
	static const char *const none[] = { "[vsyscall]", "[vvar]", "[uprobes]", "[vectors]",
					     "[sigpage]", "[anon", "[vvar_vclock]" };
	size_t i;

	if (starts(path, "[kernel.kallsyms") || starts(path, "[guest.kernel.kallsyms"))
		return K_KERNEL;
	if (strcmp(path, "//anon") == 0 || starts(path, "/dev/zero") || starts(path, "/anon_hugepage") ||
	    strcmp(path, "[heap]") == 0 || starts(path, "[stack") || starts(path, "/SYSV") ||
	    (starts(path, "/tmp/perf-") && ends(path, ".map")))
		return K_JIT;
	if (strcmp(path, "[vdso]") == 0)
		return K_ELF;
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		if (starts(path, none[i]))
			return K_NONE;
	if (path[0] == '[' || ends(path, ".ko") || ends(path, ".ko.xz") || ends(path, ".ko.gz") ||
	    ends(path, ".ko.zst"))
		return K_KERNEL;
	return path[0] ? K_ELF : K_NONE;
}

int perfsym_varies(const char *path)
{
	switch (kind_of(path)) {
	case K_JIT:
		return PERFSYM_BY_PID;
	case K_KERNEL:
		return PERFSYM_BY_ADDR;
	default:	/* K_DEFINED (a K_ELF path) too: ip - start */
		return PERFSYM_BY_OFFSET;
	}
}

/* The build id to look for: the map's own, else one the recording noted. */
static void wanted_id(const struct perfsym *s, const struct perfsym_map *m, const uint8_t **id,
		      size_t *len)
{
	uint32_t n;

	*id = m->build_id, *len = m->build_id ? m->build_id_len : 0;
	if (*len)
		return;
	n = strtab_find(s->noted, m->path, strlen(m->path));
	if (n != UINT32_MAX) {
		const struct noted_id *v = strtab_val(s->noted, n);

		*id = v->id, *len = v->len;
	}
}

/* The files table's key: one kernel, one JIT map per process, one ELF
 * file per (path, build id); the path comes first so the memo can
 * compare it as a C string. */
static size_t make_key(struct perfsym *s, enum kind k, const struct perfsym_map *m)
{
	const uint8_t *id;
	size_t len = 0, idlen;
	char pid[32];

	size_t plen = strlen(m->path);

	xgrow(&s->keybuf, &s->keycap, plen + 64, 1);
	if (k == K_KERNEL)
		return (size_t)sprintf(s->keybuf, "[kernel]") + 1;
	if (k == K_JIT) {
		if (starts(m->path, "/tmp/perf-"))
			return (size_t)sprintf(s->keybuf, "%s", m->path) + 1;
		snprintf(pid, sizeof(pid), "%u", (unsigned)m->pid);
		return (size_t)sprintf(s->keybuf, "/tmp/perf-%s.map", pid) + 1;
	}
	wanted_id(s, m, &id, &idlen);
	memcpy(s->keybuf, m->path, plen + 1);
	len = plen + 1;
	if (idlen)
		memcpy(s->keybuf + len, id, idlen);
	return len + idlen;
}

static char *held_name(void *ctx, const char *raw)
{
	return ((const struct perfsym *)ctx)->o.no_demangle ? NULL : demangle_name(raw);
}

/* The extent of the kernel's own symbols (not modules'), which perf
 * makes its kernel map once it has read kallsyms (map__fixup_start and
 * map__fixup_end): addresses past _etext, in the init text, are named. */
static void kernel_span(struct psfile *f)
{
	const struct perfsym_tab *t = &f->f.tab;
	size_t i;

	f->span_lo = UINT64_MAX, f->span_hi = 0;
	for (i = 0; i < t->n; i++) {
		if (t->v[i].flags & PERFSYM_MODULE)
			continue;
		if (t->v[i].start < f->span_lo)
			f->span_lo = t->v[i].start;
		if (t->v[i].end > f->span_hi)
			f->span_hi = t->v[i].end;
	}
}

/* The kernel's symbols, and the relocation between the addresses they
 * have in kallsyms and the ones recorded: the kernel map's pgoff holds
 * the recorded address of its reference symbol (the name after
 * "[kernel.kallsyms]", normally _text). */
static int load_kernel(struct perfsym *s, struct psfile *f, const struct perfsym_map *m)
{
	const char *ref = starts(m->path, "[kernel.kallsyms]") ? m->path + 17 : "";
	uint32_t n = strtab_find(s->noted, "[kernel.kallsyms]", 17);
	const struct noted_id *id = n != UINT32_MAX ? strtab_val(s->noted, n) : NULL;
	char buf[4096];
	const char *file;
	size_t len;
	char *text;

	/* A vmlinux first, unless a kallsyms file was named (as perf). */
	if (!s->o.kallsyms && perfsym_kernel_vmlinux(&f->f, &s->o, id ? id->id : NULL,
						     id ? id->len : 0, ref[0] ? ref : "_text",
						     &s->kref, &s->kref_found) == 0)
		return 0;
	perfsym_file_release(&f->f);
	memset(&f->f, 0, sizeof(f->f));
	file = perfsym_file_kallsyms(&s->o, id ? id->id : NULL, id ? id->len : 0, buf, sizeof(buf));
	text = perfsym_file_slurp(file, TEXT_MAX, &len);

	f->f.from = xstrndup(file, strlen(file));
	if (!text)
		return -1;
	s->kref_found = kallsyms_parse(text, len, &f->f.tab, ref[0] ? ref : "_text", &s->kref);
	free(text);
	perfsym_tab_finish(&f->f.tab, PERFSYM_TAB_KALLSYMS, NULL, NULL);
	f->kallsyms = 1;
	kernel_span(f);
	return f->f.tab.n ? 0 : -1;
}

static int is_kernel_text(const char *path)
{
	return starts(path, "[kernel.kallsyms]") || starts(path, "[guest.kernel.kallsyms");
}

/* The relocation is fixed by the first kernel map that tells it. */
static void kernel_delta(struct perfsym *s, const struct perfsym_map *m)
{
	if (s->kdelta_set || !is_kernel_text(m->path))
		return;
	s->kdelta_set = 1;
	if (s->kref_found && m->pgoff)
		s->kdelta = s->kref - m->pgoff;
}

static int load_jit(struct psfile *f)
{
	size_t len;
	char *text = perfsym_file_slurp(f->key, TEXT_MAX, &len);

	if (!text)
		return -1;
	kallsyms_parse_jit(text, len, &f->f.tab);
	free(text);
	perfsym_tab_finish(&f->f.tab, PERFSYM_TAB_JIT, NULL, NULL);
	f->f.from = xstrndup(f->key, strlen(f->key));
	return 0;
}

static void load(struct perfsym *s, struct psfile *f, const struct perfsym_map *m)
{
	const uint8_t *id;
	size_t idlen;
	int r = -1;

	switch (f->kind) {
	case K_KERNEL:
		r = load_kernel(s, f, m);
		break;
	case K_JIT:
		r = load_jit(f);
		break;
	case K_ELF:
		wanted_id(s, m, &id, &idlen);
		r = perfsym_file_load(&f->f, &s->o, m->path, id, idlen, held_name, s);
		break;
	case K_NONE:
	case K_DEFINED:
		break;
	}
	f->ok = r == 0;
	if (f->ok)
		s->st.files++;
	else if (f->kind != K_NONE)
		s->st.missing++;
}

static struct memo *memo_of(struct perfsym *s, const struct perfsym_map *m)
{
	return &s->memo[((uintptr_t)m->path >> 3) % MEMO_SLOTS];
}

static void remember(struct memo *mo, struct psfile *f, const struct perfsym_map *m)
{
	size_t n = strlen(m->path) + 1;

	xgrow(&mo->path, &mo->cap, n, 1);
	memcpy(mo->path, m->path, n);
	mo->bid_len = m->build_id && m->build_id_len ? (m->build_id_len < 20 ? m->build_id_len : 20) : 0;
	if (mo->bid_len)
		memcpy(mo->bid, m->build_id, mo->bid_len);
	mo->pid = m->pid;
	mo->f = f;
}

static int same_map(const struct memo *mo, const struct perfsym_map *m)
{
	size_t len = m->build_id ? (m->build_id_len < 20 ? m->build_id_len : 20) : 0;

	/* Only a JIT map's file depends on the process. */
	return mo->f && (mo->f->kind != K_JIT || m->pid == mo->pid) && len == mo->bid_len &&
	       strcmp(m->path, mo->path) == 0 && (!len || memcmp(m->build_id, mo->bid, len) == 0);
}

/* The file for map m, found, or read on first use. */
static struct psfile *file_for(struct perfsym *s, const struct perfsym_map *m)
{
	enum kind k;
	size_t len;
	uint32_t id;
	int added;
	struct psfile **slot, *f;
	struct memo *mo = memo_of(s, m);

	if (same_map(mo, m))
		return mo->f;
	k = kind_of(m->path);
	len = make_key(s, k, m);
	id = strtab_intern(s->files, s->keybuf, len, &added);
	slot = strtab_val(s->files, id);
	if (!added) {
		f = *slot;
	} else {
		f = *slot = xcalloc(1, sizeof(*f));
		f->kind = k;
		f->key = strtab_str(s->files, id, &f->key_len);
		xgrow(&s->byidx, &s->capfiles, s->nfiles + 1, sizeof(*s->byidx));
		s->byidx[s->nfiles++] = f;
		f->idx = (uint32_t)s->nfiles;
		load(s, f, m);
	}
	remember(mo, f, m);
	return f;
}

/* The slot of (file, addr) among mask + 1: the addresses are the
 * recording's, so placed with the process's secret multiplier
 * (hkey_slot), not a fixed one whose collisions could be chosen. */
static size_t slot_of(const struct perfsym *s, uint64_t addr, uint32_t file, size_t mask)
{
	return hkey_slot(addr ^ ((uint64_t)file << 48), s->hmul, mask + 1);
}

/* The cache slot for (file, addr): the entry, or the empty slot where
 * it goes. */
static struct slot *probe(const struct perfsym *s, uint32_t file, uint64_t addr)
{
	size_t i = slot_of(s, addr, file, s->cache_mask);

	while (s->cache[i].file && (s->cache[i].file != file || s->cache[i].addr != addr))
		i = (i + 1) & s->cache_mask;
	return &s->cache[i];
}

static void cache_grow(struct perfsym *s)
{
	struct slot *old = s->cache;
	size_t n = s->cache ? s->cache_mask + 1 : 0, i;

	if (s->cache_used >= CACHE_MAX) {
		memset(s->cache, 0, n * sizeof(*s->cache));
		s->cache_used = 0;
		return;
	}
	s->cache = xcalloc(n ? 2 * n : 4096, sizeof(*s->cache));
	s->cache_mask = (n ? 2 * n : 4096) - 1;
	for (i = 0; i < n; i++)
		if (old[i].file)
			*probe(s, old[i].file, old[i].addr) = old[i];
	free(old);
}

/* The name shown for sym: demangled (a PLT entry's target demangled,
 * "@plt" kept) for ELF files unless no_demangle; kernel and JIT names
 * as they are, as perf shows them. */
static uint32_t display_name(struct perfsym *s, const struct psfile *f, struct perfsym_sym *sym)
{
	const char *raw = perfsym_tab_raw(&f->f.tab, sym);
	char *d = NULL, *full = NULL;
	size_t len = strlen(raw);

	if (sym->name != PERFSYM_NONAME)
		return sym->name;
	if ((f->kind == K_ELF || f->kind == K_DEFINED) && !s->o.no_demangle) {
		if ((sym->flags & PERFSYM_PLT) && len > 4) {
			char *base = xstrndup(raw, len - 4);

			d = demangle_name(base);
			free(base);
			if (d) {
				full = xmalloc(strlen(d) + 5);
				sprintf(full, "%s@plt", d);
			}
		} else if (!(full = demangle_name(raw))) {
			full = demangle_java(raw);
		}
	}
	sym->name = full ? strtab_intern(s->names, full, strlen(full), NULL)
			 : strtab_intern(s->names, raw, len, NULL);
	free(d);
	free(full);
	return sym->name;
}

/* The address of ip in f's symbol space, or -1 when it has none. */
static int file_addr(struct perfsym *s, const struct psfile *f, const struct perfsym_map *m,
		     uint64_t ip, uint64_t *addr)
{
	switch (f->kind) {
	case K_ELF:
		/* The file offset, then the address its segment loads it at. */
		*addr = ip - m->start + m->pgoff;
		if (elfsym_vaddr(f->f.segs, f->f.nsegs, *addr, addr) != 0 && f->f.nsegs)
			return -1;
		return 0;
	case K_KERNEL:
		/* Modules load where they load: only the kernel's own text
		 * moves with the relocation (as perf splits kallsyms). */
		kernel_delta(s, m);
		*addr = is_kernel_text(m->path) ? ip + s->kdelta : ip;
		return 0;
	case K_JIT:
		*addr = ip;
		return 0;
	case K_DEFINED:
		*addr = ip - m->start;
		return 0;
	case K_NONE:
		break;
	}
	return -1;
}

const char *perfsym_lookup(struct perfsym *s, const struct perfsym_map *m, uint64_t ip,
			   uint64_t *off)
{
	struct psfile *f;
	struct slot *sl;
	uint64_t addr;

	s->st.lookups++;
	*off = 0;
	f = m->path ? file_for(s, m) : NULL;
	if (!f || !f->ok || file_addr(s, f, m, ip, &addr) != 0) {
		s->st.unknown++;
		return NULL;
	}
	if (!s->cache || s->cache_used * 2 >= s->cache_mask)
		cache_grow(s);
	sl = probe(s, f->idx, addr);
	if (!sl->file) {
		struct perfsym_sym *sym = perfsym_tab_find(&f->f.tab, addr);

		sl->file = f->idx;
		sl->addr = addr;
		sl->start = sym ? sym->start : addr;
		sl->name = sym ? display_name(s, f, sym) : PERFSYM_NONAME;
		s->cache_used++;
	}
	if (sl->name == PERFSYM_NONAME) {
		s->st.unknown++;
		return NULL;
	}
	*off = addr - sl->start;
	return strtab_str(s->names, sl->name, NULL);
}

int perfsym_names_none(struct perfsym *s, const struct perfsym_map *m)
{
	const struct psfile *f = m->path ? file_for(s, m) : NULL;

	return !f || !f->ok || f->kind == K_NONE;
}

int perfsym_kernel_span(struct perfsym *s, const struct perfsym_map *m, uint64_t *lo,
			uint64_t *hi)
{
	struct psfile *f = m->path ? file_for(s, m) : NULL;

	if (!f || !f->ok || !f->kallsyms || !is_kernel_text(m->path) || f->span_lo >= f->span_hi)
		return -1;
	kernel_delta(s, m);
	*lo = f->span_lo - s->kdelta;
	*hi = f->span_hi - s->kdelta;
	return 0;
}

static struct islot *iprobe(const struct perfsym *s, uint32_t file, uint64_t addr)
{
	size_t i = slot_of(s, addr, file, s->icache_mask);

	while (s->icache[i].file && (s->icache[i].file != file || s->icache[i].addr != addr))
		i = (i + 1) & s->icache_mask;
	return &s->icache[i];
}

/* Grows the chain cache, or past CACHE_MAX empties it (frames too). */
static void icache_grow(struct perfsym *s)
{
	struct islot *old = s->icache;
	size_t n = s->icache ? s->icache_mask + 1 : 0, i;

	if (s->icache_used >= CACHE_MAX || s->nifr >= 8 * CACHE_MAX) {
		memset(s->icache, 0, n * sizeof(*s->icache));
		s->icache_used = 0;
		s->nifr = 0;
		return;
	}
	s->icache = xcalloc(n ? 2 * n : 1024, sizeof(*s->icache));
	s->icache_mask = (n ? 2 * n : 1024) - 1;
	for (i = 0; i < n; i++)
		if (old[i].file)
			*iprobe(s, old[i].file, old[i].addr) = old[i];
	free(old);
}

/* Reads f's inline chain at addr into the cache entry sl: each name as
 * perf shows it (demangled as symbols are, "??" unnamed), inlined when
 * it is not the symbol's own name (perf then reuses the symbol). */
static void read_chain(struct perfsym *s, struct psfile *f, uint64_t addr, const char *name,
		       struct islot *sl)
{
	struct perfinline_frame fr[PERFINLINE_MAX];
	const struct perfsym_sym *sym = perfsym_tab_find(&f->f.tab, addr);
	size_t n = perfinline_chain(f->dwarf, addr, sym ? sym->start : UINT64_MAX, fr,
				    PERFINLINE_MAX), i;

	sl->first = (uint32_t)s->nifr;
	sl->n = (uint32_t)n;
	xgrow(&s->ifr, &s->capifr, s->nifr + n, sizeof(*s->ifr));
	for (i = 0; i < n; i++) {
		const char *raw = fr[i].symbol ? name : fr[i].name ? fr[i].name : "??";
		char *d = fr[i].symbol || s->o.no_demangle ? NULL : demangle_name(raw);
		const char *shown = d ? d : raw;

		s->ifr[s->nifr].name = strtab_intern(s->names, shown, strlen(shown), NULL);
		s->ifr[s->nifr++].inlined = strcmp(shown, name) != 0;
		free(d);
	}
}

size_t perfsym_inlines(struct perfsym *s, const struct perfsym_map *m, uint64_t ip,
		       const char *name, struct perfsym_inl *out, size_t max)
{
	struct psfile *f = m->path && name ? file_for(s, m) : NULL;
	struct islot *sl;
	uint64_t addr;
	size_t i;

	if (!f || !f->ok || f->kind != K_ELF || !f->f.from || file_addr(s, f, m, ip, &addr) != 0)
		return 0;
	if (!f->dwarf_tried) {
		f->dwarf_tried = 1;
		f->dwarf = perfinline_open(f->f.from);
		s->st.dwarf_files += f->dwarf != NULL;
	}
	if (!f->dwarf)
		return 0;
	if (!s->icache || s->icache_used * 2 >= s->icache_mask)
		icache_grow(s);
	sl = iprobe(s, f->idx, addr);
	if (!sl->file) {
		sl->file = f->idx;
		sl->addr = addr;
		read_chain(s, f, addr, name, sl);
		s->icache_used++;
	}
	for (i = 0; i < sl->n && i < max; i++) {
		out[i].name = strtab_str(s->names, s->ifr[sl->first + i].name, NULL);
		out[i].inlined = (int)s->ifr[sl->first + i].inlined;
	}
	return i;
}

void perfsym_define(struct perfsym *s, const char *path, const char *name, size_t len)
{
	struct perfsym_map m;
	struct psfile **slot, *f;
	size_t klen;
	uint32_t id;
	int added, i;

	memset(&m, 0, sizeof(m));
	m.path = path;
	klen = make_key(s, K_ELF, &m);
	id = strtab_intern(s->files, s->keybuf, klen, &added);
	slot = strtab_val(s->files, id);
	if (!added) {	/* looked up before: its cached names go too */
		f = *slot;
		perfsym_tab_release(&f->f.tab);
		perfsym_tab_init(&f->f.tab);
		if (s->cache)
			memset(s->cache, 0, (s->cache_mask + 1) * sizeof(*s->cache));
		s->cache_used = 0;
	} else {
		f = *slot = xcalloc(1, sizeof(*f));
		f->key = strtab_str(s->files, id, &f->key_len);
		xgrow(&s->byidx, &s->capfiles, s->nfiles + 1, sizeof(*s->byidx));
		s->byidx[s->nfiles++] = f;
		f->idx = (uint32_t)s->nfiles;
	}
	f->kind = K_DEFINED;
	f->ok = 1;
	f->dwarf_tried = 1;
	perfsym_tab_add(&f->f.tab, 0, UINT64_MAX, name, len, PERFSYM_GLOBAL);
	perfsym_tab_finish(&f->f.tab, PERFSYM_TAB_JIT, NULL, NULL);
	for (i = 0; i < MEMO_SLOTS; i++)	/* what path means has changed */
		s->memo[i].f = NULL;
}
