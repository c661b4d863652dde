/* etl_join: the kept events replayed in time order, joining stack
 * fragments to their samples as TraceEvent's TraceLog does. */
#include "etl_int.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNRESOLVED 0x80000000u	/* a fragment slot naming a key reference */
#define LOOK_BACK 256		/* samples of a thread a stack may be late by */

/* A sample's slot waiting for a key's definition. */
struct keyref {
	uint32_t smp;		/* the sample */
	uint32_t next;		/* the next reference to the key + 1 */
	uint8_t user;		/* its user slot, else its kernel one */
};

struct join {
	struct etl *x;
	struct map64 thr;	/* tid -> pid */
	struct map64 procs;	/* pid -> name */
	struct map64 last;	/* tid -> its latest sample */
	struct map64 pend;	/* tid -> first sample waiting to leave the kernel + 1 */
	struct map64 keys;	/* key -> first open reference + 1 */
	struct map64 imgs;	/* (pid, base) -> image */
	struct keyref *kr;
	size_t nkr, krcap;
};

static uint32_t get(const struct map64 *m, uint64_t key, uint32_t none)
{
	size_t c = 0;
	uint32_t v;

	return map64_next(m, key, &c, &v) == 0 ? v : none;
}

int etl_kernel_addr(const struct etl *x, uint64_t a)
{
	return x->ptrsize == 4 ? a >= 0x80000000u : a >= 0xffff800000000000ULL;
}

/* The sample of thread tid taken at ts: a stack names its sample by
 * both, and comes soon after it, so the thread's latest samples are
 * looked through, newest first. */
static struct esample *find(struct join *j, uint64_t ts, uint32_t tid)
{
	uint32_t i = get(&j->last, tid, 0), n;

	for (n = 0; i && n < LOOK_BACK; n++) {
		struct esample *s = &j->x->smp[i - 1];

		if (s->ts == ts)
			return s;
		if (s->ts < ts)
			return NULL;
		i = s->prev;
	}
	return NULL;
}

/* Sets a slot of sample s to fragment frag, or (key) to a reference to key. */
static void set_slot(struct join *j, struct esample *s, int user, int key, uint64_t v)
{
	uint32_t *slot = user ? &s->user : &s->kern;
	struct keyref *r;

	if (!key) {
		*slot = (uint32_t)v + 1;
		return;
	}
	if (j->nkr == j->krcap)
		xgrow(&j->kr, &j->krcap, j->nkr + 1, sizeof(*j->kr));
	r = &j->kr[j->nkr];
	r->smp = (uint32_t)(s - j->x->smp);
	r->user = (uint8_t)user;
	r->next = get(&j->keys, v, 0);
	map64_set(&j->keys, v, (uint32_t)++j->nkr);
	*slot = UNRESOLVED | (uint32_t)(j->nkr - 1);
}

static void wait_kernel(struct join *j, struct esample *s)
{
	if (s->waiting)
		return;
	s->waiting = 1;
	s->pend = get(&j->pend, s->tid, 0);
	map64_set(&j->pend, s->tid, (uint32_t)(s - j->x->smp) + 1);
}

/* The thread left the kernel with user stack v: every kernel fragment
 * waiting on it gets it.  Returns whether target was among them. */
static int leave_kernel(struct join *j, uint32_t tid, int key, uint64_t v,
			const struct esample *target)
{
	uint32_t i = get(&j->pend, tid, 0);
	int found = 0;

	while (i) {
		struct esample *s = &j->x->smp[i - 1];

		i = s->pend;
		s->pend = 0;
		s->waiting = 0;
		set_slot(j, s, 1, key, v);
		found |= s == target;
	}
	map64_set(&j->pend, tid, 0);
	return found;
}

static void stack(struct join *j, const struct erec *r)
{
	struct etl *x = j->x;
	struct esample *s = find(j, r->a, r->tid);
	const uint64_t *a = x->addr + x->fragat[r->frag];
	uint32_t n = x->fraglen[r->frag];

	if (!s)
		x->st.orphans++;
	else if (s->pid == 0xffffffff && r->pid != 0xffffffff)
		s->pid = r->pid;
	if (etl_kernel_addr(x, a[n - 1])) {
		if (s) {
			set_slot(j, s, 0, 0, r->frag);
			wait_kernel(j, s);
		}
		return;
	}
	if (!etl_kernel_addr(x, a[0]) && leave_kernel(j, r->tid, 0, r->frag, s))
		return;
	if (s)
		set_slot(j, s, 1, 0, r->frag);
}

static void key_ref(struct join *j, const struct erec *r)
{
	struct esample *s = find(j, r->a, r->tid);

	if (!s) {
		j->x->st.orphans++;
		return;
	}
	if (r->kind == R_KEY_KERNEL) {
		set_slot(j, s, 0, 1, r->b);
		wait_kernel(j, s);
	} else if (!leave_kernel(j, r->tid, 1, r->b, s)) {
		set_slot(j, s, 1, 1, r->b);
	}
}

