/* perfinline: inlined functions from DWARF.  The compile units' address
 * ranges are read once into a sorted table; an address then costs one
 * search, libdw's walk of that unit's scopes to the innermost one, and
 * the walk back up through the inlined instances to their function. */
#include "perfinline.h"
#include "hkey.h"
#include "xalloc.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Address ranges past this many are not read (a hostile file's). */
#define RANGES_MAX ((size_t)1 << 22)

struct curange {
	uint64_t lo, hi;	/* [lo, hi) */
	Dwarf_Off die;		/* the unit's DIE */
};

/* What binutils made of a function without a linkage name. */
enum { SEEN = 1, RENAMED = 2 };

struct fnstate {
	Dwarf_Off die;		/* the function's DIE; 0: empty slot */
	unsigned state;		/* SEEN, RENAMED */
};

struct perfinline {
	int fd;				/* the file, or -1 */
	void *mem;			/* or its image in memory (owned) */
	Elf *elf;			/* its ELF */
	Dwarf *dw;			/* its DWARF */
	struct curange *r;		/* units' ranges, sorted by lo */
	size_t n, cap;			/* used and allocated */
	int ranged;			/* r was read */
	struct fnstate *fs;		/* functions met, open addressing */
	size_t fs_mask, fs_used;	/* size - 1 (0: none yet) and entries */
	uint64_t hmul;			/* hkey_odd's: fs's slots */
};

/* Whether the file has a section named .debug_line (perf's own test
 * before it runs addr2line). */
static int has_debug_line(Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && strcmp(name, ".debug_line") == 0)
			return 1;
	}
	return 0;
}

/* Takes elf (and fd, -1 for an image in memory, and mem, owned or
 * NULL) when it has DWARF with line tables; else releases them. */
static struct perfinline *from_elf(Elf *elf, int fd, void *mem)
{
	struct perfinline *p;
	Dwarf *dw = NULL;

	if (!elf || elf_kind(elf) != ELF_K_ELF || !has_debug_line(elf) ||
	    !(dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL))) {
		if (elf)
			elf_end(elf);
		if (fd >= 0)
			close(fd);
		free(mem);
		return NULL;
	}
	p = xcalloc(1, sizeof(*p));
	p->hmul = hkey_odd();
	p->fd = fd;
	p->elf = elf;
	p->dw = dw;
	p->mem = mem;
	return p;
}

struct perfinline *perfinline_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	return from_elf(elf_begin(fd, ELF_C_READ_MMAP, NULL), fd, NULL);
}

struct perfinline *perfinline_open_mem(const void *buf, size_t len)
{
	void *mem = xmalloc(len ? len : 1);

	memcpy(mem, buf, len);
	elf_version(EV_CURRENT);
	return from_elf(elf_memory(mem, len), -1, mem);
}

void perfinline_free(struct perfinline *p)
{
	if (!p)
		return;
	dwarf_end(p->dw);
	elf_end(p->elf);
	if (p->fd >= 0)
		close(p->fd);
	free(p->mem);
	free(p->r);
	free(p->fs);
	free(p);
}

static int by_lo(const void *a, const void *b)
{
	const struct curange *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo ? 1 : x->die < y->die ? -1 : x->die > y->die;
}

static void add_unit(struct perfinline *p, Dwarf_Die *cu)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while (p->n < RANGES_MAX && (off = dwarf_ranges(cu, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		xgrow(&p->r, &p->cap, p->n + 1, sizeof(*p->r));
		p->r[p->n++] = (struct curange){ lo, hi, dwarf_dieoffset(cu) };
	}
}

static void read_ranges(struct perfinline *p)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Half version;
	uint8_t type;
	Dwarf_Die die;

	p->ranged = 1;
	while (p->n < RANGES_MAX && dwarf_get_units(p->dw, cu, &cu, &version, &type, &die, NULL) == 0)
		if (type == DW_UT_compile || type == DW_UT_partial || type == DW_UT_skeleton)
			add_unit(p, &die);
	if (p->n)
		qsort(p->r, p->n, sizeof(*p->r), by_lo);
}

