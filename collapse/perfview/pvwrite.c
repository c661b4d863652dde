/* pvwrite: PerfView XML and JSON writers. */
#include "pvwrite.h"
#include "bytes.h"
#include "folded.h"
#include "outfile.h"
#include "strtab.h"
#include "xalloc.h"
#include "zip.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A caller-tree node, the key of the node table. */
struct node_key {
	uint32_t caller;	/* node id + 1, 0 for none */
	uint32_t frame;		/* frame id */
};

/* Writes a name as XML text (xml) or a JSON string body; invalid UTF-8
 * (and, in XML, control characters other than tab) becomes U+FFFD.
 * Returns 1 when something was replaced. */
static int put_name(FILE *f, const char *s, size_t n, int xml)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	int bad = 0;

	if (!xml)
		return bytes_json(f, s, n);
	while (i < n) {
		size_t k = bytes_utf8_len(s + i, n - i);
		unsigned c = u[i];

		if (k == 0) {
			fputs("\xef\xbf\xbd", f);
			bad = 1;
			i++;
			continue;
		}
		if (k > 1)
			fwrite(u + i, 1, k, f);
		else if (c == '<' || c == '>' || c == '&' || c == '"')
			fputs(c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : "&quot;", f);
		else if (c == '\t')
			fputs("&#x9;", f);
		else if (c < 0x20) {
			fputs("\xef\xbf\xbd", f);	/* XML 1.0 cannot hold them at all */
			bad = 1;
		}
		else
			putc((int)c, f);
		i += k;
	}
	return bad;
}

/* The interned tree: every stack's leaf node, frames and nodes numbered. */
struct tree {
	struct strtab *frames;	/* name -> frame id */
	struct strtab *nodes;	/* struct node_key -> node id */
	uint32_t *leaf;		/* stack id -> leaf node id + 1, 0: empty stack */
};

static void tree_build(struct tree *tr, const struct strtab *t)
{
	size_t i, n = strtab_count(t);

	tr->frames = strtab_new(0);
	tr->nodes = strtab_new(0);
	tr->leaf = xcalloc(n ? n : 1, sizeof(*tr->leaf));
	for (i = 0; i < n; i++) {
		size_t len, a = 0;
		const char *s = strtab_str(t, (uint32_t)i, &len);
		struct node_key k = { 0, 0 };

		while (len && a <= len) {
			const char *semi = memchr(s + a, ';', len - a);
			size_t b = semi ? (size_t)(semi - s) : len;

			k.frame = strtab_intern(tr->frames, s + a, b - a, NULL);
			k.caller = strtab_intern(tr->nodes, (const char *)&k, sizeof(k), NULL) + 1;
			a = b + 1;
		}
		tr->leaf[i] = k.caller;
	}
}

static void tree_free(struct tree *tr)
{
	strtab_free(tr->frames);
	strtab_free(tr->nodes);
	free(tr->leaf);
}

static void xml_body(FILE *f, const struct strtab *t, const struct tree *tr, struct pvwrite_stats *st)
{
	size_t i, n;
	double time = 0;

	n = strtab_count(tr->frames);
	fprintf(f, "  <Frames Count=\"%zu\">\n", n);
	for (i = 0; i < n; i++) {
		size_t len;
		const char *s = strtab_str(tr->frames, (uint32_t)i, &len);

		fprintf(f, "   <Frame ID=\"%zu\">", i);
		st->bad_utf8 += put_name(f, s, len, 1);
		fputs("</Frame>\n", f);
	}
	n = strtab_count(tr->nodes);
	fprintf(f, "  </Frames>\n  <Stacks Count=\"%zu\">\n", n);
	for (i = 0; i < n; i++) {
		struct node_key k;

		memcpy(&k, strtab_str(tr->nodes, (uint32_t)i, NULL), sizeof(k));
		fprintf(f, "   <Stack ID=\"%zu\" CallerID=\"%ld\" FrameID=\"%u\" />\n", i,
			(long)k.caller - 1, k.frame);
	}
	st->frames = strtab_count(tr->frames);
	st->nodes = n;
	n = strtab_count(t);
	fprintf(f, "  </Stacks>\n  <Samples Count=\"%zu\">\n", n - st->empty);
	for (i = 0; i < n; i++) {
		const struct fcount *c = strtab_val(t, (uint32_t)i);
		char num[32];

		if (!tr->leaf[i])
			continue;
		fcount_format(c, num);
		fprintf(f, "   <Sample ID=\"%zu\" Time=\"%.3f\" StackID=\"%u\" Metric=\"%s\" />\n",
			st->samples++, time, tr->leaf[i] - 1, num);
		time += fcount_value(c);
	}
	fputs("  </Samples>\n", f);
}

