/* flame_record: runs a command under perf record, for `flame record`.
 * perf is run as a child process with the terminal's signals: Ctrl-C
 * stops the command and perf writes what it has, while flame waits with
 * SIGINT ignored and then draws the recording. */
#include "flame_record.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef _WIN32
#include <sys/wait.h>
#endif

#define PERF_WORKLOAD_FAILED 255	/* perf record's status when the command
					   could not be started */

/* Words for argument vectors, which exec wants writable. */
static char w_flame[] = "flame", w_fp[] = "fp", w_hz[] = "997";
#ifndef _WIN32
static char w_perf[] = "perf", w_record[] = "record", w_quiet[] = "-q", w_out[] = "-o",
	    w_freq[] = "-F", w_cg[] = "--call-graph", w_end[] = "--";
#endif

/* The value of option name at argv[*i] ("--name V" or "--name=V"), moving
 * *i past it; NULL when argv[*i] is not that option. */
static char *value_of(char **argv, int argc, int *i, const char *name, int *missing)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*i];
}

/* Takes --call-graph and --freq at argv[*i]: 1 taken, 0 not ours, -1 bad. */
static int own_option(struct flame_record *rec, char **argv, int argc, int *i, char *err,
		      size_t errlen)
{
	int missing = 0;
	char *v = value_of(argv, argc, i, "--call-graph", &missing);
	char *end;
	long hz;

	if (v) {
		if (strcmp(v, "fp") != 0 && strcmp(v, "dwarf") != 0) {
			snprintf(err, errlen, "--call-graph must be fp or dwarf, not '%s'", v);
			return -1;
		}
		rec->call_graph = v;
		return 1;
	}
	if (!missing && (v = value_of(argv, argc, i, "--freq", &missing))) {
		hz = strtol(v, &end, 10);
		if (*v == '\0' || *end != '\0' || hz < 1 || hz > 100000) {
			snprintf(err, errlen, "--freq must be a number of samples per second "
				 "from 1 to 100000, not '%s'", v);
			return -1;
		}
		rec->freq = v;
		return 1;
	}
	if (missing) {
		snprintf(err, errlen, "option '%s' needs a value", argv[*i]);
		return -1;
	}
	return 0;
}

/* "Flame Graph: make -j4": the command as the default title. */
static void command_title(struct flame_record *rec)
{
	size_t o = (size_t)snprintf(rec->title, sizeof(rec->title), "Flame Graph:");
	char **a;

	for (a = rec->cmd; *a && o < sizeof(rec->title) - 1; a++)
		o += (size_t)snprintf(rec->title + o, sizeof(rec->title) - o, " %s", *a);
}

/* A new empty file for the recording, named in rec->data. */
static int make_data_file(struct flame_record *rec, char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!FLAME_RECORD_AVAILABLE)
		return 0;	/* flame_record_run says why */
	if (!dir || !*dir || strlen(dir) > sizeof(rec->data) - 32)
		dir = "/tmp";
	snprintf(rec->data, sizeof(rec->data), "%s/flame-record-XXXXXX", dir);
	fd = mkstemp(rec->data);
	if (fd < 0) {
		snprintf(err, errlen, "cannot make a temporary file in %s: %s", dir, strerror(errno));
		rec->data[0] = '\0';
		return -1;
	}
	close(fd);
	return 0;
}

int flame_record_parse(struct flame_record *rec, int argc, char **argv, char *err, size_t errlen)
{
	int i, r;

	memset(rec, 0, sizeof(*rec));
	rec->call_graph = w_fp;
	rec->freq = w_hz;	/* not a multiple of common timer rates */
	rec->fargv = xcalloc((size_t)argc + 2, sizeof(*rec->fargv));
	rec->fargv[rec->fargc++] = w_flame;
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		r = own_option(rec, argv, argc, &i, err, errlen);
		if (r < 0)
			return -1;
		if (r == 0)
			rec->fargv[rec->fargc++] = argv[i];
	}
	if (i + 1 >= argc) {
		snprintf(err, errlen, "record: give the command to run after '--' "
			 "(flame record [options] -- COMMAND [ARGS...])");
		return -1;
	}
	rec->cmd = argv + i + 1;
	command_title(rec);
	if (make_data_file(rec, err, errlen) < 0)
		return -1;
	rec->fargv[rec->fargc++] = rec->data;
	return 0;
}