/* A key's definition: its open references get the fragment. */
static void key_def(struct join *j, const struct erec *r)
{
	uint32_t i = get(&j->keys, r->b, 0);

	while (i) {
		struct keyref *k = &j->kr[i - 1];
		struct esample *s = &j->x->smp[k->smp];

		*(k->user ? &s->user : &s->kern) = r->frag + 1;
		i = k->next;
	}
	map64_set(&j->keys, r->b, 0);
}

static void sample(struct join *j, const struct erec *r)
{
	struct etl *x = j->x;
	struct esample *s;

	if (x->nsmp == x->smpcap)
		xgrow(&x->smp, &x->smpcap, x->nsmp + 1, sizeof(*x->smp));
	s = &x->smp[x->nsmp];
	memset(s, 0, sizeof(*s));
	s->ts = r->ts;
	s->ip = r->a;
	s->tid = r->tid;
	s->flags = r->flags;
	s->pid = r->tid == 0 ? 0 : get(&j->thr, r->tid, 0xffffffff);
	s->proc = get(&j->procs, s->pid, 0);
	s->prev = get(&j->last, s->tid, 0);
	map64_set(&j->last, s->tid, (uint32_t)++x->nsmp);
}

/* A JIT method's frame: "Module!Namespace.Name(args)", its module by
 * the ModuleID its record kept ("?" when no module event named it). */
static uint32_t jit_name(struct etl *x, const struct erec *r)
{
	char buf[1400];
	const char *mod = "?", *meth;
	size_t mlen = 1, len;
	uint32_t id = r->tid < x->nmodids ? get(&x->clrmods, x->modids[r->tid], UINT32_MAX)
					  : UINT32_MAX;
	int n;

	if (id != UINT32_MAX)
		mod = strtab_str(x->names, id, &mlen);
	meth = strtab_str(x->names, r->frag, &len);
	n = snprintf(buf, sizeof(buf), "%.*s!%.*s", (int)mlen, mod, (int)len, meth);
	return strtab_intern(x->names, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1,
			     NULL);
}

static void image(struct join *j, const struct erec *r)
{
	struct etl *x = j->x;
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
		return;
	}
	if (x->nimg == x->imgcap)
		xgrow(&x->img, &x->imgcap, x->nimg + 1, sizeof(*x->img));
	m = &x->img[x->nimg];
	m->base = r->a;
	m->size = r->b;
	m->t0 = r->flags & IMG_RUNDOWN ? 0 : r->ts;	/* there from the start */
	m->t1 = UINT64_MAX;
	m->pid = r->pid;
	m->name = r->flags & IMG_JIT ? jit_name(x, r) : r->frag;
	m->jit = (r->flags & IMG_JIT) != 0;
	m->sym = 0;
	map64_put(&j->imgs, k, (uint32_t)x->nimg++);
}

static void replay(struct join *j, const struct erec *r)
{
	switch (r->kind) {
	case R_THREAD: map64_set(&j->thr, r->tid, r->pid); break;
	case R_PROC: map64_set(&j->procs, r->pid, r->frag + 1); break;
	case R_IMG_LOAD: case R_IMG_UNLOAD: image(j, r); break;
	case R_SAMPLE: sample(j, r); break;
	case R_STACK: stack(j, r); break;
	case R_KEY_KERNEL: case R_KEY_USER: key_ref(j, r); break;
	case R_KEY_DEF: key_def(j, r); break;
	default: break;
	}
}

/* Samples whose thread or name came only later (rundown at the end). */
static void late_names(struct join *j)
{
	size_t i;

	for (i = 0; i < j->x->nsmp; i++) {
		struct esample *s = &j->x->smp[i];

		if (s->pid == 0xffffffff)
			s->pid = get(&j->thr, s->tid, 0xffffffff);
		if (!s->proc)
			s->proc = get(&j->procs, s->pid, 0);
	}
}

void etl_join(struct etl *x)
{
	struct etl_key *order = etl_sorted(x->rec, x->nrec, 256);
	struct join j;
	size_t i;

	memset(&j, 0, sizeof(j));
	j.x = x;
	for (i = 0; i < x->nrec; i++)
		replay(&j, &x->rec[order[i].i]);
	free(order);
	late_names(&j);
	free(x->rec);
	x->rec = NULL;
	x->nrec = x->reccap = 0;
	map64_free(&j.thr);
	map64_free(&j.procs);
	map64_free(&j.last);
	map64_free(&j.pend);
	map64_free(&j.keys);
	map64_free(&j.imgs);
	free(j.kr);
}
