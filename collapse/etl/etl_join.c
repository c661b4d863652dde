/* etl_join: the kept events replayed in time order, joining stack
 * fragments to their samples as TraceEvent's TraceLog does.  Records are
 * replayed in windows so that memory follows the distinct stacks, not
 * the samples: a window ends at the earliest of the processors' latest
 * time stamps (each processor's buffers come in time order, so nothing
 * earlier is still to come), or, when a trace never lets that advance
 * (a processor silent for long), half the records kept once there are
 * too many.  Samples live in a ring while their stacks may still come;
 * the oldest are then finished into the aggregate. */
#include "etl_int.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOOK_BACK 256		/* samples of a thread a stack may be late by */
#define RING (1u << 13)		/* live samples */
#define WINDOW (1u << 18)	/* records kept before a replay is tried */
#define FORCE (1u << 21)	/* records kept before half are replayed anyway */

struct join {
	struct map64 thr;	/* tid -> pid */
	struct map64 procs;	/* pid -> name */
	struct map64 last;	/* tid -> its latest sample (seq + 1) */
	struct map64 pend;	/* tid -> first sample waiting to leave the kernel (seq + 1) */
	struct map64 keys;	/* stack key -> its open reference + 1 */
	struct map64 imgs;	/* (pid, base) -> image */
	struct etl_sortbuf sort;	/* the time order's room */
	struct esample *ring;	/* live samples, by seq % RING */
	uint32_t lo, hi;	/* the live seqs: [lo, hi) */
};

static uint32_t get(const struct map64 *m, uint64_t key, uint32_t none)
{
	size_t c = 0;
	uint32_t v;

	return map64_next(m, key, &c, &v) == 0 ? v : none;
}

/* The live sample of link i (seq + 1), or NULL when none or finished. */
static struct esample *live(struct join *j, uint32_t i)
{
	if (!i || i - 1 - j->lo >= j->hi - j->lo)
		return NULL;
	return &j->ring[(i - 1) % RING];
}

/* The sample of thread tid taken at ts: a stack names its sample by
 * both, and comes soon after it, so the thread's latest samples are
 * looked through, newest first. */
static struct esample *find(struct join *j, uint64_t ts, uint32_t tid)
{
	struct esample *s = live(j, get(&j->last, tid, 0));
	int n;

	for (n = 0; s && n < LOOK_BACK; n++) {
		if (s->ts == ts)
			return s;
		if (s->ts < ts)
			return NULL;
		s = live(j, s->prev);
	}
	return NULL;
}

/* A reference to stack key k: its id, the same until the key is defined. */
static uint32_t key_id(struct etl *x, uint64_t k)
{
	uint32_t id = get(&x->join->keys, k, 0);

	if (id)
		return id - 1;
	if (x->nkey == x->keycap)
		xgrow(&x->keyfrag, &x->keycap, x->nkey + 1, sizeof(*x->keyfrag));
	x->keyfrag[x->nkey] = UINT32_MAX;
	map64_set(&x->join->keys, k, (uint32_t)x->nkey + 1);
	return (uint32_t)x->nkey++;
}

/* Sets a slot of sample s to fragment v, or (key) to a reference to key v. */
static void set_slot(struct etl *x, struct esample *s, int user, int key, uint64_t v)
{
	*(user ? &s->user : &s->kern) = key ? KEY_REF | key_id(x, v) : (uint32_t)v + 1;
}

static void wait_kernel(struct join *j, struct esample *s, uint32_t seq)
{
	if (s->waiting)
		return;
	s->waiting = 1;
	s->pend = get(&j->pend, s->tid, 0);
	map64_set(&j->pend, s->tid, seq + 1);
}

/* The thread left the kernel with user stack v: every kernel fragment
 * waiting on it gets it.  Returns whether target was among them. */
static int leave_kernel(struct etl *x, uint32_t tid, int key, uint64_t v,
			const struct esample *target)
{
	struct join *j = x->join;
	struct esample *s = live(j, get(&j->pend, tid, 0));
	int found = 0;

	while (s) {
		struct esample *next = live(j, s->pend);

		s->pend = 0;
		s->waiting = 0;
		set_slot(x, s, 1, key, v);
		found |= s == target;
		s = next;
	}
	map64_set(&j->pend, tid, 0);
	return found;
}

