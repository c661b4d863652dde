/* json_bulk: the elements of an array of small integers read straight
 * from the window, many to a call (json_uints in json.h). */
#include "json.h"
#include "json_digits.h"
#include "json_impl.h"
#include "xalloc.h"

/* JSON's white space. */
static int blank(int c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* An integer of 1 to 18 digits (no sign, no leading zero) at p, whole
 * before e: its length and value, or 0 to leave it to json_next. */
static size_t uint_at(const char *p, const char *e, uint64_t *x)
{
	const char *q = p;
	size_t n;

	if (FAST_DIGITS && e - p >= 8 && (n = json_digits8(p, x)) < 8) {
		q += n;
	} else {
		for (*x = 0; q < e && q - p < 18 && (unsigned)(*q - '0') < 10; q++)
			*x = *x * 10 + (uint64_t)(*q - '0');
	}
	if (q == p || q == e || json_word_byte((unsigned char)*q) || (*p == '0' && q - p > 1))
		return 0;
	return (size_t)(q - p);
}

size_t json_uints(struct json *j, uint64_t *v, size_t cap)
{
	const char *b = j->buf, *e = j->buf + j->len, *p;
	size_t k = 0, n;

	if (j->done || j->depth == 0 || j->open[j->depth - 1] != '[' ||
	    (j->st != S_AFTER && j->st != S_VALUE_OR_END))
		return 0;
	while (k < cap) {
		p = b + j->pos;
		while (p < e && blank((unsigned char)*p))
			p++;
		if (j->st == S_AFTER) {
			if (p == e || *p != ',')
				break;
			for (p++; p < e && blank((unsigned char)*p); p++)
				;
		}
		if (p == e || (n = uint_at(p, e, &v[k])) == 0)
			break;
		/* As json_next would leave it after this NUMBER. */
		if (j->scap < 32)	/* room for the text when it is asked for */
			xgrow(&j->s, &j->scap, 32, 1);
		j->tokoff = j->base + (uint64_t)(p - b);
		j->pos = (size_t)(p - b) + n;
		j->st = S_AFTER;
		j->lazy = p;
		j->slen = n;
		j->num = v[k++];
		j->numok = 1;
		j->numneg = 0;
	}
	return k;
}
