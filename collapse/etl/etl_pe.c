/* etl_pe: names in a PE image through llvm-symbolizer (which reads the
 * image's PDB on any OS).  The image's preferred base, from its optional
 * header, turns an RVA into the address llvm-symbolizer expects; one
 * process per image, asked an address a line and answering two lines
 * (--output-style=GNU: function, file:line). */
#include "etl_int.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32

struct etl_pe *etl_pe_new(const char *file)
{
	(void)file;
	return NULL;
}

size_t etl_pe_name(struct etl_pe *p, uint64_t rva, char *buf, size_t cap)
{
	(void)p, (void)rva, (void)buf, (void)cap;
	return 0;
}

void etl_pe_free(struct etl_pe *p)
{
	(void)p;
}

#else

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct etl_pe {
	uint64_t base;		/* the image's preferred base */
	pid_t pid;		/* llvm-symbolizer */
	int fd;			/* its stdin and stdout */
	FILE *in;		/* its answers */
	int dead;		/* it stopped answering */
};

/* The preferred image base of the PE file, or -1 when it is none. */
static int image_base(const char *file, uint64_t *base)
{
	unsigned char h[1024];
	FILE *f = fopen(file, "rb");
	size_t n = f ? fread(h, 1, sizeof(h), f) : 0, pe, opt;

	if (f)
		fclose(f);
	if (n < 0x40 || h[0] != 'M' || h[1] != 'Z')
		return -1;
	pe = (size_t)etl_le(h + 0x3c, 4);
	opt = pe + 24;
	if (pe > n - 4 || n - opt < 40 || memcmp(h + pe, "PE\0\0", 4) != 0)
		return -1;
	if (etl_le(h + opt, 2) == 0x20b)
		*base = etl_le(h + opt + 24, 8);
	else if (etl_le(h + opt, 2) == 0x10b)
		*base = etl_le(h + opt + 28, 4);
	else
		return -1;
	return 0;
}

/* Starts llvm-symbolizer on file, talking over a socket pair. */
static int start(struct etl_pe *p, const char *file)
{
	char prog[] = "llvm-symbolizer", gnu[] = "--output-style=GNU", flat[] = "--no-inlines";
	char fn[] = "--functions=linkage", dem[] = "--demangle";
	char *obj = xmalloc(strlen(file) + 7);
	char *argv[] = { prog, obj, gnu, flat, fn, dem, NULL };
	posix_spawn_file_actions_t fa;
	int sv[2], rc;

	sprintf(obj, "--obj=%s", file);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		free(obj);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
	posix_spawn_file_actions_addclose(&fa, sv[0]);
	posix_spawn_file_actions_addclose(&fa, sv[1]);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&p->pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(sv[1]);
	free(obj);
	if (rc != 0 || (p->in = fdopen(sv[0], "r")) == NULL) {
		close(sv[0]);
		if (rc == 0)
			waitpid(p->pid, NULL, 0);
		return -1;
	}
	p->fd = sv[0];
	return 0;
}

struct etl_pe *etl_pe_new(const char *file)
{
	struct etl_pe *p = xcalloc(1, sizeof(*p));

	if (image_base(file, &p->base) < 0 || start(p, file) < 0) {
		free(p);
		return NULL;
	}
	return p;
}

/* Reads one answer line into buf (cap bytes), newline dropped; its length
 * or -1. */
static long answer(struct etl_pe *p, char *buf, size_t cap)
{
	size_t n;

	if (!fgets(buf, (int)cap, p->in))
		return -1;
	n = strlen(buf);
	if (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	else {
		int c;

		while ((c = getc(p->in)) != EOF && c != '\n')
			;		/* a name longer than buf: cut */
	}
	return (long)n;
}

size_t etl_pe_name(struct etl_pe *p, uint64_t rva, char *buf, size_t cap)
{
	char line[40], where[256];
	int n = snprintf(line, sizeof(line), "0x%llx\n", (unsigned long long)(p->base + rva));
	long len;
	size_t i;

	if (p->dead || send(p->fd, line, (size_t)n, MSG_NOSIGNAL) != n ||
	    (len = answer(p, buf, cap)) < 0 || answer(p, where, sizeof(where)) < 0) {
		p->dead = 1;
		return 0;
	}
	if (len == 0 || strcmp(buf, "??") == 0)
		return 0;
	for (i = 0; i < (size_t)len; i++)
		if (buf[i] == ';')
			buf[i] = ':';	/* ';' separates frames */
	return (size_t)len;
}

void etl_pe_free(struct etl_pe *p)
{
	if (!p)
		return;
	fclose(p->in);
	waitpid(p->pid, NULL, 0);
	free(p);
}

#endif