#ifdef _WIN32
int flame_record_run(struct flame_record *rec, char *err, size_t errlen)
{
	(void)rec;
	snprintf(err, errlen, "flame record runs Linux perf and needs the Linux build; on Windows "
		 "record with WPR or xperf and give flame the wpaexporter CSV");
	return -1;
}
#else
/* Why perf may refuse to record, for the message when it fails. */
static void paranoid_hint(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level;

	buf[0] = '\0';
	if (!f)
		return;
	if (fscanf(f, "%d", &level) == 1 && level > 2 && geteuid() != 0)
		snprintf(buf, len, "; kernel.perf_event_paranoid is %d, which forbids recording "
			 "to users: run as root, or as root 'sysctl kernel.perf_event_paranoid=2'",
			 level);
	fclose(f);
}

/* The child: perf record with the terminal's signals, telling the parent
 * through fd (close-on-exec) when perf cannot be started. */
static void exec_perf(struct flame_record *rec, int fd)
{
	size_t n = 0, k;
	char **args;

	for (k = 0; rec->cmd[k]; k++)
		;
	args = xcalloc(k + 12, sizeof(*args));
	args[n++] = w_perf;
	args[n++] = w_record;
	args[n++] = w_quiet;
	args[n++] = w_out;
	args[n++] = rec->data;
	args[n++] = w_freq;
	args[n++] = rec->freq;
	args[n++] = w_cg;
	args[n++] = rec->call_graph;
	args[n++] = w_end;
	memcpy(args + n, rec->cmd, (k + 1) * sizeof(*args));
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	execvp(w_perf, args);
	k = (size_t)errno;
	if (write(fd, &k, sizeof(k)) < 0)
		_exit(127);
	_exit(127);
}

/* Waits for pid with the terminal's interrupts left to the command;
 * returns its wait status, or -1. */
static int wait_ignoring_interrupts(pid_t pid)
{
	void (*old_int)(int) = signal(SIGINT, SIG_IGN);
	void (*old_quit)(int) = signal(SIGQUIT, SIG_IGN);
	int status = -1;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	signal(SIGINT, old_int);
	signal(SIGQUIT, old_quit);
	return status;
}

/* What perf's exit tells: 0 when a recording can be drawn. */
static int perf_outcome(struct flame_record *rec, int status, char *err, size_t errlen)
{
	struct stat st;
	char hint[256];
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;

	if (stat(rec->data, &st) == 0 && st.st_size > 0 && code != PERF_WORKLOAD_FAILED) {
		if (code > 0)
			fprintf(stderr, "flame: note: '%s' exited with status %d\n", rec->cmd[0], code);
		else if (WIFSIGNALED(status))
			fprintf(stderr, "flame: note: perf record ended by signal %d\n",
				WTERMSIG(status));
		return 0;
	}
	paranoid_hint(hint, sizeof(hint));
	if (code == PERF_WORKLOAD_FAILED)
		snprintf(err, errlen, "perf record could not run '%s' (see perf's message above)",
			 rec->cmd[0]);
	else
		snprintf(err, errlen, "perf record wrote no recording (status %d)%s", code, hint);
	return -1;
}

int flame_record_run(struct flame_record *rec, char *err, size_t errlen)
{
	int fds[2];
	size_t code = 0;
	pid_t pid;

	if (pipe(fds) < 0 || fcntl(fds[1], F_SETFD, FD_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot start perf: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot start perf: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		exec_perf(rec, fds[1]);
	}
	close(fds[1]);
	if (read(fds[0], &code, sizeof(code)) == (ssize_t)sizeof(code)) {
		close(fds[0]);
		wait_ignoring_interrupts(pid);
		snprintf(err, errlen, "cannot run perf: %s%s", strerror((int)code),
			 code == ENOENT ? " (install it: on Debian, apt-get install linux-perf)" : "");
		return -1;
	}
	close(fds[0]);
	return perf_outcome(rec, wait_ignoring_interrupts(pid), err, errlen);
}
#endif

void flame_record_release(struct flame_record *rec)
{
	if (rec->data[0])
		unlink(rec->data);
	rec->data[0] = '\0';
	free(rec->fargv);
	rec->fargv = NULL;
}
