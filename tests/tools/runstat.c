/* runstat: runs a command and reports its wall time and peak RSS.
 *
 *   runstat [-i INPUT] [-o OUTPUT] -- CMD ARGS...
 *
 * Prints "SECONDS MAXRSS_KB" on stderr's last line; exits with the
 * command's status.  Used by make bench instead of GNU time, which a
 * fresh machine may lack. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	struct timespec t0, t1;
	struct rusage ru;
	int i = 1, status;
	pid_t pid;

	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "-i") == 0 && i + 1 < argc)
			in = argv[++i];
		else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			out = argv[++i];
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "usage: runstat [-i IN] [-o OUT] -- CMD...\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		if (in) {
			int fd = open(in, O_RDONLY);

			if (fd < 0 || dup2(fd, 0) < 0)
				_exit(127);
		}
		if (out) {
			int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd < 0 || dup2(fd, 1) < 0)
				_exit(127);
		}
		execvp(argv[i + 1], argv + i + 1);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
		perror("runstat");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "%.3f %ld\n", (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
		ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
