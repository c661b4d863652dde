/* perfunwind: the user stacks of `perf record --call-graph dwarf`, where
 * each sample carries its user registers (REGS_USER) and a copy of the
 * top of its stack (STACK_USER) instead of a call chain.  The frames are
 * unwound with the DWARF call frame information of the files mapped at
 * the addresses met (elfutils' libdwfl).  One Dwfl per process is kept, so
 * each file's CFI is read once however many samples use it.  x86-64 only
 * for now: other machines unwind no frames and say so in the stats. */
#ifndef FLAME_PERFUNWIND_H
#define FLAME_PERFUNWIND_H

#include <stddef.h>
#include <stdint.h>

struct perfunwind;

/* A mapping of a process, as its MMAP/MMAP2 record gave it. */
struct perfunwind_map {
	uint64_t start, end;	/* [start, end) */
	uint64_t pgoff;		/* file offset of start */
	const char *path;	/* the file ("/usr/lib/..."), or a pseudo name */
};

/* Finds the mapping of process pid holding addr into *m: 0, or -1. */
typedef int perfunwind_map_fn(void *ctx, uint32_t pid, uint64_t addr, struct perfunwind_map *m);

/* perf's x86-64 register numbers (PERF_REG_X86_*) for the regs mask. */
enum {
	PU_AX, PU_BX, PU_CX, PU_DX, PU_SI, PU_DI, PU_BP, PU_SP, PU_IP,
	PU_R8 = 16, PU_R15 = 23
};

/* One sample's user state: regs[i] is the value of the i-th register
 * set in mask (REGS_USER order, native byte order); stack is the copy of
 * the stack from the sampled SP up (size bytes). */
struct perfunwind_sample {
	uint32_t pid, tid;
	uint64_t mask;
	const uint64_t *regs;
	size_t nregs;
	const unsigned char *stack;
	size_t size;
};

struct perfunwind_stats {
	uint64_t samples;	/* stacks asked for */
	uint64_t failed;	/* of which no frame past the first unwound */
	uint64_t files;		/* files reported to libdwfl */
	uint64_t missing;	/* files that could not be opened */
};

/* An unwinder looking files up under symfs (NULL: /), asking find for
 * the mappings.  Free with perfunwind_free. */
struct perfunwind *perfunwind_new(const char *symfs, perfunwind_map_fn *find, void *ctx);

void perfunwind_free(struct perfunwind *u);

/* Unwinds s into ips (at most max): the sampled IP first, then each
 * caller's return address less one (inside its call), as perf script
 * lists them.  Returns how many; 0
 * when the registers lack IP or SP. */
size_t perfunwind_stack(struct perfunwind *u, const struct perfunwind_sample *s, uint64_t *ips,
			size_t max);

const struct perfunwind_stats *perfunwind_stats(const struct perfunwind *u);

#endif
