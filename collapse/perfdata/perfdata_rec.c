/* perfdata_rec: the fields of a record, by its event's sample_type.
 *
 * A sample lists its fields in the fixed order of perf_event.h; each is
 * stepped over with its size checked against the record, so a later
 * field is found whatever comes before it and a lying size is caught.
 * Other records carry a sample_id_all trailer at their end. */
#include "perfdata_int.h"
#include "xalloc.h"

#include <linux/perf_event.h>
#include <stdlib.h>

#define SAMPLE_ID_ALL (1ULL << 18)	/* the bit in perf_event_attr's flags */

/* A read position over one record. */
struct cur {
	const struct pd *d;		/* byte order */
	const unsigned char *p;		/* next byte */
	const unsigned char *end;	/* end of the record */
	int bad;			/* a field ran past the end */
};

static const unsigned char *take(struct cur *c, uint64_t n)
{
	const unsigned char *p = c->p;

	if (c->bad || n > (uint64_t)(c->end - c->p)) {
		c->bad = 1;
		return NULL;
	}
	c->p += n;
	return p;
}

static uint64_t take64(struct cur *c)
{
	const unsigned char *p = take(c, 8);

	return p ? pd_u64(c->d, p) : 0;
}

static unsigned bits(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

/* The u64 words of a sample_id_all trailer for sample_type t. */
static size_t trailer_words(uint64_t t)
{
	return !!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ID) +
	       !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU) +
	       !!(t & PERF_SAMPLE_IDENTIFIER);
}

static int cmp_id(const void *a, const void *b)
{
	const struct pd_idmap *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Where the id is: perf reads it at the first event's positions, which
 * every event of a file must share. */
void pd_layout(struct pd *d)
{
	size_t i, j, n = 0;
	uint64_t t;

	for (i = 0; i < d->nattrs; i++) {
		d->attrs[i].trailer = 8 * trailer_words(d->attrs[i].sample_type);
		n += d->attrs[i].nids;
	}
	d->id_pos = d->id_trail = -1;
	if (!d->nattrs)
		return;
	t = d->attrs[0].sample_type;
	if (t & PERF_SAMPLE_IDENTIFIER) {
		d->id_pos = 0;
		d->id_trail = 1;
	} else if (t & PERF_SAMPLE_ID) {
		d->id_pos = !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) +
			    !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR);
		d->id_trail = 1 + !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU);
	}
	memset(d->idhit, 0, sizeof(d->idhit));
	free(d->idmap);
	d->idmap = n ? xmalloc(n * sizeof(*d->idmap)) : NULL;
	d->nidmap = 0;
	for (i = 0; i < d->nattrs && n; i++)
		for (j = 0; j < d->attrs[i].nids; j++) {
			d->idmap[d->nidmap].id = d->attrs[i].ids[j];
			d->idmap[d->nidmap++].attr = i;
		}
	if (d->nidmap)
		qsort(d->idmap, d->nidmap, sizeof(*d->idmap), cmp_id);
}

/* Each record asks (twice: its time, then its fields), so the ids met
 * lately are remembered before the binary search. */
