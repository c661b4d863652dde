/* pprof_format: telling profile.proto from its first fields, and
 * collapsing it for collect. */
#include "pprof_format.h"
#include "collect.h"
#include "lread.h"
#include "pbuf.h"
#include "pprof.h"
#include "pprof_cli.h"
#include "pprof_fast.h"
#include "pprof_set.h"
#include "pprof_stack.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The wire type profile.proto gives top-level field num, or -1 for a
 * field it does not have. */
static int top_wire(uint32_t num)
{
	if (num >= 1 && num <= 6)
		return PB_LEN;
	if (num == 11 || num == 13)
		return num == 11 ? PB_LEN : PB_VARINT;
	return (num >= 7 && num <= 14) ? PB_VARINT : -1;
}

/* Whether field f fits the message of top-level field top: sample types,
 * mappings and functions hold varints only (fields 1-2, 1-10, 1-5), a
 * sample packed runs or varints and labels (1-3), a location varints and
 * lines (1-5, lines being 4). */
static int sub_field_ok(uint32_t top, const struct pb_field *f)
{
	static const uint32_t last[6] = { 0, 2, 3, 10, 5, 5 };

	if (f->num > last[top])
		return 0;
	if (top == 2)
		return f->wire == PB_VARINT || f->wire == PB_LEN;
	if (top == 4 && f->num == 4)
		return f->wire == PB_LEN;
	return f->wire == PB_VARINT;
}

/* Whether message m (a top-level entry of fields 1-5) has only the fields
 * its type has, with their wire types. */
static int sub_ok(const struct pb *r, const struct pb_field *m)
{
	struct pb s;
	struct pb_field f;
	char err[8];
	int rc, n = 0;

	pb_sub(&s, r, m);
	while ((rc = pb_next(&s, &f, err, sizeof(err))) > 0) {
		if (!sub_field_ok(m->num, &f))
			return 0;
		n++;
	}
	return rc == 0 && n > 0;
}

int pprof_fmt_sniff(const char *head, size_t len)
{
	struct pb r;
	struct pb_field f;
	char err[8];
	int n = 0, msgs = 0;

	/* Fields come in any order (Go writes time_nanos first, older Go a
	 * mapping): every field must be Profile's, and at least one message
	 * of fields 1-5 must read as that message.  A field cut by the end of
	 * head is no fault: head is the input's first few KB. */
	pb_init(&r, head, len);
	while (n < 64 && pb_next(&r, &f, err, sizeof(err)) > 0) {
		if (top_wire(f.num) != f.wire && !(f.num == 13 && f.wire == PB_LEN))
			return 0;
		if (f.num <= 5 && !sub_ok(&r, &f))
			return 0;
		msgs += f.num <= 5;
		n++;
	}
	if (!msgs)
		return 0;
	return n > 1 ? 90 : 60;
}

/* Offers the sample type's unit as the unit of the weights: "ns" for
 * nanoseconds, the type's name ("samples") for a count, else the unit. */
static void offer_unit(const struct format_job *j, const struct pprof_prof *p, int vi)
{
	const char *u, *t;
	size_t un, tn;
	char buf[64];

	if (!p->ntypes)
		return;
	u = pprof_str(p, p->types[vi].unit, &un);
	t = pprof_str(p, p->types[vi].type, &tn);
	if (un == 11 && memcmp(u, "nanoseconds", 11) == 0)
		collect_unit(j->o, "ns");
	else if (un == 5 && memcmp(u, "count", 5) == 0 && tn && tn < sizeof(buf)) {
		snprintf(buf, sizeof(buf), "%.*s", (int)tn, t);
		collect_unit(j->o, buf);
	} else if (un && un < sizeof(buf)) {
		snprintf(buf, sizeof(buf), "%.*s", (int)un, u);
		collect_unit(j->o, buf);
	}
}

/* "samples, cpu": the sample types' names, into buf. */
static void type_names(const struct pprof_prof *p, char *buf, size_t cap)
{
	size_t i, n, used = 0;
	const char *s;

	buf[0] = '\0';
	for (i = 0; i < p->ntypes && used < cap; i++) {
		s = pprof_str(p, p->types[i].type, &n);
		used += (size_t)snprintf(buf + used, cap - used, "%s%.*s", i ? ", " : "",
					 (int)(n < 64 ? n : 64), s);
	}
}

/* Names what was skipped or cut short through j->warn.  Returns 1 when
 * the profile broke off, else 0. */
