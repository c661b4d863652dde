/* perfsched: the collapser over linefmt.  The script's tables by pid
 * (stacks waiting for their wake-up, the last charged stack, whether a
 * task was woken) are string tables here; an entry the script deletes is
 * marked dead. */
#include "perfsched.h"
#include "leafstack.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct text {
	char *s;		/* owned, or NULL */
	size_t len;
	int live;		/* 0: deleted, or never set */
};

struct ps {
	struct linefmt_out o;	/* first: where stacks go */
	struct strtab *pending;	/* pid -> struct text: its switch stack */
	struct strtab *last;	/* pid -> struct text: its last charged stack */
	struct strtab *woken;	/* pid -> int: a wake-up with a time was seen */
	struct strtab *times;	/* "comm;stack" -> uint64_t nanoseconds */
	struct text sw_pid;	/* the switch event being read: its pid */
	int sw_on;		/* its frames are being read */
	struct leafstack sw;	/* its stack, root first */
	struct text st_pid, st_cmd, wk_cmd, wk_pid;	/* the stat event's */
	int st_on;		/* its frames are being read */
	uint64_t delay;		/* its delay, ns */
	int wk_stamp;		/* its header has a time */
	struct text wk;		/* the waker's stack, leaf first */
	size_t wcap;		/* its room */
	char *key;		/* a stack being charged */
	size_t kcap;		/* its room */
};

static void init(void *st)
{
	struct ps *p = st;

	p->pending = strtab_new(sizeof(struct text));
	p->last = strtab_new(sizeof(struct text));
	p->woken = strtab_new(sizeof(int));
	p->times = strtab_new(sizeof(uint64_t));
	leafstack_init(&p->sw);
}

static void free_texts(struct strtab *t)
{
	size_t i, n = strtab_count(t);

	for (i = 0; i < n; i++)
		free(((struct text *)strtab_val(t, (uint32_t)i))->s);
	strtab_free(t);
}

static void release(void *st)
{
	struct ps *p = st;

	free_texts(p->pending);
	free_texts(p->last);
	strtab_free(p->woken);
	strtab_free(p->times);
	leafstack_release(&p->sw);
	free(p->sw_pid.s), free(p->st_pid.s), free(p->st_cmd.s);
	free(p->wk_cmd.s), free(p->wk_pid.s), free(p->wk.s), free(p->key);
}

static void set_text(struct text *t, const char *s, size_t n)
{
	free(t->s);
	t->s = xstrndup(s, n);
	t->len = n;
	t->live = 1;
}

static struct text *entry(struct strtab *t, const struct text *pid)
{
	return strtab_val(t, strtab_intern(t, pid->s, pid->len, NULL));
}

static int space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* The script's get_perf_captured_variable: the value after the first
 * "NAME=" followed by a non-blank ("" when none). */
static void var(const char *s, size_t n, const char *name, struct text *to)
{
	size_t k = strlen(name), i;
	const char *p = s, *e = s + n, *v;

	while ((p = memmem(p, (size_t)(e - p), name, k)) != NULL) {
		v = p + k;
		if (v < e && *v == '=' && v + 1 < e && !space(v[1])) {
			for (i = 1; v + i < e && !space(v[i]); i++)
				;
			set_text(to, v + 1, i - 1);
			return;
		}
		p++;
	}
	set_text(to, "", 0);
}

/* A " TIME:" (no blank or ':' in TIME) somewhere in the line. */
static int has_stamp(const char *s, size_t n)
{
	size_t i, j;

	for (i = 0; i + 2 < n; i++)
		if (s[i] == ' ') {
			for (j = i + 1; j < n && s[j] != ' ' && s[j] != ':'; j++)
				;
			if (j > i + 1 && j < n && s[j] == ':')
				return 1;
		}
	return 0;
}

