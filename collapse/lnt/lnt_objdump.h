/* lnt_objdump: what LNT's perf.data importer (cPerf) asks objdump about a
 * binary, asked the same way: its executable segment (objdump -p), its
 * function symbols in .text (objdump -t -T -C) and a function's
 * disassembly (objdump -d --no-show-raw-insn with start and stop
 * addresses).  objdump runs without a shell (file names come from the
 * recording); its output is parsed here, and lines that do not parse are
 * skipped, as cPerf skips them. */
#ifndef FLAME_LNT_OBJDUMP_H
#define FLAME_LNT_OBJDUMP_H

#include <stddef.h>
#include <stdint.h>

#define LNT_OBJDUMP_LINE 65536	/* longer lines are skipped */

/* A function symbol: [start, end) in the file's virtual addresses. */
struct lnt_sym {
	uint64_t start, end;	/* its extent */
	char *name;		/* demangled, with a visibility prefix as
				   objdump prints it (".hidden f"); owned */
};

/* Fills *off and *vaddr with the file offset and virtual address of
 * file's first executable segment (both 0 when objdump names none, as
 * cPerf takes it).  Returns 0, or -1 when objdump could not be run. */
int lnt_objdump_segment(const char *objdump, const char *file, uint64_t *off, uint64_t *vaddr);

/* The function symbols of file in .text, sorted by start, one per start
 * address (the longest; equal ones by name): *n of them, the array and
 * names for the caller to free with lnt_objdump_free_syms.  NULL with
 * *n = 0 when there are none or objdump could not be run. */
struct lnt_sym *lnt_objdump_syms(const char *objdump, const char *file, size_t *n);

void lnt_objdump_free_syms(struct lnt_sym *s, size_t n);

/* Receives one instruction: its address and its text (len bytes, what
 * follows "ADDR:" on objdump's line, tabs kept).  Returns 0, or -1 to
 * stop. */
typedef int lnt_insn_fn(void *ctx, uint64_t addr, const char *text, size_t len);

/* Calls fn for each instruction objdump prints for [start, end) of file,
 * in its order, stopping at the first address at or past end (objdump is
 * asked for 4 bytes more, as cPerf asks).  Returns 0, or -1 when objdump
 * could not be run. */
int lnt_objdump_disasm(const char *objdump, const char *file, uint64_t start, uint64_t end,
		       lnt_insn_fn *fn, void *ctx);

/* The line parsers, one line (len bytes, no newline) each; exported for
 * the fuzz target.  A symbol line: 1 and *s filled (name owned by the
 * caller) when it is a function in .text, else 0.  An instruction line:
 * 1 with *addr and the text's offset in *at, else 0.  A program header's
 * pair of lines: 1 with off and vaddr from prev when line is an
 * executable segment's flags line, else 0. */
int lnt_objdump_symline(const char *line, size_t len, struct lnt_sym *s);
int lnt_objdump_insnline(const char *line, size_t len, uint64_t *addr, size_t *at);
int lnt_objdump_segline(const char *prev, size_t plen, const char *line, size_t len, uint64_t *off,
			uint64_t *vaddr);

#endif
