/* child: helper programs on pipes, with posix_spawn or CreateProcessW. */
#include "child.h"
#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32

#include <windows.h>

struct child {
	HANDLE proc;		/* the process */
	HANDLE in;		/* our end of its stdin, or NULL */
	FILE *out;		/* its stdout */
};

/* Appends arg to cmd (at *n, room cap) quoted so that the C runtime's
 * split gives it back whole: quotes escaped, backslashes doubled where a
 * quote follows them. */
static void quote(char **cmd, size_t *n, size_t *cap, const char *arg)
{
	size_t slashes = 0;
	const char *p;

	xgrow(cmd, cap, *n + 2 * strlen(arg) + 4, 1);
	(*cmd)[(*n)++] = '"';
	for (p = arg;; p++) {
		if (*p == '\\') {
			slashes++;
			continue;
		}
		/* Before a quote or the closing quote, each backslash doubles. */
		if (*p == '"' || *p == '\0')
			slashes *= 2;
		for (; slashes; slashes--)
			(*cmd)[(*n)++] = '\\';
		if (*p == '\0')
			break;
		if (*p == '"')
			(*cmd)[(*n)++] = '\\';
		(*cmd)[(*n)++] = *p;
	}
	(*cmd)[(*n)++] = '"';
	(*cmd)[(*n)++] = ' ';
}

static wchar_t *command_line(const char *const argv[])
{
	char *cmd = NULL;
	size_t n = 0, cap = 0;
	wchar_t *w;

	for (; *argv; argv++)
		quote(&cmd, &n, &cap, *argv);
	cmd[n - 1] = '\0';
	w = winsys_wide(cmd);
	free(cmd);
	return w;
}

/* The null device, inheritable, for reading or writing. */
static HANDLE null_device(DWORD access)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };

	return CreateFileW(L"NUL", access, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0,
			   NULL);
}

/* A pipe whose child end (read or write) is inheritable and ours not. */
static int pipe_for(HANDLE *ours, HANDLE *theirs, int child_reads)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	HANDLE r, w;

	if (!CreatePipe(&r, &w, &sa, 0))
		return -1;
	*ours = child_reads ? w : r;
	*theirs = child_reads ? r : w;
	SetHandleInformation(*ours, HANDLE_FLAG_INHERIT, 0);
	return 0;
}

static int spawn(struct child *c, const char *const argv[], HANDLE in, HANDLE out)
{
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	HANDLE err = null_device(GENERIC_WRITE);
	wchar_t *cmd = command_line(argv);
	BOOL ok;

	memset(&si, 0, sizeof(si));
	si.cb = sizeof(si);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = in;
	si.hStdOutput = out;
	si.hStdError = err;
	ok = cmd && CreateProcessW(NULL, cmd, NULL, NULL, TRUE, CREATE_NO_WINDOW, NULL, NULL, &si, &pi);
	free(cmd);
	if (err != INVALID_HANDLE_VALUE)
		CloseHandle(err);
	if (!ok)
		return -1;
	CloseHandle(pi.hThread);
	c->proc = pi.hProcess;
	return 0;
}

struct child *child_start(const char *const argv[], int feed)
{
	struct child *c = xcalloc(1, sizeof(*c));
	HANDLE out_r, out_w, in_r;
	int fd, rc;

	if (pipe_for(&out_r, &out_w, 0) < 0) {
		free(c);
		return NULL;
	}
	if (feed ? pipe_for(&c->in, &in_r, 1) < 0 : (in_r = null_device(GENERIC_READ)) == INVALID_HANDLE_VALUE)
		in_r = NULL;
	rc = in_r ? spawn(c, argv, in_r, out_w) : -1;
	if (in_r)
		CloseHandle(in_r);
	CloseHandle(out_w);
	fd = rc == 0 ? _open_osfhandle((intptr_t)out_r, _O_RDONLY | _O_BINARY) : -1;
	if (fd < 0 || !(c->out = fdopen(fd, "r"))) {
		if (fd >= 0)
			_close(fd);
		else
			CloseHandle(out_r);
		if (c->in)
			CloseHandle(c->in);
		if (rc == 0) {
			TerminateProcess(c->proc, 1);
			CloseHandle(c->proc);
		}
		free(c);
		return NULL;
	}
	return c;
}

int child_send(struct child *c, const void *buf, size_t n)
{
	const char *p = buf;
	DWORD done;

	while (n > 0 && c->in) {
		if (!WriteFile(c->in, p, n > 65536 ? 65536 : (DWORD)n, &done, NULL) || done == 0)
			return -1;
		p += done;
		n -= done;
	}
	return n == 0 ? 0 : -1;
}

int child_finish(struct child *c)
{
	DWORD code = 0;
	int rc;

	if (c->in)
		CloseHandle(c->in);
	fclose(c->out);
	WaitForSingleObject(c->proc, INFINITE);
	rc = GetExitCodeProcess(c->proc, &code) ? (int)code : -1;
	CloseHandle(c->proc);
	free(c);
	return rc;
}

#else

#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct child {
	pid_t pid;		/* the process */
	int in;			/* our end of its stdin (a socket), or -1 */
	FILE *out;		/* its stdout */
};

/* With feed, one socket pair is both its stdin and stdout (a send to a
 * socket that is gone fails with EPIPE and no SIGPIPE); else a pipe for
 * stdout and /dev/null for stdin. */
struct child *child_start(const char *const argv[], int feed)
{
	struct child *c = xcalloc(1, sizeof(*c));
	posix_spawn_file_actions_t fa;
	int fd[2], rc;

	if ((feed ? socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fd) : pipe2(fd, O_CLOEXEC)) < 0) {
		free(c);
		return NULL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	if (feed)
		posix_spawn_file_actions_adddup2(&fa, fd[1], 0);
	else
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&c->pid, argv[0], &fa, NULL, (char *const *)(uintptr_t)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (rc != 0 || !(c->out = fdopen(fd[0], "r"))) {
		close(fd[0]);
		if (rc == 0)
			waitpid(c->pid, NULL, 0);
		free(c);
		return NULL;
	}
	c->in = feed ? fd[0] : -1;
	return c;
}

int child_send(struct child *c, const void *buf, size_t n)
{
	const char *p = buf;
	ssize_t k;

	while (n > 0 && c->in >= 0) {
		k = send(c->in, p, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return n == 0 ? 0 : -1;
}

int child_finish(struct child *c)
{
	int st;

	fclose(c->out);
	while (waitpid(c->pid, &st, 0) < 0)
		if (errno != EINTR) {
			free(c);
			return -1;
		}
	free(c);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#endif

FILE *child_out(struct child *c)
{
	return c->out;
}
