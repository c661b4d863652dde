/* elfsym: symbols, segments and build ids from ELF images, with libelf
 * (and liblzma for MiniDebugInfo). */
#include "elfsym.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* MiniDebugInfo holds symbols only; no real one comes near this. */
#define DEBUGDATA_MAX ((size_t)256 << 20)

static void note_build_id(struct elfsym *e, Elf_Scn *scn)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	if (!d)
		return;
	while ((next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp((const char *)d->d_buf + name_off, "GNU", 4) == 0 && nh.n_descsz > 0) {
			e->build_id_len = nh.n_descsz < 20 ? nh.n_descsz : 20;
			memcpy(e->build_id, (const char *)d->d_buf + desc_off, e->build_id_len);
			return;
		}
		off = next;
	}
}

/* Records the sections the resolver uses, by type and name. */
static void scan_sections(struct elfsym *e, size_t shstrndx)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e->elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB && sh.sh_size > 0)
			e->symtab = e->symtab ? e->symtab : scn;
		else if (sh.sh_type == SHT_DYNSYM && !e->dynsym)
			e->dynsym = scn, e->dynsym_idx = elf_ndxscn(scn);
		else if (sh.sh_type == SHT_NOTE && !e->build_id_len)
			note_build_id(e, scn);
		if (!name)
			continue;
		if ((sh.sh_type == SHT_RELA && strcmp(name, ".rela.plt") == 0) ||
		    (sh.sh_type == SHT_REL && strcmp(name, ".rel.plt") == 0))
			e->rel_plt = scn;
		else if (strcmp(name, ".plt") == 0 && sh.sh_type == SHT_PROGBITS)
			e->plt = scn;
		else if (strcmp(name, ".gnu_debuglink") == 0 && sh.sh_type != SHT_NOBITS)
			e->debuglink = scn;
		else if (strcmp(name, ".gnu_debugdata") == 0 && sh.sh_type != SHT_NOBITS)
			e->debugdata = scn;
	}
}

static void scan_segments(struct elfsym *e)
{
	size_t i, n;

	if (elf_getphdrnum(e->elf, &n) != 0)
		return;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		e->segs = xrealloc(e->segs, (e->nsegs + 1) * sizeof(*e->segs));
		e->segs[e->nsegs].off = ph.p_offset;
		e->segs[e->nsegs].vaddr = ph.p_vaddr;
		e->segs[e->nsegs].filesz = ph.p_filesz;
		e->segs[e->nsegs].memsz = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		e->nsegs++;
	}
}

static int setup(struct elfsym *e)
{
	size_t shstrndx;

	if (elf_kind(e->elf) != ELF_K_ELF || elf_getshdrstrndx(e->elf, &shstrndx) != 0) {
		elfsym_close(e);
		errno = EINVAL;
		return -1;
	}
	e->machine = 0;
	{
		GElf_Ehdr eh;

		if (gelf_getehdr(e->elf, &eh))
			e->machine = eh.e_machine;
	}
	scan_sections(e, shstrndx);
	scan_segments(e);
	return 0;
}

int elfsym_open(struct elfsym *e, const char *path)
{
	memset(e, 0, sizeof(*e));
	e->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (e->fd < 0)
		return -1;
	/* Private: elf_compress may rewrite a compressed section in place. */
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (!e->elf) {
		close(e->fd);
		e->fd = -1;
		errno = EINVAL;
		return -1;
	}
	return setup(e);
}

int elfsym_open_mem(struct elfsym *e, void *buf, size_t len, int owned)
{
	memset(e, 0, sizeof(*e));
	e->fd = -1;
	e->mem = owned ? buf : NULL;
	e->elf = elf_memory(buf, len);
	if (!e->elf) {
		free(e->mem);
		e->mem = NULL;
		return -1;
	}
	return setup(e);
}

void elfsym_close(struct elfsym *e)
{
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	free(e->mem);
	free(e->segs);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

/* The section's data, decompressed first when SHF_COMPRESSED. */
static Elf_Data *section_data(Elf_Scn *scn)
{
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
		return NULL;
	if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
		return NULL;
	return elf_getdata(scn, NULL);
}

/* Whether section shndx's name says text, as perf requires of labels. */
static int in_text(struct elfsym *e, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(e->elf, shndx);
	size_t shstrndx;
	const char *name;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || elf_getshdrstrndx(e->elf, &shstrndx) != 0)
		return 0;
	name = elf_strptr(e->elf, shstrndx, sh.sh_name);
	return name && strstr(name, "text") != NULL;
}