static uint32_t seq_of(const struct join *j, const struct esample *s)
{
	uint32_t at = (uint32_t)(s - j->ring), base = j->lo - j->lo % RING;

	return base + at >= j->lo ? base + at : base + RING + at;
}

static void stack(struct etl *x, const struct erec *r)
{
	struct join *j = x->join;
	struct esample *s = find(j, r->a, r->tid);
	const uint64_t *a = x->addr + x->fragat[r->frag];
	uint32_t n = x->fraglen[r->frag];

	if (!s)
		x->st.orphans++;
	else if (s->pid == 0xffffffff && r->pid != 0xffffffff)
		s->pid = r->pid;
	if (etl_kernel_addr(x, a[n - 1])) {
		if (s) {
			set_slot(x, s, 0, 0, r->frag);
			wait_kernel(j, s, seq_of(j, s));
		}
		return;
	}
	if (!etl_kernel_addr(x, a[0]) && leave_kernel(x, r->tid, 0, r->frag, s))
		return;
	if (s)
		set_slot(x, s, 1, 0, r->frag);
}

static void key_ref(struct etl *x, const struct erec *r)
{
	struct join *j = x->join;
	struct esample *s = find(j, r->a, r->tid);

	if (!s) {
		x->st.orphans++;
		return;
	}
	if (r->kind == R_KEY_KERNEL) {
		set_slot(x, s, 0, 1, r->b);
		wait_kernel(j, s, seq_of(j, s));
	} else if (!leave_kernel(x, r->tid, 1, r->b, s)) {
		set_slot(x, s, 1, 1, r->b);
	}
}

/* A key's definition: the references made so far get the fragment; the
 * next reference to the key is to its next definition. */
static void key_def(struct etl *x, const struct erec *r)
{
	uint32_t id = get(&x->join->keys, r->b, 0);

	if (!id)
		return;
	x->keyfrag[id - 1] = r->frag;
	map64_set(&x->join->keys, r->b, 0);
}

/* The oldest live sample into the aggregate. */
static void finish(struct etl *x)
{
	struct join *j = x->join;
	struct esample *s = &j->ring[j->lo % RING];

	if (s->pid == 0xffffffff)
		s->pid = get(&j->thr, s->tid, 0xffffffff);
	if (!s->proc)
		s->proc = get(&j->procs, s->pid, 0);
	etl_agg_add(x, s);
	j->lo++;
}

static void sample(struct etl *x, const struct erec *r)
{
	struct join *j = x->join;
	struct esample *s;

	if (j->hi - j->lo == RING)
		finish(x);
	s = &j->ring[j->hi % RING];
	memset(s, 0, sizeof(*s));
	s->ts = r->ts;
	s->tid = r->tid;
	s->flags = r->flags;
	s->epoch = x->epoch;
	s->pid = r->tid == 0 ? 0 : get(&j->thr, r->tid, 0xffffffff);
	s->proc = get(&j->procs, s->pid, 0);
	s->prev = get(&j->last, s->tid, 0);
	map64_set(&j->last, s->tid, ++j->hi);
}

static void image(struct etl *x, const struct erec *r)
{
	struct join *j = x->join;
	uint64_t k = r->a ^ (uint64_t)r->pid << 44;
	struct eimage *m;
	size_t c = 0;
	uint32_t i, last = 0;

	if (r->kind == R_IMG_UNLOAD) {
		while (map64_next(&j->imgs, k, &c, &i) == 0)
			if (x->img[i].pid == r->pid && x->img[i].base == r->a && i + 1 > last)
				last = i + 1;
		if (last && x->img[last - 1].t1 == UINT64_MAX)
			x->img[last - 1].t1 = r->ts;
		x->epoch++;
		return;
	}
	if (x->nimg == x->imgcap)
		xgrow(&x->img, &x->imgcap, x->nimg + 1, sizeof(*x->img));
	m = &x->img[x->nimg];
	x->epoch++;
	m->base = r->a;
	m->size = r->b;
	m->t0 = r->flags & IMG_RUNDOWN ? 0 : r->ts;	/* there from the start */
	m->t1 = UINT64_MAX;
	m->pid = r->pid;
	m->name = r->frag;
	m->jit = (r->flags & IMG_JIT) != 0;
	m->mod = m->jit ? r->tid : UINT32_MAX;	/* named at the emit: modules come late */
	m->sym = 0;
	map64_put(&j->imgs, k, (uint32_t)x->nimg++);
}