static const struct pd_attr *attr_by_id(struct pd *d, uint64_t id)
{
	struct pd_idmap *hit = &d->idhit[id % PD_IDHIT];
	size_t lo = 0, hi = d->nidmap;

	if (hit->attr && hit->id == id)
		return &d->attrs[hit->attr - 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->idmap[mid].id == id) {
			hit->id = id;
			hit->attr = d->idmap[mid].attr + 1;
			return &d->attrs[d->idmap[mid].attr];
		}
		if (d->idmap[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct pd_attr *pd_attr_of(struct pd *d, const unsigned char *r, size_t len)
{
	uint32_t type;
	size_t at;

	if (d->nattrs <= 1)
		return d->nattrs ? &d->attrs[0] : NULL;
	type = pd_u32(d, r);
	if (type == PERF_RECORD_SAMPLE) {
		if (d->id_pos < 0)
			return &d->attrs[0];
		at = 8 + 8 * (size_t)d->id_pos;
		if (at + 8 > len)
			return NULL;
	} else {
		if (!(d->attrs[0].flags & SAMPLE_ID_ALL) || d->id_trail < 0)
			return &d->attrs[0];
		if (len < 8 + 8 * (size_t)d->id_trail)
			return NULL;
		at = len - 8 * (size_t)d->id_trail;
	}
	return attr_by_id(d, pd_u64(d, r + at));
}

uint64_t pd_time_of(struct pd *d, const unsigned char *r, size_t len)
{
	const struct pd_attr *a = pd_attr_of(d, r, len);
	uint64_t t;
	size_t at;

	if (!a || !(a->sample_type & PERF_SAMPLE_TIME))
		return UINT64_MAX;
	t = a->sample_type;
	if (pd_u32(d, r) == PERF_RECORD_SAMPLE) {
		at = 8 + 8 * (size_t)(!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
				      !!(t & PERF_SAMPLE_TID));
	} else {
		size_t from_end = 1 + !!(t & PERF_SAMPLE_ID) + !!(t & PERF_SAMPLE_STREAM_ID) +
				  !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_IDENTIFIER);

		if (!(a->flags & SAMPLE_ID_ALL) || len < 8 + 8 * from_end)
			return UINT64_MAX;
		at = len - 8 * from_end;
	}
	return at + 8 <= len ? pd_u64(d, r + at) : UINT64_MAX;
}

static void skip_read(struct cur *c, uint64_t rf)
{
	uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	uint64_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (rf & PERF_FORMAT_GROUP) {
		uint64_t nr = take64(c);

		if (nr > (uint64_t)(c->end - c->p) / 8) {
			c->bad = 1;
			return;
		}
		take(c, 8 * (times + nr * per));
	} else {
		take(c, 8 * (per + times));
	}
}

/* Registers: abi, then (abi not 0) one u64 per bit of mask. */
static const unsigned char *skip_regs(struct cur *c, uint64_t mask, uint64_t *abi)
{
	*abi = take64(c);
	return *abi ? take(c, 8 * (uint64_t)bits(mask)) : NULL;
}

static void skip_sized(struct cur *c)
{
	uint64_t n = take64(c);

	take(c, n);
}

/* The fields after CALLCHAIN: read past, so a bad size is caught. */
static void after_chain(struct cur *c, const struct pd_attr *a, struct pd_sample *s)
{
	uint64_t t = a->sample_type, abi;

	if (t & PERF_SAMPLE_RAW) {
		const unsigned char *p = take(c, 4);

		take(c, p ? pd_u32(c->d, p) : 0);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr = take64(c);

		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			take(c, 8);
		if (nr > (uint64_t)(c->end - c->p) / 24)
			c->bad = 1;
		take(c, 24 * nr);
	}
	if (t & PERF_SAMPLE_REGS_USER)
		s->regs = skip_regs(c, a->regs_user, &s->regs_abi);
	if (t & PERF_SAMPLE_STACK_USER) {
		uint64_t n = take64(c), dyn;

		if (n) {
			s->stack = take(c, n);
			dyn = take64(c);
			s->stack_size = dyn < n ? dyn : n;
		}
	}
	take(c, 8 * (uint64_t)(!!(t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) +
			       !!(t & PERF_SAMPLE_DATA_SRC) + !!(t & PERF_SAMPLE_TRANSACTION)));
	if (t & PERF_SAMPLE_REGS_INTR)
		skip_regs(c, a->regs_intr, &abi);
	take(c, 8 * (uint64_t)(!!(t & PERF_SAMPLE_PHYS_ADDR) + !!(t & PERF_SAMPLE_CGROUP) +
			       !!(t & PERF_SAMPLE_DATA_PAGE_SIZE) +
			       !!(t & PERF_SAMPLE_CODE_PAGE_SIZE)));
	if (t & PERF_SAMPLE_AUX)
		skip_sized(c);
}

static void head_fields(struct cur *c, uint64_t t, struct pd_sample *s)
{
	const unsigned char *p;

	if (t & PERF_SAMPLE_IDENTIFIER)
		take(c, 8);
	if (t & PERF_SAMPLE_IP)
		s->ip = take64(c);
	if ((t & PERF_SAMPLE_TID) && (p = take(c, 8))) {
		s->pid = pd_u32(c->d, p);
		s->tid = pd_u32(c->d, p + 4);
	}
	if (t & PERF_SAMPLE_TIME)
		s->time = take64(c);
	take(c, 8 * (uint64_t)(!!(t & PERF_SAMPLE_ADDR) + !!(t & PERF_SAMPLE_ID) +
			       !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU)));
	if (t & PERF_SAMPLE_PERIOD)
		s->period = take64(c);
}

int pd_parse_sample(struct pd *d, const unsigned char *r, size_t len, struct pd_sample *s)
{
	struct cur c = { d, r + 8, r + len, 0 };
	const struct pd_attr *a = pd_attr_of(d, r, len);
	uint64_t t;

	if (!a)
		return -1;
	t = a->sample_type;
	s->attr = a;
	s->ip = 0;
	s->pid = s->tid = UINT32_MAX;
	s->time = UINT64_MAX;
	s->period = 0;
	s->chain = NULL;
	s->nchain = 0;
	s->regs_abi = 0;
	s->regs = s->stack = NULL;
	s->stack_size = 0;
	s->cpumode = pd_u16(d, r + 4) & PERF_RECORD_MISC_CPUMODE_MASK;
	head_fields(&c, t, s);
	if (t & PERF_SAMPLE_READ)
		skip_read(&c, a->read_format);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		s->nchain = take64(&c);
		if (s->nchain > (uint64_t)(c.end - c.p) / 8)
			return -1;
		s->chain = take(&c, 8 * s->nchain);
	}
	after_chain(&c, a, s);
	return c.bad ? -1 : 0;
}
