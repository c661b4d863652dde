/* Unit tests for lib/outfile: atomic replacement, abort, errors. */
#include "check.h"
#include "outfile.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_file(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

int main(void)
{
	char dir[] = "/tmp/outfile-test-XXXXXX", path[256], buf[64];
	struct outfile *o;
	struct stat st;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/out.txt", dir);

	o = outfile_open(path);
	CHECK(o != NULL);
	fputs("first\n", outfile_stream(o));
	CHECK(stat(path, &st) != 0);	/* nothing visible before the commit */
	CHECK(outfile_commit(o) == 0);
	CHECK(read_file(path, buf, sizeof(buf)) == 0 && strcmp(buf, "first\n") == 0);

	o = outfile_open(path);
	fputs("second\n", outfile_stream(o));
	outfile_abort(o);
	CHECK(read_file(path, buf, sizeof(buf)) == 0 && strcmp(buf, "first\n") == 0);
	outfile_abort(NULL);

	snprintf(buf, sizeof(buf), "%s/no/such/dir/x", dir);
	CHECK(outfile_open(buf) == NULL);

	o = outfile_open("/dev/full");
	CHECK(o != NULL);
	if (o) {
		fputs("x\n", outfile_stream(o));
		CHECK(outfile_commit(o) < 0);
	}
	CHECK(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));

	unlink(path);
	rmdir(dir);
	return check_done();
}
