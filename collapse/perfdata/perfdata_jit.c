/* perfdata_jit: JIT code described by a jitdump, as `perf inject --jit`
 * shows it.  A runtime writing DIR/jit-PID.dump maps it executable, so
 * the recording holds an MMAP of it; on that MMAP the dump is read, and
 * each piece of code it describes becomes a map of its process named
 * DIR/jitted-PID-INDEX.so (perf inject's ELF file for it) holding one
 * function, from the time the dump says it was loaded (perf inject
 * gives its MMAP that time), so that the anonymous mapping the runtime
 * made for its code before does not hide it.  The dump is read as it
 * is after the recording: it holds every piece loaded, including those
 * loaded after the MMAP. */
#include "perfdata_int.h"
#include "jitdump.h"
#include "perfsym.h"
#include "strtab.h"
#include "xalloc.h"

#include <ctype.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where perf inject's ELF files put the code: after the ELF header and
 * one program header, 16-aligned (64-bit). */
#define JIT_TEXT_OFFSET 0x80
/* Processes whose dumps are read, at most (each is searched for). */
#define PIDS_MAX 4096

/* A piece of code waiting for its time. */
struct jitcode {
	uint64_t time;		/* when it was loaded */
	uint64_t seq;		/* order in the dumps, among equal times */
	struct pd_map m;	/* its map */
	uint32_t pid, tid;	/* its process */
};

struct pd_jit {
	struct jitcode *v;	/* pieces, sorted by time from next on */
	size_t n, cap;		/* used and allocated */
	size_t next;		/* the first not yet mapped */
	uint64_t seq;		/* pieces read so far */
	uint32_t *pids;		/* processes whose dump was read (perf reads
				   one once, however often it is mapped) */
	size_t npids, cappids;	/* used and allocated */
};

struct jitctx {
	struct pd *d;		/* the reader */
	const char *dir;	/* the dump's directory */
	size_t dirlen;		/* its length */
};

/* Whether path is ".../jit-PID.dump" of process pid (perf's test). */
static int is_dump(const char *path, uint32_t pid)
{
	const char *base = strrchr(path, '/');
	char *end;
	unsigned long v;

	if (!base || strncmp(base, "/jit-", 5) != 0 || !isdigit((unsigned char)base[5]))
		return 0;
	v = strtoul(base + 5, &end, 10);
	return strcmp(end, ".dump") == 0 && v == pid;
}

static int add_code(void *ctx, const struct jitdump_code *c)
{
	struct jitctx *j = ctx;
	struct pd *d = j->d;
	char name[4200];
	int n = snprintf(name, sizeof(name), "%.*s/jitted-%d-%llu.so", (int)j->dirlen, j->dir,
			 (int)c->pid, (unsigned long long)c->index);
	struct pd_jit *jit = d->jit;
	struct jitcode *e;

	if (n < 0 || (size_t)n >= sizeof(name) || !c->size)
		return 0;
	xgrow(&jit->v, &jit->cap, jit->n + 1, sizeof(*jit->v));
	e = &jit->v[jit->n++];
	memset(e, 0, sizeof(*e));
	e->time = c->time;
	e->seq = jit->seq++;
	e->pid = c->pid;
	e->tid = c->tid;
	e->m.start = c->addr;
	e->m.end = c->addr + c->size < c->addr ? UINT64_MAX : c->addr + c->size;
	e->m.pgoff = JIT_TEXT_OFFSET;
	e->m.path = strtab_str(d->names, strtab_intern(d->names, name, (size_t)n, NULL),
			       &e->m.pathlen);
	e->m.sympath = e->m.path;
	perfsym_define(d->sym, e->m.path, c->name, c->namelen);
	d->nameless_gen++;	/* a map of that path may have had no names */
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct jitcode *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void pd_jit_due(struct pd *d, uint64_t time)
{
	struct pd_jit *jit = d->jit;

	while (jit->next < jit->n && jit->v[jit->next].time <= time) {
		const struct jitcode *e = &jit->v[jit->next++];

		pd_map_add(d, pd_proc_of(d, pd_thread_get(d, e->pid, e->tid)), &e->m);
	}
}

void pd_jit_free(struct pd *d)
{
	if (!d->jit)
		return;
	free(d->jit->v);
	free(d->jit->pids);
	free(d->jit);
	d->jit = NULL;
}

static void warn_dump(struct pd *d, const char *path, const struct jitdump_result *r)
{
	char msg[200];

	if (d->reported++ >= 20)
		return;
	if (r->bad_at)
		snprintf(msg, sizeof(msg), "byte %llu: %s; the JIT code after it is not named",
			 (unsigned long long)r->bad_at, r->why);
	else
		snprintf(msg, sizeof(msg), "not read as a jitdump: %s", r->why ? r->why : "?");
	d->warn(d->ctx, path, msg);
}

/* Reads the dump recorded as path (mapped, not copied: dumps hold code
 * too), under --symfs when one was given, as the other files are.  The
 * code is named under the recorded path. */
static void read_dump(struct pd *d, const char *path)
{
	char full[PATH_MAX];
	int n = snprintf(full, sizeof(full), "%s%s", d->symfs ? d->symfs : "", path);
	int fd = n > 0 && (size_t)n < sizeof(full) ? open(full, O_RDONLY | O_CLOEXEC) : -1;
	struct stat st;
	void *p;
	struct jitctx j = { d, path, (size_t)(strrchr(path, '/') - path) };
	struct jitdump_result r;

	if (fd < 0)
		return;	/* a recording made elsewhere: perf names nothing either */
	if (fstat(fd, &st) != 0 || st.st_size <= 0 ||
	    (p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		close(fd);
		return;
	}
	if (jitdump_read(p, (size_t)st.st_size, add_code, &j, &r) != 0)
		warn_dump(d, full, &r);
	qsort(d->jit->v + d->jit->next, d->jit->n - d->jit->next, sizeof(*d->jit->v), by_time);
	munmap(p, (size_t)st.st_size);
	close(fd);
}

/* Whether pid's dump was read before; notes it when not. */
static int seen(struct pd *d, uint32_t pid)
{
	struct pd_jit *jit;
	size_t i;

	if (!d->jit)
		d->jit = xcalloc(1, sizeof(*d->jit));
	jit = d->jit;
	if (jit->npids >= PIDS_MAX)	/* a hostile file's: no more dumps */
		return 1;
	for (i = 0; i < jit->npids; i++)
		if (jit->pids[i] == pid)
			return 1;
	xgrow(&jit->pids, &jit->cappids, jit->npids + 1, sizeof(*jit->pids));
	jit->pids[jit->npids++] = pid;
	return 0;
}

void pd_jit_mmap(struct pd *d, const unsigned char *r, size_t len)
{
	uint32_t pid, tid;
	const struct pd_map *m;

	if (len < 8 + 32)
		return;
	pid = pd_u32(d, r + 8);
	tid = pd_u32(d, r + 12);
	if (pid == UINT32_MAX)
		return;
	m = pd_find_map(pd_proc_of(d, pd_thread_get(d, pid, tid)), pd_u64(d, r + 16));
	if (!m || m->path[0] != '/' || !is_dump(m->path, pid) || seen(d, pid))
		return;
	read_dump(d, m->path);
}
