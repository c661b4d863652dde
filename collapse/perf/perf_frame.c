/* perf_frame: the parts of a frame line of perf script text, "addr
 * symbol+0xoff (dso)", found without tidying anything: pure functions
 * over the line's bytes. */
#include "perf_frame.h"

#include <string.h>

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
/* The first "->" in [s, end), or NULL. */
const char *perf_frame_arrow(const char *s, const char *end)
{
	while ((s = memchr(s, '-', (size_t)(end - s))) && s + 1 < end) {
		if (s[1] == '>')
			return s;
		s++;
	}
	return NULL;
}
/* Length of s without its parameter list: the first '(' outside <> {} []
 * that does not open a Go receiver ".(" or "(anonymous namespace)".
 * Sets *semi when the kept part has a ';'. */
size_t perf_frame_params(const char *s, size_t n, int *semi)
{
	int depth = 0;
	size_t i;

	*semi = 0;
	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case ';':
			*semi = 1;
			break;
		case '<': case '{': case '[':
			depth++;
			break;
		case '>': case '}': case ']': case ')':
			depth--;
			break;
		case '(':
			if (depth == 0 && !(i > 0 && s[i - 1] == '.') &&
			    !(n - i >= 21 && memcmp(s + i, "(anonymous namespace)", 21) == 0))
				return i;
			depth++;
			break;
		default:
			break;
		}
	}
	return n;
}
/* Where the DSO starts: after the '(' that opens the last balanced
 * "(...)" ending s (n bytes), searched back to j; j when there is none.
 * So "(x (deleted))" and paths with spaces stay whole.  Mostly the last
 * '(' with no ')' after it but the final one: found without a loop. */
static size_t dso_start(const char *s, size_t j, size_t n)
{
	const char *q = memrchr(s + j, '(', n - 1 - j);
	size_t b;
	int depth = 0;

	if (!q)
		return j;
	if (!memchr(q + 1, ')', (size_t)(s + n - 1 - (q + 1))))
		return (size_t)(q - s) + 1;
	for (b = n; b > j; b--) {
		if (s[b - 1] == ')')
			depth++;
		else if (s[b - 1] == '(' && --depth == 0)
			break;
	}
	return b;
}

/* Splits "addr symbol (dso)"; returns 0 or -1 when it is not a frame. */
int perf_frame_split(const char *s, size_t n, const char **pc, size_t *pclen,
		       const char **fn, size_t *fnlen, const char **dso, size_t *dlen)
{
	size_t i = 0, j, a, b;

	while (i < n && is_space(s[i]))
		i++;
	for (j = i; j < n && !is_space(s[j]); j++)
		;
	if (j == i || j == n || s[n - 1] != ')')
		return -1;
	*pc = s + i;
	*pclen = j - i;
	b = dso_start(s, j, n);
	if (b <= j || !is_space(s[b - 2]))
		return -1;
	*dso = s + b;
	*dlen = n - 1 - b;
	for (a = j; a < b - 1 && is_space(s[a]); a++)
		;
	for (b -= 2; b > a && is_space(s[b - 1]); b--)
		;
	/* An empty symbol reads as " ", as stackcollapse-perf.pl has it. */
	*fn = a < b ? s + a : " ";
	*fnlen = a < b ? b - a : 1;
	return 0;
}
/* Strips a "+0x1f" offset. */
size_t perf_frame_strip_offset(const char *f, size_t n)
{
	size_t i = n;

	while (i > 0 && is_hex(f[i - 1]))
		i--;
	if (i >= 3 && memcmp(f + i - 3, "+0x", 3) == 0)
		return i - 3;
	return n;
}
