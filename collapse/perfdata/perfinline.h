/* perfinline: the functions inlined at an address of one ELF file, read
 * from its DWARF debug info with libdw, as `addr2line -f -i` lists them
 * (which is what perf script asks for the frames of a DWARF-unwound
 * stack).  Files without a .debug_line section give nothing, as perf
 * asks addr2line only about those.  Debug info may be hostile: libdw
 * checks it, and a chain is cut at PERFINLINE_MAX frames. */
#ifndef FLAME_PERFINLINE_H
#define FLAME_PERFINLINE_H

#include <stddef.h>
#include <stdint.h>

/* perf keeps the first function and at most 256 callers of it. */
#define PERFINLINE_MAX 257

struct perfinline;

/* One function of a chain. */
struct perfinline_frame {
	const char *name;	/* linkage (mangled) name, else DW_AT_name;
				   NULL: unnamed ("??" for addr2line) */
	int symbol;		/* addr2line names it after the ELF symbol
				   holding the address instead */
};

/* Opens path's DWARF.  Returns NULL when the file cannot be read, is not
 * ELF, has no .debug_line section, or no DWARF libdw accepts. */
struct perfinline *perfinline_open(const char *path);

/* The same over the len bytes at buf (copied), for tests. */
struct perfinline *perfinline_open_mem(const void *buf, size_t len);

/* perfinline_free(NULL) does nothing; names returned die with p. */
void perfinline_free(struct perfinline *p);

/* The functions whose code holds addr (a virtual address of the file),
 * innermost first: the inlined ones, then the one they were inlined
 * into.  sym_start is where the ELF symbol holding addr starts.  Writes
 * at most max to out; returns how many (0: the address is in no
 * function the DWARF describes).
 *
 * A function without a linkage name, in a language that mangles, is
 * named as binutils names it, which depends on the lookups before: the
 * first time it is the innermost one it takes the symbol's name, and it
 * keeps that name for good only when the symbol starts where it does;
 * after that its DW_AT_name.  perf asks one addr2line process per file,
 * so asking in perf's order gives perf's names. */
size_t perfinline_chain(struct perfinline *p, uint64_t addr, uint64_t sym_start,
			struct perfinline_frame *out, size_t max);

#endif
