/* sys/mman.h for the Windows build (lib/win is on its include path only
 * there): bsrc maps a big file when it can and reads it otherwise, so
 * mmap here always declines and files are read.  Reading keeps memory
 * flat as the POSIX mapping does, at the cost of one copy. */
#ifndef FLAME_WIN_SYS_MMAN_H
#define FLAME_WIN_SYS_MMAN_H

#include <errno.h>
#include <stddef.h>
#include <sys/types.h>

#define PROT_READ 1
#define MAP_PRIVATE 2
#define MAP_FAILED ((void *)-1)
#define MADV_SEQUENTIAL 2
#define MADV_DONTNEED 4

static inline void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	(void)addr, (void)len, (void)prot, (void)flags, (void)fd, (void)off;
	errno = ENOSYS;
	return MAP_FAILED;
}

static inline int munmap(void *addr, size_t len)
{
	(void)addr, (void)len;
	return 0;
}

static inline int madvise(void *addr, size_t len, int advice)
{
	(void)addr, (void)len, (void)advice;
	return 0;
}

#endif
