/* stap: the collapser, over linefmt.  Frames come leaf first, so each
 * goes in front of the stack so far (leafstack). */
#include "stap.h"
#include "leafstack.h"

#include <string.h>

struct stap {
	struct linefmt_out o;	/* first: where stacks go */
	struct leafstack st;	/* the stack so far */
};

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* A line of blanks and then only digits: its count in *w. */
static int count_line(const char *s, size_t n, uint64_t *w)
{
	size_t i = 0;

	while (i < n && blank(s[i]))
		i++;
	return i < n && linefmt_u64(s + i, n - i, w) == 0;
}

/* " 0xADDR : func+0x1c/0x30 [kernel]" -> "func": from the last '+' on
 * goes, then everything up to the last " : "; nothing left is "-". */
static void frame(struct stap *p, const char *s, size_t n)
{
	const char *plus, *c;
	size_t i;

	while (n && blank(s[0]))
		s++, n--;
	plus = memrchr(s, '+', n);
	if (plus)
		n = (size_t)(plus - s);
	for (i = n; i >= 3; i--)
		if (memcmp(s + i - 3, " : ", 3) == 0)
			break;
	if (i >= 3) {
		c = s + i;
		n -= i;
		s = c;
	}
	if (n == 0)
		leafstack_push(&p->st, "-", 1);
	else
		leafstack_push(&p->st, s, n);
}

static int line(void *st, const char *s, size_t n, unsigned long no)
{
	struct stap *p = st;
	uint64_t w;
	size_t len, i;
	const char *text;

	(void)no;
	if (count_line(s, n, &w)) {
		text = leafstack_text(&p->st, &len);
		if (p->st.nframes)
			linefmt_add(&p->o, text, len, w);
		leafstack_clear(&p->st);
		return 0;
	}
	for (i = 0; i < n && blank(s[i]); i++)
		;
	if (i < n)
		frame(p, s, n);
	return 0;
}

static void init(void *st)
{
	leafstack_init(&((struct stap *)st)->st);
}

static void release(void *st)
{
	leafstack_release(&((struct stap *)st)->st);
}

const struct linefmt stap_linefmt = {
	"no stacks (frame lines, then a count): not SystemTap output", sizeof(struct stap),
	init, line, NULL, release
};

/* " 0x...: name" frames: a line with " : " after a hex address. */
static int frame_like(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && blank(s[i]))
		i++;
	if (n - i < 6 || s[i] != '0' || s[i + 1] != 'x')
		return 0;
	for (i += 2; i < n && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')); i++)
		;
	return n - i >= 3 && memcmp(s + i, " : ", 3) == 0;
}

static int count_like(const char *s, size_t n)
{
	uint64_t w;

	return count_line(s, n, &w);
}

int stap_sniff(const char *head, size_t len)
{
	size_t frames, counts, lines = linefmt_count(head, len, frame_like, &frames);

	linefmt_count(head, len, count_like, &counts);
	return lines && counts && frames && (frames + counts) * 2 >= lines ? 70 : 0;
}

int stap_collect(const struct format_job *j)
{
	return linefmt_collect(j, &stap_linefmt);
}