/* Field k (1-based, blank-separated) of s, as awk's $k. */
static void field(const char *s, size_t n, int k, const char **f, size_t *fl)
{
	size_t i = 0, b;

	*f = s + n, *fl = 0;
	while (k-- > 0) {
		while (i < n && space(s[i]))
			i++;
		for (b = i; i < n && !space(s[i]); i++)
			;
		if (k == 0 && b < n)
			*f = s + b, *fl = i - b;
	}
}

/* A frame line's function: its fields but the first and the last,
 * joined by one space (the script's get_function_name), into p->key. */
static size_t function(struct ps *p, const char *s, size_t n)
{
	const char *f;
	size_t fl, at = 0;
	int k, nf = 0;

	for (k = 1; field(s, n, k, &f, &fl), fl; k++)
		nf = k;
	if (n + 1 > p->kcap)
		p->key = xrealloc(p->key, p->kcap = n + 1);
	for (k = 2; k == 2 || k <= nf - 1; k++) {
		field(s, n, k, &f, &fl);
		if (k > 2)
			p->key[at++] = ' ';
		memcpy(p->key + at, f, fl);
		at += fl;
	}
	return at;
}

static void switch_frame(struct ps *p, const char *s, size_t n)
{
	size_t len, fl = function(p, s, n);

	leafstack_text(&p->sw, &len);
	if (len == 0)
		leafstack_clear(&p->sw);
	leafstack_push(&p->sw, p->key, fl);
}

static void wake_frame(struct ps *p, const char *s, size_t n)
{
	size_t fl = function(p, s, n);

	if (p->wk.len + 1 + fl > p->wcap) {
		p->wcap = 2 * (p->wk.len + 1 + fl);
		p->wk.s = xrealloc(p->wk.s, p->wcap);
	}
	if (p->wk.len)
		p->wk.s[p->wk.len++] = ';';
	memcpy(p->wk.s + p->wk.len, p->key, fl);
	p->wk.len += fl;
}

/* The switch's stack waits for its task's wake-up. */
static void switch_end(struct ps *p)
{
	struct text *t = entry(p->pending, &p->sw_pid);
	size_t len;
	const char *s = leafstack_text(&p->sw, &len);

	set_text(t, s, len);
	entry(p->last, &p->sw_pid)->live = 0;
	p->sw_on = 0;
	leafstack_clear(&p->sw);
}

/* Appends s (n bytes) to the key being built, at *at. */
static void put(struct ps *p, size_t *at, const char *s, size_t n)
{
	if (*at + n + 1 > p->kcap)
		p->key = xrealloc(p->key, p->kcap = 2 * (*at + n + 1));
	memcpy(p->key + *at, s, n);
	*at += n;
}

/* "comm" or "comm-pid" */
static void put_task(struct ps *p, size_t *at, const struct text *cmd, const struct text *pid)
{
	const struct perfsched_opts *op = p->o.fopts;

	put(p, at, cmd->s, cmd->len);
	if (op && op->tid) {
		put(p, at, "-", 1);
		put(p, at, pid->s, pid->len);
	}
}

/* The rest of the waker's side, for --record-wake-stack and --recurse:
 * ";wakerstack;waker", and with --recurse ";-;" and the waker's own last
 * charged stack when it was woken itself. */
static void put_waker(struct ps *p, size_t *at, int recurse)
{
	uint32_t id;
	const struct text *l;

	put(p, at, ";", 1);
	put(p, at, p->wk.s ? p->wk.s : "", p->wk.len);
	put(p, at, ";", 1);
	put_task(p, at, &p->wk_cmd, &p->wk_pid);
	if (!recurse)
		return;
	id = strtab_find(p->woken, p->wk_pid.s, p->wk_pid.len);
	if (id == UINT32_MAX || !*(int *)strtab_val(p->woken, id))
		return;
	put(p, at, ";-;", 3);
	id = strtab_find(p->last, p->wk_pid.s, p->wk_pid.len);
	l = id == UINT32_MAX ? NULL : strtab_val(p->last, id);
	if (l && l->live)
		put(p, at, l->s, l->len);
}

