/* elfsym: what the symbol resolver reads from one ELF image with libelf:
 * its build id, PT_LOAD segments (file offset to virtual address), the
 * symbols of .symtab or .dynsym, the PLT entries perf synthesizes, the
 * .gnu_debuglink name and the MiniDebugInfo image (.gnu_debugdata).
 * Images may be hostile: every size and index is checked. */
#ifndef FLAME_ELFSYM_H
#define FLAME_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

#include "perfsym_tab.h"

struct elfsym_seg {
	uint64_t off;		/* p_offset */
	uint64_t vaddr;		/* p_vaddr */
	uint64_t filesz;	/* p_filesz */
	uint64_t memsz;		/* p_memsz */
};

struct elfsym {
	struct Elf *elf;		/* libelf handle */
	int fd;				/* the open file, or -1 for an image in memory */
	void *mem;			/* the image in memory (owned), or NULL */
	uint8_t build_id[20];		/* NT_GNU_BUILD_ID, zero padded */
	size_t build_id_len;		/* its length; 0: none */
	struct Elf_Scn *symtab;		/* SHT_SYMTAB with entries, or NULL */
	struct Elf_Scn *dynsym;		/* SHT_DYNSYM, or NULL */
	size_t dynsym_idx;		/* its section index */
	struct Elf_Scn *rel_plt;	/* .rela.plt or .rel.plt, or NULL */
	struct Elf_Scn *plt;		/* .plt, or NULL */
	struct Elf_Scn *debuglink;	/* .gnu_debuglink, or NULL */
	struct Elf_Scn *debugdata;	/* .gnu_debugdata, or NULL */
	struct elfsym_seg *segs;	/* PT_LOAD segments */
	size_t nsegs;			/* their number */
	unsigned machine;		/* e_machine */
};

/* Opens path as ELF.  Returns 0, or -1 (errno set when the file could
 * not be opened, EINVAL when it is not ELF) with nothing to close. */
int elfsym_open(struct elfsym *e, const char *path);

/* Reads the len bytes at buf as ELF; when owned, buf (from malloc) is
 * freed by elfsym_close, also on failure.  Returns 0 or -1. */
int elfsym_open_mem(struct elfsym *e, void *buf, size_t len, int owned);

void elfsym_close(struct elfsym *e);

/* Adds the symbols perf keeps from .symtab (dynamic 0) or .dynsym
 * (dynamic 1) to t, at their virtual addresses.  Returns how many, or -1
 * when the table is unreadable. */
long elfsym_load(struct elfsym *e, int dynamic, struct perfsym_tab *t);

/* Adds "NAME@plt" for each .plt entry.  Returns how many (0 when there
 * is no PLT or it cannot be read). */
long elfsym_load_plt(struct elfsym *e, struct perfsym_tab *t);

/* The file name .gnu_debuglink names, copied into buf; returns 0, or -1
 * when there is none. */
int elfsym_debuglink(struct elfsym *e, char *buf, size_t size);

/* Opens the xz-compressed image of .gnu_debugdata as inner.  Returns 0,
 * or -1 when there is none or it does not decompress into ELF. */
int elfsym_open_debugdata(struct elfsym *e, struct elfsym *inner);

/* The value of the .symtab symbol called name (any kind: vmlinux's
 * _text is a label); returns 0, or -1 when there is none. */
int elfsym_value(struct elfsym *e, const char *name, uint64_t *value);

/* The virtual address at file offset off, through the segments; returns
 * 0, or -1 when no segment holds off.  An offset past a segment's file
 * bytes but within its memory (its .bss, where a wild frame pointer
 * may land) counts as the segment's when no other holds it: perf shifts
 * .bss symbols by their section's address less its offset, the same. */
int elfsym_vaddr(const struct elfsym_seg *segs, size_t n, uint64_t off, uint64_t *vaddr);

#endif