static void replay(struct etl *x, const struct erec *r)
{
	struct join *j = x->join;

	switch (r->kind) {
	case R_THREAD: map64_set(&j->thr, r->tid, r->pid); break;
	case R_PROC: map64_set(&j->procs, r->pid, r->frag + 1); break;
	case R_IMG_LOAD: case R_IMG_UNLOAD: image(x, r); break;
	case R_SAMPLE: sample(x, r); break;
	case R_STACK: stack(x, r); break;
	case R_KEY_KERNEL: case R_KEY_USER: key_ref(x, r); break;
	case R_KEY_DEF: key_def(x, r); break;
	default: break;
	}
}

/* Where this window ends: records before it are replayed. */
static uint64_t window_end(const struct etl *x, const struct etl_key *order, int end)
{
	uint64_t w = UINT64_MAX;
	uint32_t c;
	size_t before = 0;

	if (end)
		return UINT64_MAX;
	for (c = 0; c < x->ncpu; c++)
		if (x->cpumax[c] < w)
			w = x->cpumax[c];
	if (x->nrec >= FORCE) {
		while (before < x->nrec && order[before].ts < w)
			before++;
		if (before < x->nrec / 2)
			w = order[x->nrec / 2].ts;	/* not waiting any longer */
	}
	return w;
}

/* Samples whose thread or process was named only later (rundown at the
 * end). */
static void late_names(struct etl *x)
{
	struct join *j = x->join;
	size_t i;

	for (i = 0; i < x->nagg; i++) {
		struct esample *s = &x->agg[i];

		if (s->pid == 0xffffffff)
			s->pid = get(&j->thr, s->tid, 0xffffffff);
		if (!s->proc)
			s->proc = get(&j->procs, s->pid, 0);
	}
}

void etl_join(struct etl *x, int end)
{
	struct etl_key *order;
	uint64_t w;
	size_t i, n = 0;

	if (!end && (x->nrec < WINDOW || x->nrec < x->retry))
		return;
	if (!x->join) {
		x->join = xcalloc(1, sizeof(*x->join));
		x->join->ring = xmalloc(RING * sizeof(*x->join->ring));
	}
	order = etl_sorted(x->rec, x->nrec, 256, &x->join->sort);
	if (end)	/* the last replay's aggregate may reuse that room */
		etl_sortbuf_trim(&x->join->sort, order);
	w = window_end(x, order, end);
	for (i = 0; i < x->nrec && (end || order[i].ts < w); i++)
		replay(x, &x->rec[order[i].i]);
	if (!end) {		/* the rest, in file order, for the next window */
		for (i = 0; i < x->nrec; i++)
			if (x->rec[i].ts >= w)
				x->rec[n++] = x->rec[i];
		x->nrec = n;
		x->retry = 2 * n;	/* a stuck window: sorts stay O(n log n) in all */
		return;
	}
	x->nrec = 0;
	etl_sortbuf_free(&x->join->sort);	/* before the emit's own peak */
	while (x->join->lo != x->join->hi)
		finish(x);
	late_names(x);
}

void etl_join_free(struct etl *x)
{
	struct join *j = x->join;

	if (!j)
		return;
	map64_free(&j->thr);
	map64_free(&j->procs);
	map64_free(&j->last);
	map64_free(&j->pend);
	map64_free(&j->keys);
	map64_free(&j->imgs);
	etl_sortbuf_free(&j->sort);
	free(j->ring);
	free(j);
	x->join = NULL;
}