/* The wake-up of a task whose switch stack waits: that stack is charged
 * the delay. */
static void stat_end(struct ps *p, int stamp)
{
	const struct perfsched_opts *op = p->o.fopts;
	int recurse = op && op->recurse, wake = op && op->wake_stack;
	uint32_t id = strtab_find(p->pending, p->st_pid.s, p->st_pid.len);
	struct text *sw = id == UINT32_MAX ? NULL : strtab_val(p->pending, id);
	size_t at = 0, body;

	p->st_on = 0;
	if (!sw || !sw->live)
		return;
	sw->live = 0;
	*(int *)strtab_val(p->woken, strtab_intern(p->woken, p->st_pid.s, p->st_pid.len, NULL)) =
		stamp;
	put_task(p, &at, &p->st_cmd, &p->st_pid);
	put(p, &at, ";", 1);
	body = at;
	put(p, &at, sw->s, sw->len);
	if (recurse || wake)
		put_waker(p, &at, recurse);
	if (recurse)
		set_text(entry(p->last, &p->st_pid), p->key + body, at - body);
	*(uint64_t *)strtab_val(p->times, strtab_intern(p->times, p->key, at, NULL)) += p->delay;
}

static void stat_event(struct ps *p, const char *s, size_t n)
{
	const char *f;
	size_t fl, i;
	struct text d = { NULL, 0, 0 };

	field(s, n, 1, &f, &fl);
	set_text(&p->wk_cmd, f, fl);
	field(s, n, 2, &f, &fl);
	set_text(&p->wk_pid, f, fl);
	var(s, n, "comm", &p->st_cmd);
	var(s, n, "pid", &p->st_pid);
	var(s, n, "delay", &d);
	for (p->delay = 0, i = 0; i < d.len && i < 19 && d.s[i] >= '0' && d.s[i] <= '9'; i++)
		p->delay = p->delay * 10 + (uint64_t)(d.s[i] - '0');
	free(d.s);
	p->wk.len = 0;
	p->st_on = !(p->st_pid.len == 1 && p->st_pid.s[0] == '0');
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct ps *p = st;
	int comment = n && s[0] == '#', lead = n && space(s[0]), head = 0;

	(void)no;
	if (!comment && memmem(s, n, "sched:sched_switch", 18)) {
		var(s, n, "prev_pid", &p->sw_pid);
		p->sw_on = !(p->sw_pid.len == 1 && p->sw_pid.s[0] == '0');
		leafstack_clear(&p->sw);
		head = 1;
	}
	if (p->sw_on && lead && !head)	/* the script took a header's words too */
		switch_frame(p, s, n);
	if (p->sw_on && n == 0)
		switch_end(p);
	if (!comment && (memmem(s, n, "sched:sched_stat_sleep", 22) ||
			 memmem(s, n, "sched:sched_stat_blocked", 24))) {
		stat_event(p, s, n);
		p->wk_stamp = has_stamp(s, n);
		head = 1;
	}
	if (p->st_on && lead && !head)
		wake_frame(p, s, n);
	if (p->st_on && n == 0)
		stat_end(p, p->wk_stamp);
	return 0;
}

/* Each stack's time, in whole microseconds (none: left out). */
static void end(void *st)
{
	struct ps *p = st;
	size_t i, n = strtab_count(p->times), len;
	const char *s;
	uint64_t us;

	for (i = 0; i < n; i++) {
		us = *(uint64_t *)strtab_val(p->times, (uint32_t)i) / 1000;
		s = strtab_str(p->times, (uint32_t)i, &len);
		if (us)
			linefmt_add(&p->o, s, len, us);
	}
}

const struct linefmt perfsched_linefmt = {
	"no off-CPU time (sched_switch stacks woken by sched_stat_sleep or _blocked events)",
	sizeof(struct ps), init, line, end, release
};
