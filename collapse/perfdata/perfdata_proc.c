/* perfdata_proc: the processes of a recording, as perf keeps them.
 *
 * Maps belong to a process (pid): threads share them, a forked process
 * starts with a copy of its parent's, a new mapping cuts away what it
 * overlaps.  Names belong to threads (tid); one never named is ":TID". */
#include "perfdata_int.h"
#include "hkey.h"
#include "strtab.h"
#include "xalloc.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAPS_MAX ((size_t)4 << 20)	/* maps copied by forks, in all: a
					   hostile file must not make them
					   grow as the square of its size */

struct pd_proc {
	uint32_t pid;		/* process id (UINT32_MAX: the kernel) */
	struct pd_map *maps;	/* sorted by start, not overlapping */
	size_t n, cap;		/* entries, capacity */
	size_t last;		/* the map found last: frames repeat it */
	uint32_t live;		/* its threads known and not exited */
	uint64_t died;		/* when live last fell to 0 */
};

/* A process whose threads have all exited, kept until DEATH_NS of
 * recording time later: the kernel still samples its exit path (with
 * user frames) after writing the EXIT record. */
struct pd_gone {
	struct pd_proc *p;	/* the process */
	uint64_t died;		/* its p->died then */
};

#define DEATH_NS ((uint64_t)10 * 1000000000)

/* Open addressing over pointers whose first field is the u32 key (a
 * process or thread id from the recording: placed with the process's
 * secret multiplier, hkey_slot). */
