/* Unit tests for lib/stackset and lib/stackops: the model gives back the
 * bytes it was given (prefix sharing included), frames are interned once,
 * regexes run once per distinct frame, and the operators' parsing errors. */
#include "check.h"
#include "folded.h"
#include "stackops.h"
#include "stackset.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdlib.h>

static void add(struct strtab *t, const char *s, size_t len, uint64_t n)
{
	struct fcount c = { n, 0 };

	fcount_add(strtab_val(t, strtab_intern(t, s, len, NULL)), &c);
}

/* Every stack of t comes back from a set with no operator. */
static void round_trip(void)
{
	static const char *const in[] = { "a;b;c", "a;b", "a;b;", "a;;b", ";", "", "a;bc;d", "a;b;c;d",
					  "ab;c", "a;b\0x;c" };
	struct strtab *t = strtab_new(sizeof(struct fcount)), *out;
	struct stackset s;
	size_t i, len;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		add(t, in[i], i == 9 ? 7 : strlen(in[i]), i + 1);
	stackset_init(&s, t);
	CHECK(s.n == strtab_count(t));
	/* a, b, c, "", bc, d, ab, "b\0x": each interned once */
	CHECK(strtab_count(s.frames) == 8);
	out = stackset_table(&s);
	CHECK(strtab_count(out) == strtab_count(t));
	for (i = 0; i < strtab_count(t); i++) {
		const char *k = strtab_str(t, (uint32_t)i, &len);
		uint32_t id = strtab_find(out, k, len);

		CHECK(id != UINT32_MAX && ((struct fcount *)strtab_val(out, id))->n == i + 1);
	}
	strtab_free(out);
	stackset_release(&s);
	strtab_free(t);
}

static int key(const char *name)
{
	const struct cliopt *o;

	for (o = stackops_family.opts; o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o->key;
	return -1;
}

static void parse_errors(void)
{
	void *ops = xcalloc(1, stackops_family.size);
	char err[256];

	CHECK(stackops_add(ops, key("fold"), "(", err, sizeof(err)) < 0 && strstr(err, "--fold '('"));
	CHECK(stackops_add(ops, key("exclude"), "", err, sizeof(err)) < 0 && strstr(err, "empty"));
	CHECK(stackops_add(ops, key("fold-pct"), "-1", err, sizeof(err)) < 0);
	CHECK(stackops_add(ops, key("fold-pct"), "1x", err, sizeof(err)) < 0);
	CHECK(stackops_add(ops, key("fold-pct"), "nan", err, sizeof(err)) < 0);
	CHECK(stackops_add(ops, key("group"), "abc", err, sizeof(err)) < 0);
	CHECK(stackops_add(ops, key("group"), "->x", err, sizeof(err)) < 0 && strstr(err, "empty"));
	CHECK(stackops_count(ops) == 0);
	CHECK(stackops_add(ops, key("group"), "a->b", err, sizeof(err)) == 0);
	CHECK(stackops_add(ops, key("group"), "c=>d", err, sizeof(err)) == 0);
	CHECK(stackops_count(ops) == 1);	/* consecutive groups: one list */
	CHECK(stackops_add(ops, key("fold-pct"), "0.5", err, sizeof(err)) == 0);
	CHECK(stackops_add(ops, key("group"), "operator->(x)?->op", err, sizeof(err)) == 0);
	CHECK(stackops_count(ops) == 3);
	stackops_family.release(ops);
	free(ops);
}

/* A group list applied: first match wins, runs merge, an entry group
 * names its entry, and the sum of counts is kept. */
static void grouping(void)
{
	void *ops = xcalloc(1, stackops_family.size);
	struct strtab *t = strtab_new(sizeof(struct fcount)), *out;
	char err[256];
	uint32_t id;

	add(t, "m;k1;k2;u1;u2;k3", 16, 3);
	add(t, "m;k1;u1", 7, 4);
	CHECK(stackops_add(ops, key("group"), "^k->kern", err, sizeof(err)) == 0);
	CHECK(stackops_add(ops, key("group"), "^(u)[0-9]=>$1", err, sizeof(err)) == 0);
	out = stackops_apply(ops, t, NULL, NULL);
	CHECK(strtab_count(out) == 2);
	id = strtab_find(out, "m;kern;u <<u1>>;kern", 20);
	CHECK(id != UINT32_MAX && ((struct fcount *)strtab_val(out, id))->n == 3);
	id = strtab_find(out, "m;kern;u <<u1>>", 15);
	CHECK(id != UINT32_MAX && ((struct fcount *)strtab_val(out, id))->n == 4);
	strtab_free(out);
	strtab_free(t);
	stackops_family.release(ops);
	free(ops);
}

int main(void)
{
	round_trip();
	parse_errors();
	grouping();
	return check_done();
}