static int report(const struct format_job *j, const struct pprof_prof *p,
		  const struct pprof_tally *st)
{
	char msg[480];

	if (p->skipped) {
		snprintf(msg, sizeof(msg), "skipped %zu entr%s that could not be read (the first: %s)",
			 p->skipped, p->skipped == 1 ? "y" : "ies", p->first_skip);
		j->warn(j->ctx, j->name, 0, msg);
	}
	if (st->skipped) {
		snprintf(msg, sizeof(msg), "skipped %zu sample%s (the first: %s)", st->skipped,
			 st->skipped == 1 ? "" : "s", st->first);
		j->warn(j->ctx, j->name, 0, msg);
	}
	if (p->partial) {
		snprintf(msg, sizeof(msg), "%s; what came before is kept", p->fault);
		j->warn(j->ctx, j->name, 0, msg);
	}
	if (st->cut)
		j->warn(j->ctx, j->name, 0, st->fault);
	return p->partial || st->cut;
}

/* j's profile, read telling hook (may be NULL) of its samples; NULL
 * with a message in j->err when it cannot be read. */
static struct pprof_prof *read_input(const struct format_job *j, const struct pprof_hook *hook)
{
	unsigned char *buf;
	const char *whole;
	size_t len;

	/* A file as it is on disk is read in place, mapped; its pages are
	 * given back as the samples are read. */
	if ((whole = lread_whole(j->lr, &len)) && len <= PPROF_MAX_INPUT)
		return pprof_read_hooked((const unsigned char *)whole, len, PPROF_MAPPED, hook);
	if (whole) {
		snprintf(j->err, j->errlen, "%s: larger than %llu bytes", j->name,
			 (unsigned long long)PPROF_MAX_INPUT);
		return NULL;
	}
	if ((buf = (unsigned char *)lread_slurp(j->lr, PPROF_MAX_INPUT, &len, j->err,
						j->errlen)) && !j->err[0])
		return pprof_read_hooked(buf, len, PPROF_OWN, hook);
	free(buf);
	return NULL;
}

/* Where j's stacks go as frame ids (pprof_fast), or NULL: to the table.
 * The tool's set; for flame's graph, a set of this input's own (*own),
 * handed to the renderer as ids after.  Not with labels (pprof_fast
 * takes none) or for a flame chart (input order). */
static struct pprof_set *id_set(const struct format_job *j, struct pprof_set **own)
{
	const struct pprof_opts *o = j->fopts;

	*own = NULL;
	if ((o && o->labels) || j->o->seq)
		return NULL;
	if (o && o->set)
		return o->set;
	if (j->o->stack_sink)
		*own = pprof_set_new();
	return *own;
}

int pprof_collect(const struct format_job *j)
{
	const struct pprof_opts *o = j->fopts;
	struct pprof_set *own, *set = id_set(j, &own);
	const char *job = getenv("FLAME_PPROF_JOB");
	struct pprof_fast *fast =
		set ? pprof_fast_new(pprof_threads(o), job ? (size_t)strtoul(job, NULL, 10) : 0) : NULL;
	struct pprof_prof *p = read_input(j, fast ? pprof_fast_hook(fast) : NULL);
	struct pprof_tally st;
	char names[300];
	int vi, rc;

	if (!p) {
		pprof_fast_free(fast);
		pprof_set_free(own);
		return -1;
	}
	/* The samples are drawn once: an inflated profile's pages of
	 * samples drawn go back as the drawing goes. */
	p->once = 1;
	if ((vi = pprof_stack_type(p, o ? o->sample_type : NULL)) < 0) {
		type_names(p, names, sizeof(names));
		snprintf(j->err, j->errlen, "%s: no sample type '%s' in the profile (it has: %s)",
			 j->name, o->sample_type, p->ntypes ? names : "none");
		pprof_fast_free(fast);
		pprof_set_free(own);
		pprof_free(p);
		return -1;
	}
	offer_unit(j, p, vi);
	memset(&st, 0, sizeof(st));
	if (!fast || pprof_fast_finish(fast, p, vi, set) < 0)
		pprof_stack_add(p, vi, o && o->labels, j->t, j->o->seq, &st);
	pprof_fast_free(fast);
	if (own && pprof_set_emit(own, j->o->stack_sink) < 0)
		pprof_set_spell(own, j->t);
	pprof_set_free(own);
	rc = report(j, p, &st);
	pprof_free(p);
	return rc;
}
