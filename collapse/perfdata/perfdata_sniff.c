/* perfdata_sniff: the perf.data row's sniff (perfdata_format.h), on its
 * own so the Windows build, which leaves the reader out, tells a
 * perf.data by the same test. */
#include "perfdata_format.h"

#include <string.h>

int perfdata_fmt_sniff(const char *head, size_t len)
{
	/* Either byte order, and the older header. */
	if (len < 8)
		return 0;
	return memcmp(head, "PERFILE2", 8) == 0 || memcmp(head, "2ELIFREP", 8) == 0 ||
	       memcmp(head, "PERFFILE", 8) == 0 ? 100 : 0;
}
