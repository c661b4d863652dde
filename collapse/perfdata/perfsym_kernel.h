/* perfsym_kernel: the kernel's symbols from a vmlinux, when there is one
 * for the recorded kernel, where perf looks for it: the build-id cache's
 * copy, then ./vmlinux, /boot/vmlinux, and this machine's release under
 * /boot, /usr/lib/debug and /lib/modules.  A file whose build id is not
 * the recorded kernel's is never used. */
#ifndef FLAME_PERFSYM_KERNEL_H
#define FLAME_PERFSYM_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "perfsym.h"
#include "perfsym_file.h"

/* Fills f (released by the caller with perfsym_file_release, also on
 * failure) with the symbols of the first vmlinux found for the kernel
 * with build id bid (bid_len 0: unknown, any is taken), at their link
 * addresses, f->from naming the file; *ref gets the address of the
 * symbol called refname (perf relocates by it), *have_ref whether there
 * is one.  Returns 0, or -1 when no vmlinux was found. */
int perfsym_kernel_vmlinux(struct perfsym_file *f, const struct perfsym_opts *o,
			   const uint8_t *bid, size_t bid_len, const char *refname,
			   uint64_t *ref, int *have_ref);

#endif
