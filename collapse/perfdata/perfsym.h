/* perfsym: function names for the addresses of a perf.data recording, the
 * way perf resolves them: ELF .symtab, else .dynsym, PLT entries, the
 * build-id cache, separate debug files, MiniDebugInfo, the kernel from
 * kallsyms, [vdso], JIT maps (/tmp/perf-PID.map).  Files are opened on
 * first use and kept; lookups are cached per (file, address).
 *
 * The reader (perfdata.c) tracks the maps of each process and asks for
 * one address at a time; this module knows nothing of the recording's
 * records. */
#ifndef FLAME_PERFSYM_H
#define FLAME_PERFSYM_H

#include <stddef.h>
#include <stdint.h>

struct perfsym;

struct perfsym_opts {
	const char *symfs;	/* --symfs DIR: files looked up under DIR, or NULL */
	const char *kallsyms;	/* kernel symbols file; NULL: /proc/kallsyms */
	int no_demangle;	/* keep mangled C++/Rust names */
	const char *buildid_dir;	/* build-id cache; NULL: $PERF_BUILDID_DIR,
					   else ~/.debug; "": none (tests) */
};

/* One mapping of a process, as the recording's MMAP/MMAP2 record gave it. */
struct perfsym_map {
	const char *path;		/* file name as recorded ("[kernel.kallsyms]_text",
					   "[vdso]", "/tmp/perf-12.map", "//anon", ...) */
	uint64_t start;			/* first address mapped */
	uint64_t len;			/* bytes mapped */
	uint64_t pgoff;			/* file offset of start (for the kernel map:
					   the address of its reference symbol) */
	const uint8_t *build_id;	/* from the recording, or NULL */
	size_t build_id_len;		/* its bytes (up to 20) */
	uint32_t pid;			/* the process (for perf-PID.map) */
};

/* Returns a resolver (o copied; NULL: defaults).  Free with perfsym_free. */
struct perfsym *perfsym_new(const struct perfsym_opts *o);

/* Frees s and every name it returned.  perfsym_free(NULL) does nothing. */
void perfsym_free(struct perfsym *s);

/* Notes a build id the recording lists for path (HEADER_BUILD_ID), used
 * when a map carries none.  The kernel's is noted under
 * "[kernel.kallsyms]": when it is not the running kernel's, its kallsyms
 * is read from the build-id cache (as perf does). */
void perfsym_note_build_id(struct perfsym *s, const char *path, const uint8_t *id, size_t len);

/* Says that the file recorded as path holds one function, name (len
 * bytes), over all its addresses: the code a JIT described in its
 * jitdump, which `perf inject --jit` turns into such files.  Lookups in
 * maps of path give it (demangled as ELF names are); defining a path
 * again replaces its name. */
void perfsym_define(struct perfsym *s, const char *path, const char *name, size_t len);

/* The name of the function holding ip (an address inside map m, as
 * sampled), or NULL when it cannot be named (perf script's "[unknown]").
 * *off gets ip's offset into the function.  The name is demangled unless
 * no_demangle, and stays valid until perfsym_free.  m->path picks the
 * source: "[kernel.kallsyms]..." and modules ("[name]", "*.ko") kallsyms,
 * "//anon" and other anonymous memory /tmp/perf-PID.map (m->pid), [vdso]
 * the build-id cache or this machine's own vdso when the build id is
 * its, other paths the ELF file (never one whose build id differs). */
const char *perfsym_lookup(struct perfsym *s, const struct perfsym_map *m, uint64_t ip,
			   uint64_t *off);

/* 1 when perfsym_lookup names no address of m at all (its file has no
 * symbols, or is missing), else 0; for after a lookup in m (else its file
 * is read now).  Holds until perfsym_define or perfsym_note_build_id. */
int perfsym_names_none(struct perfsym *s, const struct perfsym_map *m);

/* What the name perfsym_lookup gives for an address of a map of this
 * path follows, for callers that cache names: with the same path, build
 * id and pgoff, PERFSYM_BY_OFFSET the address's offset into the map
 * alone (files, wherever mapped); PERFSYM_BY_ADDR the address itself
 * (the kernel, modules); PERFSYM_BY_PID the address and the map's pid
 * (anonymous memory: /tmp/perf-PID.map). */
enum { PERFSYM_BY_OFFSET, PERFSYM_BY_ADDR, PERFSYM_BY_PID };
int perfsym_varies(const char *path);

/* For m, the kernel's text map: the addresses its symbols span when
 * they come from kallsyms (perf stretches its kernel map over them once
 * it has read them), into *lo and *hi ([lo, hi), as recorded).  Returns
 * 0, or -1 when m is no such map or its symbols come from a vmlinux. */
int perfsym_kernel_span(struct perfsym *s, const struct perfsym_map *m, uint64_t *lo,
			uint64_t *hi);

/* One frame of the functions inlined at an address. */
struct perfsym_inl {
	const char *name;	/* shown name, valid until perfsym_free */
	int inlined;		/* perf shows it as "(inlined)"; 0: the
				   frame's own function, in its file */
};

/* The frames perf script shows for ip (in map m, which perfsym_lookup
 * named name, non-NULL) when it unwinds a stack with DWARF: the
 * functions inlined there, innermost first, from the debug info of the
 * file its symbols came from (as `addr2line -i` gives them), then the
 * function they were inlined into.  A name that differs from the
 * symbol's is shown as inlined, as perf does.  Writes at most max to
 * out; returns how many, or 0 when the file has no debug info for ip
 * (the frame is then shown alone).  Cached per (file, address). */
size_t perfsym_inlines(struct perfsym *s, const struct perfsym_map *m, uint64_t ip,
		       const char *name, struct perfsym_inl *out, size_t max);

/* Counters for --summary and messages. */
struct perfsym_stats {
	uint64_t files;		/* files opened */
	uint64_t missing;	/* files not found or unreadable */
	uint64_t lookups;	/* addresses asked for */
	uint64_t unknown;	/* of which not named */
	uint64_t dwarf_files;	/* files whose DWARF was read for inlines */
};
const struct perfsym_stats *perfsym_stats(const struct perfsym *s);

/* The i-th file, in order of first use, that gave no symbols (the path
 * as recorded, or the perf-PID.map or kallsyms looked for), or NULL past
 * the last: for a message naming them.  Valid until perfsym_free. */
const char *perfsym_missing(const struct perfsym *s, size_t i);

#endif
