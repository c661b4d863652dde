/* faulthandler: the collapser over linefmt, and its sniffer. */
#include "faulthandler.h"
#include "bytes.h"
#include "leafstack.h"

#include <string.h>

struct fh {
	struct linefmt_out o;	/* first: where stacks go */
	struct leafstack st;	/* the thread's frames so far */
};

static void init(void *st)
{
	leafstack_init(&((struct fh *)st)->st);
}

static void release(void *st)
{
	leafstack_release(&((struct fh *)st)->st);
}

static void finish(void *st)
{
	struct fh *h = st;
	const char *text;
	size_t len;

	text = leafstack_text(&h->st, &len);
	if (h->st.nframes)
		linefmt_add(&h->o, text, len, 1);
	leafstack_clear(&h->st);
}

/* '  File "f.py", line 12 in func' -> "f.py:12:func"; 0 when the line is
 * no frame. */
static int frame(struct fh *h, const char *s, size_t n)
{
	const char *q, *p, *e = s + n;
	size_t fl, ll, i;
	char *to;

	if (n < 8 || memcmp(s, "  File \"", 8) != 0)
		return 0;
	q = memchr(s + 8, '"', n - 8);
	if (!q || e - q < 8 || memcmp(q, "\", line ", 8) != 0)
		return 0;
	fl = (size_t)(q - s - 8);
	for (p = q + 8; p < e && *p >= '0' && *p <= '9'; p++)
		;
	ll = (size_t)(p - q - 8);
	if (e - p < 4 || memcmp(p, " in ", 4) != 0)
		return 0;
	p += 4;
	to = leafstack_room(&h->st, fl + 1 + ll + 1 + (size_t)(e - p));
	memcpy(to, s + 8, fl);
	to[fl] = ':';
	memcpy(to + fl + 1, q + 8, ll);
	i = fl + 1 + ll;
	to[i] = ':';
	memcpy(to + i + 1, p, (size_t)(e - p));
	return 1;
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct fh *h = st;

	(void)no;
	if (n >= 6 && memcmp(s, "Thread", 6) == 0)
		leafstack_clear(&h->st);	/* as the script: what came before goes */
	else if (!frame(h, s, n))
		finish(h);
	return 0;
}

const struct linefmt faulthandler_linefmt = {
	"no frames ('  File \"f.py\", line N in func'): not a faulthandler dump",
	sizeof(struct fh), init, line, finish, release
};

int faulthandler_sniff(const char *head, size_t len)
{
	return bytes_contains(head, len, "(most recent call first):") &&
	       bytes_contains(head, len, "\n  File \"") ? 85 : 0;
}

int faulthandler_collect(const struct format_job *j)
{
	return linefmt_collect(j, &faulthandler_linefmt);
}