/* perf keeps functions (IFUNCs too) and objects, and untyped labels in
 * text sections unless hidden; never undefined or absolute ones. */
static int keep(struct elfsym *e, const GElf_Sym *s, const char *name)
{
	unsigned type = GELF_ST_TYPE(s->st_info), vis = GELF_ST_VISIBILITY(s->st_other);

	if (s->st_name == 0 || s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE)
		return 0;
	/* ARM's mapping symbols ($a, $d, $t, $x) mark code and data, not
	 * functions. */
	if ((e->machine == EM_ARM || e->machine == EM_AARCH64) && name[0] == '$' &&
	    strchr("adtx", name[1]) && name[1] && (name[2] == '\0' || name[2] == '.'))
		return 0;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return 1;
	return type == STT_NOTYPE && vis != STV_HIDDEN && vis != STV_INTERNAL &&
	       in_text(e, s->st_shndx);
}

static unsigned bind_flags(const GElf_Sym *s)
{
	switch (GELF_ST_BIND(s->st_info)) {
	case STB_WEAK:
		return PERFSYM_WEAK;
	case STB_GLOBAL:
		return PERFSYM_GLOBAL;
	}
	return 0;
}

long elfsym_load(struct elfsym *e, int dynamic, struct perfsym_tab *t)
{
	Elf_Scn *scn = dynamic ? e->dynsym : e->symtab;
	Elf_Data *d, *sd;
	size_t i, n, ent = gelf_fsize(e->elf, ELF_T_SYM, 1, EV_CURRENT);
	long kept = 0;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || !ent || !(d = section_data(scn)) ||
	    !(sd = section_data(elf_getscn(e->elf, sh.sh_link))) || !sd->d_buf)
		return -1;
	n = d->d_size / ent;
	for (i = 1; i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s) || s.st_name >= sd->d_size)
			continue;
		name = (const char *)sd->d_buf + s.st_name;
		if (!keep(e, &s, name))
			continue;
		if (perfsym_tab_add(t, s.st_value, s.st_size, name, sd->d_size - s.st_name,
				    bind_flags(&s)) < 0)
			break;
		kept++;
	}
	return kept;
}

/* The PLT's header and entry sizes, as perf takes them per machine. */
static void plt_sizes(unsigned machine, uint64_t entsize, uint64_t *header, uint64_t *entry)
{
	switch (machine) {
	case EM_ARM:
		*header = 20, *entry = 12;
		break;
	case EM_AARCH64:
		*header = 32, *entry = 16;
		break;
	case EM_SPARC:
		*header = 48, *entry = 12;
		break;
	case EM_SPARCV9:
		*header = 128, *entry = 32;
		break;
	default:
		*header = entsize, *entry = entsize;
	}
}

/* The dynamic symbol of PLT relocation i, or -1. */
static long plt_symbol(Elf_Data *rd, int rela, size_t i)
{
	GElf_Rela ra;
	GElf_Rel r;

	if (rela)
		return gelf_getrela(rd, (int)i, &ra) ? (long)GELF_R_SYM(ra.r_info) : -1;
	return gelf_getrel(rd, (int)i, &r) ? (long)GELF_R_SYM(r.r_info) : -1;
}

