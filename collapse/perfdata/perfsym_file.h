/* perfsym_file: finds the file that holds the symbols of one mapped
 * file, the way perf does (--symfs, the build-id cache, separate debug
 * files by build id and by .gnu_debuglink, MiniDebugInfo, the vdso), and
 * reads its symbols. */
#ifndef FLAME_PERFSYM_FILE_H
#define FLAME_PERFSYM_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "elfsym.h"
#include "perfsym.h"
#include "perfsym_tab.h"

struct perfsym_file {
	struct perfsym_tab tab;		/* symbols at virtual addresses */
	struct elfsym_seg *segs;	/* PT_LOAD segments, for offset -> address */
	size_t nsegs;			/* their number */
	char *from;			/* the file the symbols came from (owned) */
};

/* Fills f (which the caller releases with perfsym_file_release, also on
 * failure) with the symbols for path as recorded, with build id bid
 * (bid_len 0: unknown, the file's own is taken).  Files whose build id
 * differs are never used.  shown is passed to perfsym_tab_finish.
 * Returns 0, or -1 when no usable file was found. */
int perfsym_file_load(struct perfsym_file *f, const struct perfsym_opts *o, const char *path,
		      const uint8_t *bid, size_t bid_len,
		      char *(*shown)(void *ctx, const char *raw), void *ctx);

void perfsym_file_release(struct perfsym_file *f);

/* Reads a whole file of at most max bytes (works for /proc files, which
 * report size 0).  Returns the bytes (caller frees) and their number in
 * *len, or NULL with errno set. */
char *perfsym_file_slurp(const char *path, size_t max, size_t *len);

/* Whether two build ids are the same: equal over the shorter one and
 * zero beyond it (perf pads ids to 20 bytes). */
int perfsym_file_same_id(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

/* The build-id cache's directory (--symfs applied), or NULL: none. */
const char *perfsym_file_buildid_dir(const struct perfsym_opts *o, char *buf, size_t size);

/* The kallsyms file for a kernel with build id bid: the build-id
 * cache's copy ([kernel.kallsyms]/ID/kallsyms) when that kernel is not
 * the running one and the copy exists, else /proc/kallsyms.  Returns buf
 * or a constant string. */
const char *perfsym_file_kallsyms(const struct perfsym_opts *o, const uint8_t *bid,
				  size_t bid_len, char *buf, size_t size);

#endif
