/* winsys: POSIX calls over Windows' wide-character APIs; built only by
 * make windows.  See winsys.h. */
#include "winsys.h"
#include "xalloc.h"

/* This file calls the real functions the header redirects. */
#undef main
#undef open
#undef fopen
#undef fdopen
#undef _stat64
#undef access
#undef unlink
#undef mkdir
#undef mkstemp
#undef rename
#undef realpath
#undef fchmod
#undef pread
#undef sysconf
#undef fclose
#undef program_invocation_short_name

#include <stdarg.h>
#include <stdint.h>
#include <wchar.h>
#include <windows.h>

/* Off, so that an argument such as a --title with a '*' reaches the tool
 * as typed (mingw-w64's start-up code would expand it as a wildcard). */
int _dowildcard = 0;

const char *winsys_progname = "flame";

/* s as UTF-16 (the caller frees), or NULL with errno ENOENT when s is not
 * valid UTF-8. */
wchar_t *winsys_wide(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
	wchar_t *w;

	if (n <= 0) {
		errno = ENOENT;
		return NULL;
	}
	w = xmalloc((size_t)n * sizeof(*w));
	MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
	return w;
}

/* w as UTF-8 (the caller frees); unpaired surrogates become U+FFFD. */
static char *narrow(const wchar_t *w)
{
	int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
	char *s = xmalloc(n > 0 ? (size_t)n : 1);

	if (n <= 0 || !WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL))
		s[0] = '\0';
	return s;
}

/* errno for the Windows error of a failed file call. */
static int errno_of(DWORD e)
{
	switch (e) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_NAME:
		return ENOENT;
	case ERROR_ACCESS_DENIED:
	case ERROR_SHARING_VIOLATION:
	case ERROR_LOCK_VIOLATION:
		return EACCES;
	case ERROR_ALREADY_EXISTS:
	case ERROR_FILE_EXISTS:
		return EEXIST;
	case ERROR_DISK_FULL:
	case ERROR_HANDLE_DISK_FULL:
		return ENOSPC;
	default:
		return EIO;
	}
}

static UINT console_cp;	/* the console's output code page before ours, 0: untouched */

static void restore_console(void)
{
	SetConsoleOutputCP(console_cp);
}

/* Messages are UTF-8 (paths may hold any character): a console shows
 * them right only in code page 65001, given back at exit. */
static void utf8_console(void)
{
	UINT cp = GetConsoleOutputCP();

	if (cp == 0 || cp == CP_UTF8 || !_isatty(2))
		return;
	console_cp = cp;
	SetConsoleOutputCP(CP_UTF8);
	atexit(restore_console);
}

/* The tool's name in path ("C:\\bin\\flame.exe" gives "flame"), cut in place. */
static const char *tool_name(char *path)
{
	char *base = path, *p;
	size_t n;

	for (p = path; *p; p++)
		if (*p == '\\' || *p == '/' || *p == ':')
			base = p + 1;
	n = strlen(base);
	if (n > 4 && _stricmp(base + n - 4, ".exe") == 0)
		base[n - 4] = '\0';
	return base;
}

int wmain(int argc, wchar_t **wargv);
int wmain(int argc, wchar_t **wargv)
{
	char **argv = xcalloc((size_t)argc + 1, sizeof(*argv));
	int i;

	for (i = 0; i < argc; i++)
		argv[i] = narrow(wargv[i]);
	if (argc > 0)
		winsys_progname = tool_name(xstrndup(argv[0], strlen(argv[0])));
	/* SVG and folded text are bytes: "\n" must never become "\r\n". */
	_setmode(0, _O_BINARY);
	_setmode(1, _O_BINARY);
	_setmode(2, _O_BINARY);
	_fmode = _O_BINARY;
	utf8_console();
	return winsys_main(argc, argv);
}

int winsys_open(const char *path, int flags, ...)
{
	wchar_t *w = winsys_wide(path);
	int mode = 0, fd;
	va_list ap;

	if (flags & _O_CREAT) {
		va_start(ap, flags);
		mode = va_arg(ap, int);
		va_end(ap);
	}
	if (!w)
		return -1;
	fd = _wopen(w, flags | _O_BINARY, mode);
	free(w);
	return fd;
}

/* mode with a 'b', in buf (of size n). */
static const char *binary_mode(const char *mode, char *buf, size_t n)
{
	if (strchr(mode, 'b') || strlen(mode) + 2 > n)
		return mode;
	snprintf(buf, n, "%sb", mode);
	return buf;
}

FILE *winsys_fopen(const char *path, const char *mode)
{
	char m[16];
	wchar_t *w = winsys_wide(path), *wm = winsys_wide(binary_mode(mode, m, sizeof(m)));
	FILE *f = w && wm ? _wfopen(w, wm) : NULL;

	free(w);
	free(wm);
	return f;
}