long elfsym_load_plt(struct elfsym *e, struct perfsym_tab *t)
{
	GElf_Shdr rsh, psh, dsh;
	Elf_Data *rd, *dd, *sd;
	uint64_t header, entry, addr;
	size_t i, n, ent;
	long added = 0;
	int rela;

	if (!e->rel_plt || !e->plt || !e->dynsym || !gelf_getshdr(e->rel_plt, &rsh) ||
	    !gelf_getshdr(e->plt, &psh) || !gelf_getshdr(e->dynsym, &dsh) ||
	    rsh.sh_link != e->dynsym_idx)
		return 0;
	rela = rsh.sh_type == SHT_RELA;
	ent = gelf_fsize(e->elf, rela ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
	plt_sizes(e->machine, psh.sh_entsize, &header, &entry);
	if (!ent || !entry || !(rd = section_data(e->rel_plt)) || !(dd = section_data(e->dynsym)) ||
	    !(sd = section_data(elf_getscn(e->elf, dsh.sh_link))) || !sd->d_buf)
		return 0;
	n = rd->d_size / ent;
	addr = psh.sh_addr + header;
	for (i = 0; i < n; i++, addr += entry) {
		long si = plt_symbol(rd, rela, i);
		char name[1024];
		GElf_Sym s;

		if (si < 0 || !gelf_getsym(dd, (int)si, &s) || s.st_name >= sd->d_size)
			continue;
		snprintf(name, sizeof(name), "%.*s@plt", (int)strnlen((const char *)sd->d_buf + s.st_name,
			 sd->d_size - s.st_name), (const char *)sd->d_buf + s.st_name);
		if (perfsym_tab_add(t, addr, entry, name, strlen(name), PERFSYM_GLOBAL | PERFSYM_PLT) < 0)
			break;
		added++;
	}
	return added;
}

int elfsym_debuglink(struct elfsym *e, char *buf, size_t size)
{
	Elf_Data *d = section_data(e->debuglink);
	size_t len;

	if (!d || !d->d_buf || !size)
		return -1;
	len = strnlen(d->d_buf, d->d_size);
	if (len == 0 || len == d->d_size || len >= size || memchr(d->d_buf, '/', len))
		return -1;
	memcpy(buf, d->d_buf, len + 1);
	return 0;
}

/* Decompresses the xz stream at in; returns a malloc'd image or NULL. */
static void *unxz(const void *in, size_t len, size_t *out_len)
{
	lzma_stream st = LZMA_STREAM_INIT;
	unsigned char *buf = NULL;
	size_t cap = 0, used = 0;
	lzma_ret r = LZMA_OK;

	if (lzma_stream_decoder(&st, UINT64_MAX, 0) != LZMA_OK)
		return NULL;
	st.next_in = in;
	st.avail_in = len;
	while (r == LZMA_OK) {
		if (used == cap) {
			if (cap >= DEBUGDATA_MAX)
				break;
			xgrow(&buf, &cap, used + 65536, 1);
		}
		st.next_out = buf + used;
		st.avail_out = cap - used;
		r = lzma_code(&st, LZMA_FINISH);
		used = cap - st.avail_out;
	}
	lzma_end(&st);
	if (r != LZMA_STREAM_END) {
		free(buf);
		return NULL;
	}
	*out_len = used;
	return buf;
}

int elfsym_open_debugdata(struct elfsym *e, struct elfsym *inner)
{
	Elf_Data *d = section_data(e->debugdata);
	size_t len;
	void *img;

	if (!d || !d->d_buf || !(img = unxz(d->d_buf, d->d_size, &len)))
		return -1;
	return elfsym_open_mem(inner, img, len, 1);
}

int elfsym_vaddr(const struct elfsym_seg *segs, size_t n, uint64_t off, uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (off >= segs[i].off && off - segs[i].off < segs[i].filesz) {
			*vaddr = off - segs[i].off + segs[i].vaddr;
			return 0;
		}
	for (i = 0; i < n; i++)
		if (off >= segs[i].off && off - segs[i].off < segs[i].memsz) {
			*vaddr = off - segs[i].off + segs[i].vaddr;
			return 0;
		}
	return -1;
}

int elfsym_value(struct elfsym *e, const char *name, uint64_t *value)
{
	Elf_Data *d, *sd;
	size_t i, n, ent = gelf_fsize(e->elf, ELF_T_SYM, 1, EV_CURRENT), len = strlen(name);
	GElf_Shdr sh;

	if (!e->symtab || !gelf_getshdr(e->symtab, &sh) || !ent || !(d = section_data(e->symtab)) ||
	    !(sd = section_data(elf_getscn(e->elf, sh.sh_link))) || !sd->d_buf)
		return -1;
	n = d->d_size / ent;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(d, (int)i, &sym) || sym.st_name >= sd->d_size ||
		    sd->d_size - sym.st_name <= len)
			continue;
		if (memcmp((const char *)sd->d_buf + sym.st_name, name, len + 1) == 0) {
			*value = sym.st_value;
			return 0;
		}
	}
	return -1;
}
