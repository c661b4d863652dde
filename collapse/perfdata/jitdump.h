/* jitdump: the code a JIT runtime describes in its jit-PID.dump file
 * (the format `perf inject --jit` reads: a header, then records, of
 * which JIT_CODE_LOAD names the code it placed at an address and
 * JIT_CODE_MOVE moves it).  Files of either byte order; the file is
 * untrusted: every size is checked, and a bad record ends the reading
 * with the byte offset where it lies. */
#ifndef FLAME_JITDUMP_H
#define FLAME_JITDUMP_H

#include <stddef.h>
#include <stdint.h>

/* One piece of code, loaded or moved. */
struct jitdump_code {
	uint32_t pid, tid;	/* who placed it */
	uint64_t addr;		/* where the code now is */
	uint64_t size;		/* its bytes */
	uint64_t index;		/* the runtime's number for it (code_index) */
	uint64_t time;		/* the record's timestamp */
	const char *name;	/* its function's name (in the buffer parsed,
				   NUL-terminated) */
	size_t namelen;		/* strlen(name) */
};

/* Called for each piece, in file order; returns 0 to go on. */
typedef int jitdump_fn(void *ctx, const struct jitdump_code *c);

struct jitdump_result {
	uint32_t pid;		/* the header's process */
	uint64_t codes;		/* pieces reported */
	uint64_t skipped;	/* records of other kinds, or moves of code
				   never loaded */
	uint64_t bad_at;	/* where reading stopped on a bad record
				   (when the call returned -1) */
	const char *why;	/* what was wrong there, or NULL */
};

/* Reads the len bytes at buf (NUL-terminated past len is not needed) as
 * a jitdump, calling fn for each piece of code.  Returns 0 when the
 * whole file was read, -1 when it is not a jitdump (r->bad_at 0) or a
 * record is bad (every piece before it was reported).  r is filled in
 * both cases. */
int jitdump_read(const unsigned char *buf, size_t len, jitdump_fn *fn, void *ctx,
		 struct jitdump_result *r);

#endif
