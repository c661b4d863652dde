/* aix: the collapser over linefmt, and its sniffer. */
#include "aix.h"
#include "bytes.h"
#include "leafstack.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct aix {
	struct linefmt_out o;	/* first: where stacks go */
	struct leafstack st;	/* the thread's frames so far */
	char *proc;		/* the process's name */
	size_t plen;		/* its length */
};

static void init(void *st)
{
	leafstack_init(&((struct aix *)st)->st);
}

static void release(void *st)
{
	struct aix *a = st;

	leafstack_release(&a->st);
	free(a->proc);
}

/* The frames so far are a sample under the process's name. */
static void finish(void *st)
{
	struct aix *a = st;
	const char *text;
	size_t len;

	if (!a->st.nframes)
		return;
	leafstack_push(&a->st, a->proc ? a->proc : "", a->plen);
	text = leafstack_text(&a->st, &len);
	linefmt_add(&a->o, text, len, 1);
	leafstack_clear(&a->st);
}

static size_t run(const char *s, size_t i, size_t n)
{
	while (i < n && s[i] != ' ')
		i++;
	return i;
}

/* The script's "0xHEX *W2 W3 W4": W2 starts after the spaces, or one
 * space earlier and empty when that is what lets W3 and a space follow.
 * Returns W2's end, or 0 when there is no match. */
static size_t second_word(const char *s, size_t n, size_t *from)
{
	size_t i = 2, k, e;

	while (i < n && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
		i++;
	for (k = i; k < n && s[k] == ' '; k++)
		;
	for (;;) {
		e = run(s, k, n);
		if (e < n && run(s, e + 1, n) < n) {
			*from = k;
			return e;
		}
		if (k == i)
			return 0;
		k--;
	}
}

/* "0x0900  _event_sleep(??, ??) + 0x1b0": the function is the second
 * word up to its '(' ; one in brackets is named by its address. */
static void frame(struct aix *a, const char *s, size_t n)
{
	size_t from, end = second_word(s, n, &from), hex;
	const char *paren;

	if (!end)
		return;
	paren = memchr(s + from, '(', end - from);
	if (paren)
		end = (size_t)(paren - s);
	if (end - from >= 2 && s[from] == '[' && s[end - 1] == ']') {
		for (hex = 2; hex < n && ((s[hex] >= '0' && s[hex] <= '9') ||
					  (s[hex] >= 'a' && s[hex] <= 'f')); hex++)
			;
		from = 0;
		end = hex;
	}
	if (end > from || a->st.nframes)
		leafstack_push(&a->st, s + from, end - from);
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct aix *a = st;
	size_t i = 0, e;

	(void)no;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i > 0 && i < n && s[i] == ':') {
		finish(a);
		free(a->proc);
		a->proc = NULL;
		a->plen = 0;
		if (i + 1 < n && s[i + 1] == ' ') {
			e = run(s, i + 2, n);
			a->proc = xstrndup(s + i + 2, e - i - 2);
			a->plen = e - i - 2;
		}
	} else if (n > 16 && memcmp(s, "---------- tid# ", 16) == 0 && s[16] >= '0' &&
		   s[16] <= '9') {
		finish(a);
	} else if (n >= 2 && s[0] == '0' && s[1] == 'x') {
		frame(a, s, n);
	}
	return 0;
}

const struct linefmt aix_linefmt = {
	"no stacks (\"---------- tid#\" then \"0xADDR func\" lines): not procstack output",
	sizeof(struct aix), init, line, finish, release
};

int aix_sniff(const char *head, size_t len)
{
	return bytes_contains(head, len, "\n---------- tid# ") ? 80 : 0;
}

int aix_collect(const struct format_job *j)
{
	return linefmt_collect(j, &aix_linefmt);
}
