/* wcp: the collapser over linefmt, and its sniffer. */
#include "wcp.h"
#include "bytes.h"
#include "leafstack.h"

#include <string.h>

struct wcp {
	struct linefmt_out o;	/* first: where stacks go */
	struct leafstack st;	/* the stack so far */
	int started;		/* "Full stacks" seen */
	uint64_t samples;	/* the last weight line's */
};

static void init(void *st)
{
	leafstack_init(&((struct wcp *)st)->st);
}

static void release(void *st)
{
	leafstack_release(&((struct wcp *)st)->st);
}

static void finish(void *st)
{
	struct wcp *w = st;
	const char *text;
	size_t len;

	text = leafstack_text(&w->st, &len);
	if (w->st.nframes)
		linefmt_add(&w->o, text, len, w->samples);
	leafstack_clear(&w->st);
}

static size_t digits(const char *s, size_t i, size_t n)
{
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/* "42.86% ===== (3 samples)": the 3 in *v. */
static int weight(const char *s, size_t n, uint64_t *v)
{
	size_t i = digits(s, 0, n), j;

	if (i == 0 || i == n || s[i] != '.' || (j = digits(s, i + 1, n)) == i + 1)
		return 0;
	if (n - j < 3 || s[j] != '%' || s[j + 1] != ' ' || s[j + 2] != '=')
		return 0;
	for (i = j + 2; i < n && s[i] == '='; i++)
		;
	if (n - i < 3 || s[i] != ' ' || s[i + 1] != '(')
		return 0;
	j = digits(s, i + 2, n);
	return j > i + 2 && n - j >= 9 && memcmp(s + j, " samples)", 9) == 0 &&
	       linefmt_u64(s + i + 2, j - i - 2, v) == 0;
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct wcp *w = st;
	size_t i;

	(void)no;
	linefmt_trim(&s, &n);
	if (n >= 11 && memcmp(s, "Full stacks", 11) == 0) {
		w->started = 1;
		return 0;
	}
	if (!w->started || weight(s, n, &w->samples))
		return 0;
	i = digits(s, 0, n);
	if (i > 0 && n - i >= 2 && s[i] == ':' && s[i + 1] == ' ')
		leafstack_push(&w->st, s + i + 2, n - i - 2);
	else if (n == 0)
		finish(w);
	return 0;
}

const struct linefmt wcp_linefmt = {
	"no stacks after a \"Full stacks\" line: not a wcp report", sizeof(struct wcp),
	init, line, finish, release
};

int wcp_sniff(const char *head, size_t len)
{
	return bytes_contains(head, len, "\nFull stacks") && bytes_contains(head, len, " samples)")
	       ? 70 : 0;
}

int wcp_collect(const struct format_job *j)
{
	return linefmt_collect(j, &wcp_linefmt);
}