static void **hash_find(void **tab, size_t cap, uint64_t mul, uint32_t key)
{
	size_t i = hkey_slot(key, mul, cap);

	while (tab[i] && *(const uint32_t *)tab[i] != key)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static void hash_add(void ***tab, size_t *n, size_t *cap, uint64_t mul, void *e)
{
	size_t i, oldcap = *cap;
	void **old = *tab;

	if (2 * (*n + 1) > *cap) {
		*cap = oldcap ? 2 * oldcap : 64;
		*tab = xcalloc(*cap, sizeof(void *));
		for (i = 0; i < oldcap; i++)
			if (old[i])
				*hash_find(*tab, *cap, mul, *(const uint32_t *)old[i]) = old[i];
		free(old);
	}
	*hash_find(*tab, *cap, mul, *(const uint32_t *)e) = e;
	(*n)++;
}

static struct pd_proc *proc_get(struct pd *d, uint32_t pid)
{
	void **e = d->proccap ? hash_find((void **)d->procs, d->proccap, d->hmul, pid) : NULL;
	struct pd_proc *p;

	if (e && *e)
		return *e;
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	if (!d->hmul)
		d->hmul = hkey_odd();
	hash_add((void ***)&d->procs, &d->nprocs, &d->proccap, d->hmul, p);
	return p;
}

static uint32_t intern(struct pd *d, const char *s, size_t n)
{
	return strtab_intern(d->names, s, n, NULL);
}

static void set_path(struct pd *d, struct pd_map *m, const char *s, size_t n)
{
	m->path = strtab_str(d->names, intern(d, s, n), &m->pathlen);
}

struct pd_thread *pd_thread_get(struct pd *d, uint32_t pid, uint32_t tid)
{
	void **e = d->threadcap ? hash_find((void **)d->threads, d->threadcap, d->hmul, tid) : NULL;
	struct pd_thread *t;
	char buf[16];

	if (e && *e)
		return *e;
	t = xcalloc(1, sizeof(*t));
	t->tid = tid;
	t->pid = pid;
	proc_get(d, pid)->live++;
	t->comm = intern(d, buf, (size_t)snprintf(buf, sizeof(buf), ":%d", (int)tid));
	if (!d->hmul)
		d->hmul = hkey_odd();
	hash_add((void ***)&d->threads, &d->nthreads, &d->threadcap, d->hmul, t);
	return t;
}

const char *pd_thread_comm(const struct pd *d, const struct pd_thread *t, size_t *len)
{
	return strtab_str(d->names, t->comm, len);
}

void pd_proc_init(struct pd *d)
{
	struct pd_thread *idle;

	d->names = strtab_new(0);
	d->kernel = xcalloc(1, sizeof(*d->kernel));
	d->kernel->pid = UINT32_MAX;
	/* perf names the idle thread before reading anything. */
	idle = pd_thread_get(d, 0, 0);
	idle->comm = intern(d, "swapper", 7);
	idle->comm_set = 1;
}

void pd_proc_release(struct pd *d)
{
	size_t i;

	for (i = 0; i < d->proccap; i++)
		if (d->procs[i]) {
			free(d->procs[i]->maps);
			free(d->procs[i]);
		}
	for (i = 0; i < d->threadcap; i++)
		free(d->threads[i]);
	free(d->procs);
	free(d->threads);
	free(d->kernel->maps);
	free(d->kernel);
	strtab_free(d->names);
	pd_fid_free(d);
	free(d->gone);
	free(d->q);
	free(d->qtmp);
	free(d->runs);
	free(d->arena);
}

/* ---- maps ---- */

/* The first map ending after addr. */
static size_t first_after(const struct pd_proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Inserts m, cutting what it overlaps out of the maps there (a map it
 * splits in two keeps both ends). */
static void map_insert(struct pd *d, struct pd_proc *p, const struct pd_map *m)
{
	size_t i = first_after(p, m->start), j;
	struct pd_map head, tail;
	int has_head = 0, has_tail = 0;

	for (j = i; j < p->n && p->maps[j].start < m->end; j++) {
		const struct pd_map *o = &p->maps[j];

		if (o->start < m->start) {
			head = *o;
			head.end = m->start;
			has_head = 1;
		}
		if (o->end > m->end) {
			tail = *o;
			tail.serial = pd_map_serial(d);
			tail.start = m->end;
			if (!tail.ident)
				tail.pgoff += m->end - o->start;
			has_tail = 1;
		}
	}
	/* Maps [i, j) go; head, m and tail take their place. */
	xgrow(&p->maps, &p->cap, p->n + 3, sizeof(*p->maps));
	memmove(p->maps + i + has_head + 1 + has_tail, p->maps + j, (p->n - j) * sizeof(*p->maps));
	p->n = p->n - (j - i) + (size_t)has_head + 1 + (size_t)has_tail;
	if (has_head)
		p->maps[i++] = head;
	p->maps[i++] = *m;
	if (has_tail)
		p->maps[i] = tail;
}

void pd_map_add(struct pd *d, struct pd_proc *p, const struct pd_map *m)
{
	struct pd_map c = *m;

	c.serial = pd_map_serial(d);	/* a new map: no frame cached for it */
	pd_map_key(d, &c, p == d->kernel);
	c.file = 0;	/* JIT code: a name may be defined again */
	map_insert(d, p, &c);
}

struct pd_proc *pd_proc_of(struct pd *d, const struct pd_thread *t)
{
	return proc_get(d, t->pid);
}

struct pd_map *pd_find_map(struct pd_proc *p, uint64_t addr)
{
	size_t i = p->last;

	if (i < p->n && p->maps[i].start <= addr && addr < p->maps[i].end)
		return &p->maps[i];
	i = first_after(p, addr);
	if (i < p->n && p->maps[i].start <= addr) {
		p->last = i;
		return &p->maps[i];
	}
	return NULL;
}

struct pd_map *pd_kernel_text(struct pd *d)
{
	struct pd_proc *k = d->kernel;
	size_t i;

	for (i = 0; i < k->n; i++)
		if (strncmp(k->maps[i].sympath, "[kernel.kallsyms]", 17) == 0)
			return &k->maps[i];
	return NULL;
}

/* perf's names: the kernel's text is "[kernel.kallsyms]", a module
 * "[name]"; anonymous memory is looked up in the JIT map /tmp/perf-PID.map
 * and, like [heap] and [stack], shown by address. */
static void map_name(struct pd *d, struct pd_map *m, uint32_t pid, int kernel, int exec,
		     const char *f, size_t n)
{
	char buf[64];
	const char *base;
	size_t i, k;
	int anon;

	m->ident = 0;
	if (kernel && n >= 17 && memcmp(f, "[kernel.kallsyms]", 17) == 0) {
		m->ident = 1;
		if (d->kname)
			set_path(d, m, d->kname, strlen(d->kname));
		else
			set_path(d, m, f, 17);
		return;
	}
	if (kernel && n > 3 && f[0] == '/' && (base = memmem(f, n, ".ko", 3))) {
		const char *slash = base;

		while (slash > f && slash[-1] != '/')
			slash--;
		k = (size_t)(base - slash) < sizeof(buf) - 3 ? (size_t)(base - slash) : sizeof(buf) - 3;
		buf[0] = '[';
		for (i = 0; i < k; i++)
			buf[i + 1] = slash[i] == '-' ? '_' : slash[i];
		buf[k + 1] = ']';
		m->ident = 1;	/* perf shows module addresses as they are */
		set_path(d, m, buf, k + 2);
		return;
	}
	anon = (n == 6 && memcmp(f, "//anon", 6) == 0) || (n == 9 && memcmp(f, "/dev/zero", 9) == 0) ||
	       (n >= 14 && memcmp(f, "/anon_hugepage", 14) == 0);
	m->ident = anon || (n >= 6 && memcmp(f, "[stack", 6) == 0) ||
		   (n >= 5 && memcmp(f, "/SYSV", 5) == 0) || (n == 6 && memcmp(f, "[heap]", 6) == 0);
	/* Only executable ones: JIT code. */
	if (m->ident && exec)
		set_path(d, m, buf, (size_t)snprintf(buf, sizeof(buf), "/tmp/perf-%d.map", (int)pid));
	else
		set_path(d, m, f, n);
}

/* MMAP and MMAP2: pid, tid, start, len, pgoff, [MMAP2 fields], file. */
void pd_apply_mmap(struct pd *d, const unsigned char *r, size_t len, uint64_t off, int two)
{
	const struct pd_attr *a = pd_attr_of(d, r, len);
	size_t tail = a && (a->flags & (1ULL << 18)) ? a->trailer : 0;
	size_t at = two ? 8 + 32 + 24 + 8 : 8 + 32;
	uint32_t pid = pd_u32(d, r + 8);
	unsigned mode = pd_u16(d, r + 4) & PERF_RECORD_MISC_CPUMODE_MASK;
	int kernel = pid == UINT32_MAX || mode == PERF_RECORD_MISC_KERNEL;
	struct pd_map m;
	size_t n;
	int exec;

	if (len < at + tail || len - tail - at == 0) {
		pd_bad(d, off, "MMAP record of %zu bytes is too short", len);
		return;
	}
	memset(&m, 0, sizeof(m));
	m.start = pd_u64(d, r + 16);
	m.end = m.start + pd_u64(d, r + 24);
	m.pgoff = pd_u64(d, r + 32);
	if (m.end < m.start)
		m.end = UINT64_MAX;
	if (two && (pd_u16(d, r + 4) & PERF_RECORD_MISC_MMAP_BUILD_ID) && r[40] <= 20) {
		m.bid_len = r[40];
		memcpy(m.build_id, r + 44, m.bid_len);
	}
	n = strnlen((const char *)r + at, len - tail - at);
	/* MMAP2 gives the protection; MMAP, executable unless misc says data. */
	exec = two ? (pd_u32(d, r + 64) & 4) != 0 : !(pd_u16(d, r + 4) & PERF_RECORD_MISC_MMAP_DATA);
	map_name(d, &m, pid, kernel, exec, (const char *)r + at, n);
	m.sympath = kernel ? strtab_str(d->names, intern(d, (const char *)r + at, n), NULL) : m.path;
	if (kernel && !m.ident && m.end == m.start)
		return;
	if (kernel && m.ident && m.start == 0 && m.end == 0)
		m.end = UINT64_MAX;
	m.serial = pd_map_serial(d);
	pd_map_key(d, &m, kernel);
	map_insert(d, kernel ? d->kernel : proc_get(d, pd_thread_get(d, pid, pd_u32(d, r + 12))->pid), &m);
}

void pd_apply_comm(struct pd *d, const unsigned char *r, size_t len)
{
	struct pd_thread *t;

	if (len < 8 + 8 + 1)
		return;
	t = pd_thread_get(d, pd_u32(d, r + 8), pd_u32(d, r + 12));
	t->comm = intern(d, (const char *)r + 16, strnlen((const char *)r + 16, len - 16));
	t->comm_set = 1;
}

/* Frees the maps of processes dead for DEATH_NS by time now, unless
 * their pid lives again. */
static void reap(struct pd *d, uint64_t now)
{
	size_t i = 0, k;

	while (i < d->ngone && d->gone[i].died + DEATH_NS < now) {
		struct pd_proc *p = d->gone[i++].p;

		if (p->live || p->died != d->gone[i - 1].died)
			continue;
		d->copied -= p->n < d->copied ? p->n : d->copied;
		free(p->maps);
		p->maps = NULL;
		p->n = p->cap = p->last = 0;
	}
	for (k = i; k < d->ngone; k++)
		d->gone[k - i] = d->gone[k];
	d->ngone -= i;
}

/* One thread of p fewer, at time t: with none left, its maps will go. */
static void proc_gone(struct pd *d, struct pd_proc *p, uint64_t t)
{
	if (p->live && --p->live)
		return;
	if (t == UINT64_MAX)
		return;	/* no times: the maps stay */
	p->died = t;
	xgrow(&d->gone, &d->gonecap, d->ngone + 1, sizeof(*d->gone));
	d->gone[d->ngone].p = p;
	d->gone[d->ngone++].died = t;
}

/* EXIT: pid, ppid, tid, ptid, time. */
void pd_apply_exit(struct pd *d, const unsigned char *r, size_t len)
{
	struct pd_thread *t;
	uint64_t when;

	if (len < 8 + 24)
		return;
	when = pd_u64(d, r + 24);
	reap(d, when);
	t = pd_thread_get(d, pd_u32(d, r + 8), pd_u32(d, r + 16));
	if (t->exited)
		return;
	t->exited = 1;
	proc_gone(d, proc_get(d, t->pid), when);
}

/* FORK: the child is new (a thread of the same tid goes), named as its
 * parent; a new process gets a copy of its parent's maps. */
void pd_apply_fork(struct pd *d, const unsigned char *r, size_t len)
{
	uint32_t pid, ppid, tid, ptid;
	struct pd_thread *parent, *t;
	struct pd_proc *pp, *cp;

	if (len < 8 + 16)
		return;
	pid = pd_u32(d, r + 8);
	ppid = pd_u32(d, r + 12);
	tid = pd_u32(d, r + 16);
	ptid = pd_u32(d, r + 20);
	parent = pd_thread_get(d, ppid, ptid);
	t = pd_thread_get(d, pid, tid);
	if (t->exited || t->pid != pid) {	/* a tid used again */
		if (!t->exited)
			proc_gone(d, proc_get(d, t->pid), UINT64_MAX);
		proc_get(d, pid)->live++;
		t->exited = 0;
	}
	t->pid = pid;
	t->comm_set = parent->comm_set;
	if (parent->comm_set) {
		t->comm = parent->comm;
	} else {
		char buf[16];

		t->comm = intern(d, buf, (size_t)snprintf(buf, sizeof(buf), ":%d", (int)tid));
	}
	if (pid == parent->pid)
		return;
	pp = proc_get(d, parent->pid);
	cp = proc_get(d, pid);
	cp->n = 0;
	if (d->copied + pp->n > MAPS_MAX) {
		pd_bad(d, UINT64_MAX, "more than %zu maps copied by forks; process %u starts with none",
		       MAPS_MAX, (unsigned)pid);
		return;
	}
	d->copied += pp->n;
	xgrow(&cp->maps, &cp->cap, pp->n, sizeof(*cp->maps));
	if (pp->n)
		memcpy(cp->maps, pp->maps, pp->n * sizeof(*pp->maps));
	cp->n = pp->n;
}
