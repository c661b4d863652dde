/* outfile: temp file + rename. */
#include "outfile.h"
#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct outfile {
	FILE *f;	/* the stream */
	char *path;	/* destination, NULL for stdout */
	char *tmp;	/* temporary file beside path */
	int direct;	/* path is written in place (not a regular file) */
};

/* Devices, FIFOs and the like are written in place: renaming a file over
 * /dev/null or a pipe would replace it. */
static struct outfile *open_direct(struct outfile *o, const char *path)
{
	o->f = fopen(path, "w");
	if (!o->f) {
		free(o);
		return NULL;
	}
	o->path = xstrndup(path, strlen(path));
	o->direct = 1;
	return o;
}

struct outfile *outfile_open(const char *path)
{
	struct outfile *o = xcalloc(1, sizeof(*o));
	struct stat st;
	char *real = NULL;
	mode_t mask;
	int fd;

	if (!path || strcmp(path, "-") == 0) {
		o->f = stdout;
		return o;
	}
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return open_direct(o, path);
		/* Replace a symlink's target, not the link. */
		real = realpath(path, NULL);
	}
	o->path = real ? real : xstrndup(path, strlen(path));
	o->tmp = xmalloc(strlen(o->path) + 8);
	strcpy(o->tmp, o->path);
	strcat(o->tmp, ".XXXXXX");
	fd = mkstemp(o->tmp);
	if (fd < 0)
		goto fail;
	/* mkstemp makes 0600; give the file the mode a plain open would. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		unlink(o->tmp);
		errno = e;
		goto fail;
	}
	return o;
fail:
	free(o->tmp);
	free(o->path);
	free(o);
	return NULL;
}

FILE *outfile_stream(struct outfile *o)
{
	return o->f;
}

static void release(struct outfile *o)
{
	free(o->tmp);
	free(o->path);
	free(o);
}

int outfile_commit(struct outfile *o)
{
	int bad, e;

	errno = 0;
	if (!o->path) {
		bad = fflush(o->f) != 0 || ferror(o->f);
		e = errno ? errno : EIO;
		release(o);
		errno = e;
		return bad ? -1 : 0;
	}
	bad = ferror(o->f);
	if (fclose(o->f) != 0)
		bad = 1;
	e = errno ? errno : EIO;
	if (o->direct) {
		release(o);
		errno = e;
		return bad ? -1 : 0;
	}
	if (!bad && rename(o->tmp, o->path) == 0) {
		release(o);
		return 0;
	}
	if (!bad)
		e = errno;
	unlink(o->tmp);
	release(o);
	errno = e;
	return -1;
}

void outfile_abort(struct outfile *o)
{
	if (!o)
		return;
	if (o->path) {
		fclose(o->f);
		if (!o->direct)
			unlink(o->tmp);
	}
	release(o);
}

int outfile_save(const char *path, int (*write)(FILE *f, void *ctx), void *ctx, char *err,
		 size_t errlen)
{
	const char *shown = path && strcmp(path, "-") != 0 ? path : "<stdout>";
	struct outfile *o = outfile_open(path);
	int bad, e;

	if (!o) {
		snprintf(err, errlen, "cannot write '%s': %s", shown, strerror(errno));
		return -1;
	}
	if ((bad = write(outfile_stream(o), ctx)) < 0) {
		e = errno;
		outfile_abort(o);
		errno = e;
	}
	if (bad < 0 || outfile_commit(o) < 0) {
		snprintf(err, errlen, "write error on '%s': %s", shown, strerror(errno));
		return -1;
	}
	return 0;
}
