/* elfutils: the collapser over linefmt, its sniffer and its options. */
#include "elfutils.h"
#include "bytes.h"
#include "leafstack.h"

#include <stdio.h>
#include <string.h>

struct eu {
	struct linefmt_out o;	/* first: where stacks go */
	struct leafstack st;	/* the backtrace so far */
	char pid[24], tid[24];	/* the last "PID" and "TID" lines' numbers */
};

static void init(void *st)
{
	leafstack_init(&((struct eu *)st)->st);
}

static void release(void *st)
{
	leafstack_release(&((struct eu *)st)->st);
}

/* The backtrace so far is a sample, under its PID and TID frames. */
static void finish(void *st)
{
	struct eu *e = st;
	const struct elfutils_opts *op = e->o.fopts;
	char root[64];
	size_t len;
	const char *text;

	if (!e->st.nframes)
		return;
	if (op && op->tid) {
		snprintf(root, sizeof(root), "TID=%s", e->tid);
		leafstack_push(&e->st, root, strlen(root));
	}
	if (op && op->pid) {
		snprintf(root, sizeof(root), "PID=%s", e->pid);
		leafstack_push(&e->st, root, strlen(root));
	}
	text = leafstack_text(&e->st, &len);
	linefmt_add(&e->o, text, len, 1);
	leafstack_clear(&e->st);
}

/* The digits after "PID " or "TID " (none: empty), at most 20. */
static void number(char *to, const char *s, size_t n)
{
	size_t i = 4;

	while (i < n && i < 24 && s[i] >= '0' && s[i] <= '9')
		i++;
	memcpy(to, s + 4, i - 4);
	to[i - 4] = '\0';
}

/* "#N  0xADDR func": the frame is everything after the address and one
 * space; an address with no space after it is "[unknown]".  Returns 0
 * when the line is no frame. */
static int frame(struct eu *e, const char *s, size_t n)
{
	size_t i = 1;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	while (i < n && s[i] == ' ')
		i++;
	if (n - i < 2 || s[i] != '0' || s[i + 1] != 'x')
		return 0;
	for (i += 2; i < n && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')); i++)
		;
	if (i < n && s[i] == ' ' && i + 1 == n && !e->st.nframes)
		return 1;	/* an empty leaf frame: the script's stack stays empty */
	if (i < n && s[i] == ' ')
		leafstack_push(&e->st, s + i + 1, n - i - 1);
	else
		leafstack_push(&e->st, "[unknown]", 9);
	return 1;
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct eu *e = st;

	(void)no;
	if (n >= 4 && (memcmp(s, "PID ", 4) == 0 || memcmp(s, "TID ", 4) == 0)) {
		finish(e);
		number(s[0] == 'P' ? e->pid : e->tid, s, n);
	} else if (n > 0 && s[0] == '#') {
		frame(e, s, n);
	}
	return 0;
}

const struct linefmt elfutils_linefmt = {
	"no backtraces (\"#N  0xADDR func\" lines): not eu-stack output", sizeof(struct eu),
	init, line, finish, release
};

/* "PID N - name" then "TID N:" then "#0  0x". */
int elfutils_sniff(const char *head, size_t len)
{
	if (len < 4 || memcmp(head, "PID ", 4) != 0)
		return 0;
	return bytes_contains(head, len, "\nTID ") && bytes_contains(head, len, "\n#0  0x") ? 85 : 0;
}

int elfutils_collect(const struct format_job *j)
{
	return linefmt_collect(j, &elfutils_linefmt);
}

enum { O_PID = 1500, O_TID };

static const struct cliopt format_opts[] = {
	{ "pid", O_PID, NULL, "a \"PID=N\" root frame" },
	{ "tid", O_TID, NULL, "a \"TID=N\" frame (under PID=N with --pid)" },
	{ NULL, 0, NULL, NULL }
};

static int set(void *ctx, int key, const char *arg, char *err, size_t errlen)
{
	struct elfutils_opts *o = ctx;

	(void)err, (void)errlen;
	switch (key) {
	case O_PID: o->pid = 1; return 0;
	case O_TID: o->tid = 1; return 0;
	default: return ctool_set(&o->common, key, arg);
	}
}

const struct cliopt_family elfutils_cli_family = {
	"eu-stack backtraces (as stackcollapse-elfutils)", format_opts, set,
	sizeof(struct elfutils_opts), NULL, NULL, NULL
};
