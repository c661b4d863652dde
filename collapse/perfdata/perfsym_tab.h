/* perfsym_tab: one file's symbols, sorted and with their ends fixed the
 * way perf fixes them, searched by address.  Names are kept raw (as the
 * file spells them) in one blob; perfsym.c demangles and interns a name
 * the first time a lookup returns it. */
#ifndef FLAME_PERFSYM_TAB_H
#define FLAME_PERFSYM_TAB_H

#include <stddef.h>
#include <stdint.h>

#define PERFSYM_NONAME UINT32_MAX

enum {
	PERFSYM_WEAK = 1,	/* STB_WEAK (kallsyms 'W'/'w') */
	PERFSYM_GLOBAL = 2,	/* STB_GLOBAL (kallsyms upper case) */
	PERFSYM_PLT = 4,	/* a synthesized "NAME@plt": demangle NAME only */
	PERFSYM_MODULE = 8,	/* a kallsyms symbol of a module ("[mod]") */
	PERFSYM_UNSIZED = 16,	/* its end was given by perfsym_tab_finish */
	PERFSYM_DEAD = 32	/* dropped by perfsym_tab_finish (private) */
};

struct perfsym_sym {
	uint64_t start;		/* first address */
	uint64_t end;		/* one past the last; == start while unsized */
	uint32_t raw;		/* offset of the raw name in the table's blob */
	uint32_t name;		/* interned display name, PERFSYM_NONAME until asked */
	uint32_t seq;		/* order of addition: equal starts keep it */
	uint8_t flags;		/* PERFSYM_* */
};

struct perfsym_tab {
	struct perfsym_sym *v;	/* symbols, sorted by start after finish */
	size_t n, cap;		/* used and allocated */
	char *blob;		/* raw names, each NUL-terminated */
	size_t blen, bcap;	/* used and allocated bytes of blob */
	uint32_t *kids;		/* ELF, JIT: perf's tree, left and right of v[i]
				   at 2i and 2i+1 (UINT32_MAX: none), or NULL */
	uint32_t root;		/* the tree's root */
};

void perfsym_tab_init(struct perfsym_tab *t);
void perfsym_tab_release(struct perfsym_tab *t);

/* Adds a symbol named by the len bytes at name (cut at a NUL) covering
 * [start, start + size); size 0 is fixed by perfsym_tab_finish.  Returns
 * -1 (adding nothing) when the names would pass 4 GiB. */
int perfsym_tab_add(struct perfsym_tab *t, uint64_t start, uint64_t size, const char *name,
		    size_t len, unsigned flags);

enum perfsym_tab_kind {
	PERFSYM_TAB_ELF,	/* symbols of an ELF file */
	PERFSYM_TAB_KALLSYMS,	/* the kernel's, modules' symbols marked */
	PERFSYM_TAB_JIT		/* a perf-PID.map: sizes as given, no fixing */
};

/* Sorts; for ELF and kallsyms also gives unsized symbols an end as perf
 * does (the next symbol's start, for kallsyms not across a kernel/module
 * boundary, the last one to the page after its start) and keeps one
 * symbol per start address by perf's preference.  shown(ctx, raw)
 * returns a name as perf holds it (demangled; the caller frees it), or
 * NULL to take the raw name; its leading underscores and length are the
 * last tie-breaks.  shown may be NULL.  A JIT map keeps every entry, as
 * perf does (sizes as given, none fixed), and of entries that overlap the
 * one perf's tree meets first is found. */
void perfsym_tab_finish(struct perfsym_tab *t, enum perfsym_tab_kind kind,
			char *(*shown)(void *ctx, const char *raw), void *ctx);

/* The symbol holding addr, or NULL.  In an ELF table it is the one
 * perf's search of its symbol tree meets first (perfsym_rb.h), as in a
 * JIT map. */
struct perfsym_sym *perfsym_tab_find(const struct perfsym_tab *t, uint64_t addr);

/* The raw name of s. */
static inline const char *perfsym_tab_raw(const struct perfsym_tab *t, const struct perfsym_sym *s)
{
	return t->blob + s->raw;
}

#endif
