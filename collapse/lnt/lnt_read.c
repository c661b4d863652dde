/* lnt_read: a profile of either version, told by its first bytes. */
#include "lnt.h"
#include "lnt_impl.h"

#include <stdio.h>

int lnt_sniff(const unsigned char *p, size_t n)
{
	if (lnt_v2_sniff(p, n))
		return 2;
	return lnt_v1_sniff(p, n) ? 1 : 0;
}


struct lnt_prof *lnt_read(const unsigned char *p, size_t n, char *err, size_t errlen)
{
	/* Past the first bytes, the readers say what is wrong and where. */
	if (n > 0 && p[0] == 2)
		return lnt_v2_read(p, n, err, errlen);
	if (n >= 2 && (p[0] & 0x0f) == 8 && ((p[0] << 8) | p[1]) % 31 == 0)
		return lnt_v1_read(p, n, err, errlen);
	snprintf(err, errlen, "not an LNT profile (neither zlib data nor version 2) at byte 0");
	return NULL;
}