/* The unit whose ranges hold addr into *cu: 0, or -1. */
static int unit_of(struct perfinline *p, uint64_t addr, Dwarf_Die *cu)
{
	size_t lo = 0, hi;

	if (!p->ranged)
		read_ranges(p);
	hi = p->n;
	while (lo < hi) {	/* the first range starting past addr */
		size_t mid = lo + (hi - lo) / 2;

		if (p->r[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= p->r[lo - 1].hi)
		return -1;
	return dwarf_offdie(p->dw, p->r[lo - 1].die, cu) ? 0 : -1;
}

/* Whether addr2line (binutils) takes a DW_AT_name in units of language
 * lang as the name to print; in the others it prefers the ELF symbol. */
static int name_is_linkage(int lang)
{
	switch (lang) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_C99: case DW_LANG_C11:
	case DW_LANG_Cobol74: case DW_LANG_Cobol85: case DW_LANG_Fortran77:
	case DW_LANG_Pascal83: case DW_LANG_PLI: case DW_LANG_UPC:
	case DW_LANG_Mips_Assembler:
		return 1;
	default:
		return 0;
	}
}

static const char *attr_string(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, name, &a) ? dwarf_formstring(&a) : NULL;
}

/* The start of die's first non-empty range, as binutils keeps it. */
static uint64_t first_low(Dwarf_Die *die)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0)
		if (hi > lo)
			return lo;
	return UINT64_MAX;
}

static struct fnstate *fs_slot(struct perfinline *p, Dwarf_Off die)
{
	/* The offsets are the file's: placed with the process's secret
	 * multiplier (hkey_slot). */
	size_t i = hkey_slot(die, p->hmul, p->fs_mask + 1);

	while (p->fs[i].die && p->fs[i].die != die)
		i = (i + 1) & p->fs_mask;
	return &p->fs[i];
}

/* The state of the function at die (added when new). */
static struct fnstate *fs_get(struct perfinline *p, Dwarf_Off die)
{
	struct fnstate *f;

	if (!p->fs || p->fs_used * 2 >= p->fs_mask) {
		struct fnstate *old = p->fs;
		size_t n = p->fs ? p->fs_mask + 1 : 0, i;

		p->fs = xcalloc(n ? 2 * n : 256, sizeof(*p->fs));
		p->fs_mask = (n ? 2 * n : 256) - 1;
		for (i = 0; i < n; i++)
			if (old[i].die)
				*fs_slot(p, old[i].die) = old[i];
		free(old);
	}
	f = fs_slot(p, die);
	if (!f->die) {
		f->die = die;
		p->fs_used++;
	}
	return f;
}

/* Names die as binutils does (see perfinline_chain); inner: it is the
 * innermost function at the address. */
static void name_of(struct perfinline *p, Dwarf_Die *die, int lang, int inner,
		    uint64_t sym_start, struct perfinline_frame *f)
{
	struct fnstate *st;

	f->symbol = 0;
	f->name = attr_string(die, DW_AT_linkage_name);
	if (!f->name)
		f->name = attr_string(die, DW_AT_MIPS_linkage_name);
	if (f->name)
		return;
	f->name = attr_string(die, DW_AT_name);
	if (name_is_linkage(lang))
		return;
	st = fs_get(p, dwarf_dieoffset(die));
	if (inner && !(st->state & SEEN)) {
		st->state = SEEN | (first_low(die) == sym_start ? RENAMED : 0);
		f->symbol = 1;
	}
	if (st->state & RENAMED)
		f->symbol = 1;
}

size_t perfinline_chain(struct perfinline *p, uint64_t addr, uint64_t sym_start,
			struct perfinline_frame *out, size_t max)
{
	Dwarf_Die cu, *scopes = NULL, *up = NULL;
	int n, k, i, lang;
	size_t got = 0;

	if (!max || unit_of(p, addr, &cu) != 0)
		return 0;
	lang = dwarf_srclang(&cu);
	n = dwarf_getscopes(&cu, addr, &scopes);
	/* The innermost scope; its lexical parents (not the scopes of an
	 * inlined function's definition, which dwarf_getscopes gives after
	 * it) lead to the callers. */
	k = n > 0 ? dwarf_getscopes_die(&scopes[0], &up) : 0;
	for (i = 0; i < k && got < max; i++) {
		int tag = dwarf_tag(&up[i]);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		name_of(p, &up[i], lang, got == 0, sym_start, &out[got]);
		got++;
		if (tag == DW_TAG_subprogram)
			break;
	}
	free(scopes);
	free(up);
	return got;
}
