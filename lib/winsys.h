/* winsys: the POSIX calls flame makes, done with Windows' own APIs, for
 * the mingw-w64 build (make windows).  The Windows build includes this
 * header ahead of every source (-include winsys.h), so the code keeps
 * one spelling for both systems: open, fopen, stat, rename and the rest
 * become the winsys_ calls below, which take UTF-8 paths and use the
 * wide-character APIs, and write nothing in text mode (no CRLF).  On
 * other systems the header is empty.
 *
 * A tool's main becomes winsys_main: winsys.c's wmain takes the UTF-16
 * command line, hands it over as UTF-8, and puts the standard streams in
 * binary mode first. */
#ifndef FLAME_WINSYS_H
#define FLAME_WINSYS_H
#ifdef _WIN32

/* Every system header these calls shadow comes first: its own
 * declarations must be read before the names are redefined.  stdlib.h
 * declares rand_s (hkey's random seed) only when asked first. */
#define _CRT_RAND_S
#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define main(...) winsys_main(__VA_ARGS__)
int winsys_main(int argc, char **argv);

/* Paths are UTF-8; each call converts to UTF-16 and fails with ENOENT
 * when a path is not valid UTF-8.  Files open in binary mode. */
int winsys_open(const char *path, int flags, ...);
FILE *winsys_fopen(const char *path, const char *mode);
FILE *winsys_fdopen(int fd, const char *mode);
int winsys_stat(const char *path, struct _stat64 *st);
int winsys_access(const char *path, int mode);
int winsys_unlink(const char *path);
int winsys_mkdir(const char *path);
int winsys_mkstemp(char *tmpl);

/* s as UTF-16 (the caller frees), or NULL with errno ENOENT when s is not
 * valid UTF-8. */
wchar_t *winsys_wide(const char *s);

/* MoveFileExW with MOVEFILE_REPLACE_EXISTING: replaces an existing file
 * (Windows' rename refuses to), as POSIX rename does. */
int winsys_rename(const char *from, const char *to);

/* The absolute form of path (malloc'd; the caller frees), or NULL.
 * Windows links are not followed: the path is made absolute only. */
char *winsys_realpath(const char *path, char *resolved);

/* Files keep Windows' default permissions. */
int winsys_fchmod(int fd, int mode);

/* Positioned read without moving the file pointer, as pread(2). */
ssize_t winsys_pread(int fd, void *buf, size_t n, long long off);

/* _SC_PAGESIZE and _SC_NPROCESSORS_ONLN; -1 with EINVAL for others. */
long winsys_sysconf(int name);
#define _SC_PAGESIZE 30
#define _SC_NPROCESSORS_ONLN 84

#define open(...) winsys_open(__VA_ARGS__)
#define fopen(p, m) winsys_fopen(p, m)
#define fdopen(fd, m) winsys_fdopen(fd, m)
/* _FILE_OFFSET_BITS=64 makes stat _stat64 (struct and call alike); only
 * the call is taken over. */
#define _stat64(p, st) winsys_stat(p, st)
#define access(p, m) winsys_access(p, m)
#define unlink(p) winsys_unlink(p)
#define mkdir(p, m) winsys_mkdir(p)
#define mkstemp(t) winsys_mkstemp(t)
#define rename(a, b) winsys_rename(a, b)
#define realpath(p, r) winsys_realpath(p, r)
#define fchmod(fd, m) winsys_fchmod(fd, m)
#define pread(fd, b, n, o) winsys_pread(fd, b, n, o)
#define sysconf(n) winsys_sysconf(n)

#ifndef O_CLOEXEC
#define O_CLOEXEC _O_NOINHERIT
#endif

/* glibc's, which the Windows C library lacks. */
void *memmem(const void *hay, size_t hlen, const void *needle, size_t nlen);
void *memrchr(const void *s, int c, size_t n);

/* glibc's qsort_r (Windows' qsort_s passes the argument first). */
void qsort_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
	     void *arg);

/* glibc's name of the running tool ("flame"), set by wmain. */
extern const char *winsys_progname;
#define program_invocation_short_name winsys_progname

/* Windows has no custom streams: open_memstream and fopencookie (write
 * only) hand out a stream on a temporary file, whose bytes go to the
 * buffer or the cookie when fclose, which must end such a stream, is
 * called.  So a cookie sees nothing before fclose: fine for a zip
 * written on the fly, useless for a hold on stderr. */
typedef ssize_t cookie_write_function_t(void *cookie, const char *buf, size_t n);
typedef struct {
	void *read;				/* must be NULL: write only */
	cookie_write_function_t *write;		/* takes the bytes at fclose */
	void *seek;				/* must be NULL */
	int (*close)(void *cookie);		/* then this, or NULL */
} cookie_io_functions_t;
FILE *fopencookie(void *cookie, const char *mode, cookie_io_functions_t io);
FILE *open_memstream(char **buf, size_t *size);
int winsys_fclose(FILE *f);
#define fclose(f) winsys_fclose(f)

#endif
#endif
