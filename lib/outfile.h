/* outfile: output written atomically.  A named file is written to a
 * temporary file beside it and renamed over it only when everything was
 * written, so a reader never sees half a file and a failed run leaves the
 * old file alone.  NULL or "-" means stdout.  A path that exists and is
 * not a regular file (/dev/null, a FIFO) is written in place; a symlink's
 * target is replaced, not the link. */
#ifndef FLAME_OUTFILE_H
#define FLAME_OUTFILE_H

#include <stdio.h>

struct outfile;

/* Starts writing path.  Returns NULL with errno set when the temporary
 * file cannot be created.  End with outfile_commit or outfile_abort. */
struct outfile *outfile_open(const char *path);

/* The stream to write to, owned by o. */
FILE *outfile_stream(struct outfile *o);

/* Flushes, checks for write errors, and renames the file into place (for
 * stdout: flushes and checks).  Returns 0, or -1 with errno set, having
 * removed the temporary file.  Frees o either way. */
int outfile_commit(struct outfile *o);

/* Removes the temporary file and frees o.  outfile_abort(NULL) does nothing. */
void outfile_abort(struct outfile *o);

/* Writes path atomically by write(f, ctx), which returns 0, or -1 with
 * errno set when it failed already (a failure it does not see,
 * outfile_commit finds).  Returns 0, or -1 with a message naming path
 * (or <stdout>) in err: "cannot write 'PATH': ..." when it cannot be
 * created, "write error on 'PATH': ..." when it cannot be written. */
int outfile_save(const char *path, int (*write)(FILE *f, void *ctx), void *ctx, char *err,
		 size_t errlen);

#endif
