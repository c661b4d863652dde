/* detect: one rule per format, tried from the most specific. */
#include "detect.h"
#include "bytes.h"
#include "csv.h"
#include "folded.h"

#include <string.h>

static const char *const names[FMT_COUNT] = {
	"unknown", "perf", "wpa-csv", "xperf-dumper", "vs-calltree", "vs-callercallee",
	"perfview-json", "perfview-xml", "collapsed"
};

const char *detect_name(enum detect_fmt f)
{
	return names[f];
}

enum detect_fmt detect_parse(const char *s)
{
	int i;

	for (i = 1; i < FMT_COUNT; i++)
		if (strcmp(s, names[i]) == 0)
			return (enum detect_fmt)i;
	return FMT_UNKNOWN;
}

const char *detect_names(void)
{
	return "perf, wpa-csv, xperf-dumper, vs-calltree, vs-callercallee, perfview-json, "
	       "perfview-xml, collapsed";
}

/* The next line of [*p, end); returns 0 at the end. */
static int next_line(const char **p, const char *end, const char **s, size_t *n)
{
	const char *nl;

	if (*p >= end)
		return 0;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*s = *p;
	*n = (size_t)((nl ? nl : end) - *p);
	if (*n && (*s)[*n - 1] == '\r')
		(*n)--;
	*p = nl ? nl + 1 : end;
	return 1;
}


/* A CSV header: wpaexporter's needs Process and a Stack column; VS's
 * reports name Function Name with Level (tree) or Type (caller/callee). */
static enum detect_fmt csv_header(const char *s, size_t n)
{
	struct csv cs;
	enum detect_fmt f = FMT_UNKNOWN;
	size_t i;
	int stack = 0;

	csv_init(&cs);
	if (csv_split(&cs, s, n) == 0 && cs.n >= 2) {
		for (i = 0; i < cs.n; i++)
			stack |= bytes_contains(cs.f[i].s, cs.f[i].len, "Stack");
		if ((csv_find(&cs, "Process") >= 0 || csv_find(&cs, "Process Name") >= 0) && stack)
			f = FMT_WPA;
		else if (csv_find(&cs, "Function Name") >= 0 && csv_find(&cs, "Level") >= 0)
			f = FMT_VSP_TREE;
		else if (csv_find(&cs, "Function Name") >= 0 && csv_find(&cs, "Type") >= 0)
			f = FMT_VSP_CALLER;
	}
	csv_release(&cs);
	return f;
}

/* A perf script frame line: indented, a hex address, a space, more. */
static int perf_frame(const char *s, size_t n)
{
	size_t i = 0, h;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == 0)
		return 0;
	for (h = i; i < n && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')); i++)
		;
	return i > h && i < n && s[i] == ' ';
}

/* A perf script event line's time stamp: " 12345.678901: ". */
static int perf_stamp(const char *s, size_t n)
{
	size_t i, d;

	for (i = 0; i + 3 < n; i++) {
		if (s[i] != ' ')
			continue;
		for (d = i + 1; d < n && s[d] >= '0' && s[d] <= '9'; d++)
			;
		if (d > i + 1 && d + 2 < n && s[d] == '.') {
			size_t e = d + 1;

			while (e < n && s[e] >= '0' && s[e] <= '9')
				e++;
			if (e > d + 1 && e + 1 < n && s[e] == ':' && s[e + 1] == ' ')
				return 1;
		}
	}
	return 0;
}

const char *detect_hint(const char *head, size_t len)
{
	if (len >= 8 && memcmp(head, "PERFILE2", 8) == 0)
		return "a perf.data file: convert it first with 'perf script -i FILE | flame -'";
	if (len >= 8 && memcmp(head, "Nettrace", 8) == 0)
		return "a .nettrace file: open it in PerfView and save the stacks as .PerfView.xml.zip";
	if (len >= 4 && memcmp(head, "\x89PNG", 4) == 0)
		return "a PNG image, not a profile";
	if (bytes_contains(head, len < 1024 ? len : 1024, "<svg"))
		return "an SVG image already, not a profile";
	return NULL;
}

enum detect_fmt detect_format(const char *head, size_t len)
{
	const char *p = head, *end = head + len, *s;
	size_t n, lines = 0, folded = 0, frames = 0, events = 0;
	struct folded f;
	enum detect_fmt first = FMT_UNKNOWN;

	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	if (p < end && *p == '{')
		return FMT_PV_JSON;
	if (p < end && *p == '<' && (bytes_contains(p, (size_t)(end - p), "<StackSource") ||
				     bytes_contains(p, (size_t)(end - p), "<StackWindow")))
		return FMT_PV_XML;
	while (lines < 400 && next_line(&p, end, &s, &n)) {
		if (n == 0 || (s[0] == '#' && !folded))
			continue;
		if (lines++ == 0 && (first = csv_header(s, n)) != FMT_UNKNOWN)
			return first;
		if (n >= 11 && memcmp(s, "BeginHeader", 11) == 0)
			return FMT_DUMPER;
		if (perf_frame(s, n))
			frames++;
		else if (perf_stamp(s, n))
			events += 1000;
		else if (s[0] != ' ' && s[0] != '\t' && memchr(s, ':', n))
			events++;
		if (folded_parse(s, n, &f) == 0)
			folded++;
	}
	if ((frames && events) || events >= 1000 * (lines - folded) / 2 + 1000)
		return FMT_PERF;
	/* Two lines in three: flamegraph.pl draws a file with a few bad lines,
	 * and so does flame (it counts them). */
	if (lines && folded * 3 >= lines * 2)
		return FMT_FOLDED;
	return FMT_UNKNOWN;
}