FILE *winsys_fdopen(int fd, const char *mode)
{
	char m[16];

	return _fdopen(fd, binary_mode(mode, m, sizeof(m)));
}

int winsys_stat(const char *path, struct _stat64 *st)
{
	wchar_t *w = winsys_wide(path);
	int rc = w ? _wstat64(w, st) : -1;

	free(w);
	return rc;
}

int winsys_access(const char *path, int mode)
{
	wchar_t *w = winsys_wide(path);
	int rc = w ? _waccess(w, mode & ~X_OK) : -1;	/* Windows has no execute bit */

	free(w);
	return rc;
}

int winsys_unlink(const char *path)
{
	wchar_t *w = winsys_wide(path);
	int rc = w ? _wunlink(w) : -1;

	free(w);
	return rc;
}

int winsys_mkdir(const char *path)
{
	wchar_t *w = winsys_wide(path);
	int rc = w ? _wmkdir(w) : -1;

	free(w);
	return rc;
}

/* The last six characters of tmpl, "XXXXXX", become letters and digits
 * naming a file that did not exist, now created and open. */
int winsys_mkstemp(char *tmpl)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	size_t n = strlen(tmpl);
	uint64_t r = GetTickCount64() * 0x9e3779b97f4a7c15u ^ GetCurrentProcessId();
	int tries, i, fd;

	if (n < 6 || strcmp(tmpl + n - 6, "XXXXXX") != 0) {
		errno = EINVAL;
		return -1;
	}
	for (tries = 0; tries < 100; tries++) {
		for (i = 0; i < 6; i++) {
			r = r * 6364136223846793005u + 1442695040888963407u;
			tmpl[n - 6 + i] = set[(r >> 33) % (sizeof(set) - 1)];
		}
		fd = winsys_open(tmpl, _O_CREAT | _O_EXCL | _O_RDWR | _O_NOINHERIT,
				 _S_IREAD | _S_IWRITE);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int winsys_rename(const char *from, const char *to)
{
	wchar_t *wf = winsys_wide(from), *wt = winsys_wide(to);
	int rc = -1;

	if (wf && wt) {
		if (MoveFileExW(wf, wt, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
			rc = 0;
		else
			errno = errno_of(GetLastError());
	}
	free(wf);
	free(wt);
	return rc;
}

char *winsys_realpath(const char *path, char *resolved)
{
	wchar_t *w = winsys_wide(path), *full = w ? _wfullpath(NULL, w, 0) : NULL;
	char *s = full ? narrow(full) : NULL;

	(void)resolved;	/* flame passes NULL: the result is allocated */
	free(w);
	free(full);
	return s;
}

int winsys_fchmod(int fd, int mode)
{
	(void)fd, (void)mode;
	return 0;
}

ssize_t winsys_pread(int fd, void *buf, size_t n, long long off)
{
	HANDLE h = (HANDLE)_get_osfhandle(fd);
	long long at = _lseeki64(fd, 0, SEEK_CUR);
	OVERLAPPED ov;
	DWORD got = 0;
	BOOL ok;

	if (h == INVALID_HANDLE_VALUE || at < 0 || off < 0) {
		errno = EBADF;
		return -1;
	}
	memset(&ov, 0, sizeof(ov));
	ov.Offset = (DWORD)off;
	ov.OffsetHigh = (DWORD)((unsigned long long)off >> 32);
	ok = ReadFile(h, buf, n > 0x40000000 ? 0x40000000 : (DWORD)n, &got, &ov);
	/* ReadFile at an offset moves a synchronous handle's pointer. */
	_lseeki64(fd, at, SEEK_SET);
	if (!ok && GetLastError() != ERROR_HANDLE_EOF) {
		errno = errno_of(GetLastError());
		return -1;
	}
	return (ssize_t)got;
}

long winsys_sysconf(int name)
{
	SYSTEM_INFO si;

	GetSystemInfo(&si);
	if (name == _SC_PAGESIZE)
		return (long)si.dwPageSize;
	if (name == _SC_NPROCESSORS_ONLN)
		return (long)si.dwNumberOfProcessors;
	errno = EINVAL;
	return -1;
}

void *memrchr(const void *s, int c, size_t n)
{
	const unsigned char *p = (const unsigned char *)s + n;

	while (p > (const unsigned char *)s)
		if (*--p == (unsigned char)c)
			return (void *)(size_t)p;
	return NULL;
}

void *memmem(const void *hay, size_t hlen, const void *needle, size_t nlen)
{
	const unsigned char *h = hay, *end;

	if (nlen == 0)
		return (void *)(size_t)h;
	if (hlen < nlen)
		return NULL;
	end = h + (hlen - nlen);
	for (; h <= end; h++) {
		h = memchr(h, *(const unsigned char *)needle, (size_t)(end - h) + 1);
		if (!h)
			return NULL;
		if (memcmp(h, needle, nlen) == 0)
			return (void *)(size_t)h;
	}
	return NULL;
}

/* qsort_r's comparison and argument, for the one sort running on this
 * thread (the comparisons do not sort). */
static _Thread_local struct qsort_arg {
	int (*cmp)(const void *, const void *, void *);	/* the comparison */
	void *arg;					/* its argument */
} qsort_now;

static int qsort_tramp(const void *a, const void *b)
{
	return qsort_now.cmp(a, b, qsort_now.arg);
}

void qsort_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
	     void *arg)
{
	qsort_now.cmp = cmp;
	qsort_now.arg = arg;
	qsort(base, n, size, qsort_tramp);
}

/* A stream open_memstream or fopencookie made: a temporary file, and
 * where its bytes go when it is closed. */
struct spool {
	FILE *f;		/* the stream handed out, NULL: slot free */
	char **buf;		/* open_memstream's buffer... */
	size_t *size;		/* ...and size, or NULL */
	void *cookie;		/* else fopencookie's */
	cookie_io_functions_t io;	/* and its calls */
};

/* Few such streams are open at once (one nameattr string, one zip). */
static struct spool spools[16];
static SRWLOCK spool_lock = SRWLOCK_INIT;

/* A read-write binary stream on a file that goes away when closed. */
static FILE *temp_stream(void)
{
	wchar_t dir[MAX_PATH + 1], name[MAX_PATH + 1];
	HANDLE h;
	int fd;

	if (!GetTempPathW(MAX_PATH + 1, dir) || !GetTempFileNameW(dir, L"flm", 0, name))
		return NULL;
	h = CreateFileW(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
			FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, NULL);
	if (h == INVALID_HANDLE_VALUE)
		return NULL;
	fd = _open_osfhandle((intptr_t)h, _O_RDWR | _O_BINARY);
	if (fd < 0) {
		CloseHandle(h);
		return NULL;
	}
	return _fdopen(fd, "w+b");
}

static FILE *spool_new(const struct spool *want)
{
	FILE *f = temp_stream();
	size_t i;

	if (!f) {
		errno = EIO;
		return NULL;
	}
	AcquireSRWLockExclusive(&spool_lock);
	for (i = 0; i < sizeof(spools) / sizeof(spools[0]) && spools[i].f; i++)
		;
	if (i < sizeof(spools) / sizeof(spools[0])) {
		spools[i] = *want;
		spools[i].f = f;
	}
	ReleaseSRWLockExclusive(&spool_lock);
	if (i == sizeof(spools) / sizeof(spools[0])) {
		fclose(f);
		errno = EMFILE;
		return NULL;
	}
	return f;
}

FILE *open_memstream(char **buf, size_t *size)
{
	struct spool s = { NULL, buf, size, NULL, { NULL, NULL, NULL, NULL } };

	return spool_new(&s);
}

FILE *fopencookie(void *cookie, const char *mode, cookie_io_functions_t io)
{
	struct spool s = { NULL, NULL, NULL, cookie, io };

	if (io.read || io.seek || !io.write || strchr(mode, 'r')) {
		errno = ENOSYS;
		return NULL;
	}
	return spool_new(&s);
}

/* Hands a spool's bytes to where they go: 0, or -1. */
static int spool_drain(struct spool *s)
{
	char chunk[1 << 16];
	long long len;
	size_t n;
	int bad = fflush(s->f) != 0 || (len = _ftelli64(s->f)) < 0 || fseek(s->f, 0, SEEK_SET) != 0;

	if (s->buf) {
		*s->buf = xmalloc(bad ? 1 : (size_t)len + 1);
		n = bad ? 0 : fread(*s->buf, 1, (size_t)len, s->f);
		(*s->buf)[n] = '\0';
		*s->size = n;
		return bad || n != (size_t)len ? -1 : 0;
	}
	while (!bad && (n = fread(chunk, 1, sizeof(chunk), s->f)) > 0)
		bad = s->io.write(s->cookie, chunk, n) != (ssize_t)n;
	if (s->io.close && s->io.close(s->cookie) != 0)
		bad = 1;
	return bad ? -1 : 0;
}

int winsys_fclose(FILE *f)
{
	struct spool s = { NULL, NULL, NULL, NULL, { NULL, NULL, NULL, NULL } };
	size_t i;
	int bad = 0;

	AcquireSRWLockExclusive(&spool_lock);
	for (i = 0; i < sizeof(spools) / sizeof(spools[0]); i++)
		if (spools[i].f == f) {
			s = spools[i];
			spools[i].f = NULL;
		}
	ReleaseSRWLockExclusive(&spool_lock);
	if (s.f)
		bad = spool_drain(&s);
	if (fclose(f) != 0)
		bad = 1;
	return bad ? EOF : 0;
}
