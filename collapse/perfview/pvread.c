/* pvread: one PerfView file through the parser its first byte calls for. */
#include "pvread.h"
#include "lread.h"
#include "perfview.h"
#include "pvjson.h"
#include "pvxml.h"
#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (1 << 20)		/* text read per refill */

/* Skips white space; returns the first other byte (not taken) or -1. */
static int first_byte(struct pvin *in)
{
	int c;

	while ((c = pvin_peek(in)) == ' ' || c == '\t' || c == '\r' || c == '\n')
		pvin_get(in);
	return c;
}

int pvread_lread(struct pv *p, struct lread *lr)
{
	struct pvin in = { 0 };
	const struct pv_opts *o = pv_options(p);
	uint64_t seen = pv_stats(p)->samples + pv_stats(p)->skipped;
	int c, rc = -1;

	pv_file_begin(p, lread_name(lr));
	if (o->max_inflate)
		lread_set_max_inflate(lr, o->max_inflate);
	in.lr = lr;
	in.cap = o->chunk >= 16 ? o->chunk : CHUNK;
	in.buf = xmalloc(in.cap);
	in.line = 1;
	c = first_byte(&in);
	if (c >= 0 && (o->format == PV_XML || (o->format == PV_ANY && c == '<')))
		rc = pvxml_parse(p, &in);
	else if (c >= 0 && (o->format == PV_JSON || (o->format == PV_ANY && (c == '{' || c == '['))))
		rc = pvjson_parse(p, &in, lread_bom(lr));
	else if (in.eof >= 0 && c < 0) {
		/* No samples, as in every tool: not an unreadable input. */
		pv_warn(p, NULL, "empty input");
		rc = 0;
	}
	else if (in.eof >= 0) {
		in.col++;	/* at the byte that does not fit */
		pv_warn(p, &in, "not PerfView JSON or XML (it should start with '{' or '<')");
	}
	if (in.eof < 0) {
		pv_warn(p, NULL, "%s", lread_error(lr));
		rc = -1;
	}
	pv_file_end(p);
	free(in.buf);
	/* Well-formed but no sample at all: most likely some other JSON or
	 * XML (a Chrome trace, a speedscope file), which deserves a word. */
	if (rc == 0 && c >= 0 && pv_stats(p)->samples + pv_stats(p)->skipped == seen)
		pv_warn(p, NULL, "no samples: not a PerfView stack file (no Sample elements "
			"or \"Samples\" array)?");
	if (rc < 0)
		pv_mark_bad(p);
	return rc;
}

int pvread_file(struct pv *p, const char *path)
{
	struct lread *lr = lread_open(path);
	int rc;

	if (!lr) {
		pv_file_begin(p, NULL);
		pv_warn(p, NULL, "cannot open '%s': %s", path, strerror(errno));
		pv_mark_bad(p);
		return -1;
	}
	rc = pvread_lread(p, lr);
	lread_free(lr);
	return rc;
}