int pvwrite_xml(FILE *f, const struct strtab *t, struct pvwrite_stats *st)
{
	struct tree tr;
	size_t i;

	memset(st, 0, sizeof(*st));
	tree_build(&tr, t);
	for (i = 0; i < strtab_count(t); i++)
		st->empty += !tr.leaf[i];
	fputs("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<StackWindow>\n <StackSource>\n", f);
	xml_body(f, t, &tr, st);
	fputs(" </StackSource>\n</StackWindow>\n", f);
	tree_free(&tr);
	return ferror(f) ? -1 : 0;
}

/* One JSON sample: the stack's frames leaf first. */
static void json_sample(FILE *f, const char *s, size_t len, double time, const char *num,
			struct pvwrite_stats *st)
{
	size_t b = len;

	fprintf(f, "{\"Time\": %.3f, \"Metric\": %s, \"Stack\": [", time, num);
	while (b <= len) {
		size_t a = b;

		while (a > 0 && s[a - 1] != ';')
			a--;
		fputc('"', f);
		st->bad_utf8 += put_name(f, s + a, b - a, 0);
		fputc('"', f);
		if (a == 0)
			break;
		fputs(", ", f);
		b = a - 1;
	}
	fputs("]}", f);
}

int pvwrite_json(FILE *f, const struct strtab *t, struct pvwrite_stats *st)
{
	size_t i, n = strtab_count(t);
	double time = 0;

	memset(st, 0, sizeof(*st));
	fputs("{\"StackSource\": {\"Samples\": [", f);
	for (i = 0; i < n; i++) {
		const struct fcount *c = strtab_val(t, (uint32_t)i);
		size_t len;
		const char *s = strtab_str(t, (uint32_t)i, &len);
		char num[32];

		if (len == 0) {
			st->empty++;
			continue;
		}
		fcount_format(c, num);
		fputs(st->samples++ ? ",\n  " : "\n  ", f);
		json_sample(f, s, len, time, num, st);
		time += fcount_value(c);
	}
	fputs("\n]}}\n", f);
	return ferror(f) ? -1 : 0;
}

/* The zip member's name: the output's base name without ".zip". */
static char *member_name(const char *path, int json)
{
	const char *base = path && strcmp(path, "-") ? strrchr(path, '/') : NULL;
	size_t n;

	if (!path || strcmp(path, "-") == 0)
		return xstrndup(json ? "stacks.PerfView.json" : "stacks.PerfView.xml", 20 - !json);
	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && strcasecmp(base + n - 4, ".zip") == 0)
		n -= 4;
	return xstrndup(base, n);
}

int pvwrite_save(const struct strtab *t, const char *path, int json, int zip,
		 struct pvwrite_stats *st, char *err, size_t errlen)
{
	struct outfile *o = outfile_open(path);
	FILE *f, *z = NULL;
	char *name;
	int rc;

	if (!o) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	f = outfile_stream(o);
	if (zip) {
		name = member_name(path, json);
		z = zip_writer(f, name);
		free(name);
		if (!z) {
			outfile_abort(o);
			snprintf(err, errlen, "cannot start a zip archive: %s", strerror(errno));
			return -1;
		}
	}
	rc = json ? pvwrite_json(z ? z : f, t, st) : pvwrite_xml(z ? z : f, t, st);
	if (z && fclose(z) != 0)
		rc = -1;
	if (rc < 0 || ferror(f)) {
		outfile_abort(o);
		snprintf(err, errlen, "write error on '%s'%s", path ? path : "<stdout>",
			 zip ? " (or the archive would need ZIP64: over 4 GiB)" : "");
		return -1;
	}
	if (outfile_commit(o) < 0) {
		snprintf(err, errlen, "write error on '%s': %s", path ? path : "<stdout>", strerror(errno));
		return -1;
	}
	return 0;
}
