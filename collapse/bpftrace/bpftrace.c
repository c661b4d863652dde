/* bpftrace: the collapser.  Frames come leaf first: each is written right
 * to left into one buffer, so the finished stack is in order. */
#include "bpftrace.h"
#include "leafstack.h"
#include "folded.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bpftrace {
	struct strtab *t;		/* stacks out */
	struct fseq *seq;		/* input order, or NULL */
	collect_warn_fn *warn;		/* messages */
	void *ctx;			/* for warn */
	const char *name;		/* the input */
	int in_key;			/* inside "@[" ... "]: N" */
	unsigned long first;		/* the line of its "@[" */
	struct leafstack st;		/* the stack so far */
	uint64_t stacks, overflow;	/* stacks added; counts past 64 bits */
};

struct bpftrace *bpftrace_new(struct strtab *t, struct fseq *seq, collect_warn_fn *warn,
			      void *ctx, const char *name)
{
	struct bpftrace *b = xcalloc(1, sizeof(*b));

	b->t = t;
	b->seq = seq;
	b->warn = warn;
	b->ctx = ctx;
	b->name = name;
	leafstack_init(&b->st);
	return b;
}

void bpftrace_free(struct bpftrace *b)
{
	if (!b)
		return;
	leafstack_release(&b->st);
	free(b);
}

static void emit(struct bpftrace *b, const char *s, size_t n, uint64_t count)
{
	struct fcount c = { count, 0 };

	fseq_put(b->t, b->seq, s, n, &c);
	b->stacks++;
}

/* "...]: 123" at the end of s: where "]: " starts and the count; 0 when
 * it is not such a line. */
static int key_end(struct bpftrace *b, const char *s, size_t n, size_t *at, uint64_t *v)
{
	const char *p = memmem(s, n, "]: ", 3);
	size_t i;

	if (!p || (size_t)(p - s) + 3 >= n || s[p - s + 3] < '0' || s[p - s + 3] > '9')
		return 0;
	*at = (size_t)(p - s);
	for (*v = 0, i = *at + 3; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (*v > (UINT64_MAX - 9) / 10) {
			b->overflow++;
			*v = UINT64_MAX;
			break;
		}
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return 1;
}

/* The end of a key: its last frame (a second key such as comm) and count. */
static void end_key(struct bpftrace *b, const char *s, size_t at, uint64_t v,
		    unsigned long lineno)
{
	size_t i = 0, len;
	const char *text;

	if (i < at && s[i] == ',')
		i++;
	if (i < at && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < at)
		leafstack_push(&b->st, s + i, at - i);
	text = leafstack_text(&b->st, &len);
	if (b->st.nframes)
		emit(b, text, len, v);
	else
		b->warn(b->ctx, b->name, lineno, "a key without frames (skipped)");
	b->in_key = 0;
	leafstack_clear(&b->st);
}

int bpftrace_line(struct bpftrace *b, const char *s, size_t n, unsigned long lineno)
{
	uint64_t v;
	size_t at;

	if (!b->in_key) {
		if (n == 2 && s[0] == '@' && s[1] == '[') {
			b->in_key = 1;
			b->first = lineno;
		} else if (n > 4 && memcmp(s, "@[,", 3) == 0 && (s[3] == ' ' || s[3] == '\t') &&
			   key_end(b, s + 4, n - 4, &at, &v)) {
			emit(b, s + 4, at, v);
		}
		return 0;
	}
	if (key_end(b, s, n, &at, &v)) {
		end_key(b, s, at, v, lineno);
		return 0;
	}
	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	leafstack_push(&b->st, s, n);
	return 0;
}

int bpftrace_end(struct bpftrace *b)
{
	char msg[160];

	if (b->overflow) {
		snprintf(msg, sizeof(msg), "%llu counts past 64 bits were read as the largest",
			 (unsigned long long)b->overflow);
		b->warn(b->ctx, b->name, 0, msg);
	}
	if (b->in_key) {
		snprintf(msg, sizeof(msg), "the input ends inside the key of line %lu (its frames "
			 "have no count; dropped)", b->first);
		b->warn(b->ctx, b->name, 0, msg);
		return 1;
	}
	if (b->stacks == 0) {
		b->warn(b->ctx, b->name, 0, "no stacks (\"@[\" ... \"]: COUNT\"): not bpftrace output");
		return 1;
	}
	return 0;
}
