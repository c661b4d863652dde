/* libFuzzer target: the byte source and its decoders (gzip, zip member,
 * BOM, UTF-16) read through windows of every size.  The first byte picks
 * the window size of a stream; the rest is the input, decoded once from
 * memory and once from that stream: both must give the same bytes, the
 * same lines and the same outcome (a zip is read through its directory
 * from memory but its local header from a stream, so it is compared only
 * with itself). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bsrc.h"
#include "decode.h"
#include "fuzz.h"
#include "../unit/drip.h"

#define LIMIT ((size_t)4 << 20)	/* decoded bytes compared, at most */

/* The first LIMIT decoded bytes of s in reads of cap, then the outcome
 * (0 the end, -1 an error, 1 more to come). */
static uint8_t *decoded(struct bsrc *s, size_t cap, size_t *len, int *st)
{
	uint8_t *out = NULL, buf[4096];
	size_t n = 0;
	ssize_t r = 1;
	int bom;

	s = decode_text(decode_inflate(s, 1 << 20), &bom);
	while (n < LIMIT && (r = bsrc_read(s, buf, cap < LIMIT - n ? cap : LIMIT - n)) > 0) {
		out = realloc(out, n + (size_t)r);
		memcpy(out + n, buf, (size_t)r);
		n += (size_t)r;
	}
	*len = n;
	*st = r > 0 ? 1 : (int)r;
	bsrc_free(s);
	return out;
}

/* Lines of two readers side by side; traps when they differ. */
static void same_lines(struct lread *a, struct lread *b)
{
	const char *la, *lb;
	size_t na, nb;
	int ra, rb;

	lread_set_max_line(a, 300);
	lread_set_max_line(b, 300);
	lread_set_max_inflate(a, 1 << 20);
	lread_set_max_inflate(b, 1 << 20);
	do {
		ra = lread_next(a, &la, &na);
		rb = lread_next(b, &lb, &nb);
		if (ra != rb || lread_lineno(a) != lread_lineno(b) ||
		    (ra == LREAD_LINE && (na != nb || memcmp(la, lb, na) != 0)))
			__builtin_trap();
	} while (ra != LREAD_EOF && ra != LREAD_ERROR);
	lread_free(a);
	lread_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t k, na, nb;
	uint8_t *a, *b;
	int sa, sb, zip;

	if (size < 1)
		return 0;
	k = 1 + data[0] % 200;
	data++;
	size--;
	zip = size >= 4 && memcmp(data, "PK\3\4", 4) == 0;
	a = decoded(zip ? drip(data, size, 200) : bsrc_from_mem(data, size, "mem"), 4096, &na, &sa);
	b = decoded(drip(data, size, k), 1 + k % 17, &nb, &sb);
	if (sa != sb || na != nb || (na && memcmp(a, b, na) != 0))
		__builtin_trap();
	free(a);
	free(b);
	if (!zip)
		same_lines(lread_from_mem(data, size, "mem"), lread_from(drip(data, size, k)));
	return 0;
}
