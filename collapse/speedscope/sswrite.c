/* sswrite: the frames are interned in a table of their own first (their
 * ids are the indices speedscope's samples name), then written. */
#include "sswrite.h"
#include "bytes.h"
#include "folded.h"
#include "outfile.h"
#include "speedscope.h"
#include "strtab.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef FLAME_VERSION
#define FLAME_VERSION "dev"
#endif

struct sw {
	struct strtab *frames;	/* distinct frames; id = index */
	uint32_t *idx;		/* every sample's frame ids, back to back */
	size_t nidx, cap;	/* used, room */
	size_t *end;		/* where each sample ends in idx */
	const uint32_t *ids;	/* the stacks written, sorted */
	size_t n;		/* how many */
	struct fcount total;	/* their weights summed */
};

/* Splits every stack into frame ids. */
static void index_stacks(struct sw *w, const struct strtab *t)
{
	size_t k;

	w->end = xmalloc((w->n ? w->n : 1) * sizeof(*w->end));
	for (k = 0; k < w->n; k++) {
		size_t len, i = 0;
		const char *s = strtab_str(t, w->ids[k], &len);

		while (len && i <= len) {
			const char *semi = memchr(s + i, ';', len - i);
			size_t e = semi ? (size_t)(semi - s) : len;

			xgrow(&w->idx, &w->cap, w->nidx + 1, sizeof(*w->idx));
			w->idx[w->nidx++] = strtab_intern(w->frames, s + i, e - i, NULL);
			i = e + 1;
		}
		w->end[k] = w->nidx;
		fcount_add(&w->total, strtab_val(t, w->ids[k]));
	}
}

static void put_string(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	bytes_json(f, s, n);
	fputc('"', f);
}

static void put_frames(FILE *f, const struct sw *w)
{
	size_t i, n = strtab_count(w->frames), len;

	fputs("\"shared\":{\"frames\":[", f);
	for (i = 0; i < n; i++) {
		const char *s = strtab_str(w->frames, (uint32_t)i, &len);

		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
		put_string(f, s, len);
		fputc('}', f);
	}
	fputs("]},\n", f);
}

static void put_samples(FILE *f, const struct sw *w, const struct strtab *t)
{
	size_t k, i, from = 0;
	char num[40];

	fputs("\"samples\":[", f);
	for (k = 0; k < w->n; k++) {
		fputs(k ? ",\n[" : "\n[", f);
		for (i = from; i < w->end[k]; i++)
			fprintf(f, i > from ? ",%u" : "%u", (unsigned)w->idx[i]);
		fputc(']', f);
		from = w->end[k];
	}
	fputs("],\n\"weights\":[", f);
	for (k = 0; k < w->n; k++) {
		fcount_format(strtab_val(t, w->ids[k]), num);
		fprintf(f, k ? ",%s" : "%s", num);
	}
	fputs("]", f);
}

int sswrite(FILE *f, const struct strtab *t, const char *unit, const char *name)
{
	struct sw w;
	uint32_t *sorted = strtab_sorted(t);
	size_t i, n = strtab_count(t);
	char num[40];

	memset(&w, 0, sizeof(w));
	w.frames = strtab_new(1);
	/* The empty stack (a line with only a count) has no frames to name. */
	for (i = 0; i < n; i++)
		if (strtab_str(t, sorted[i], NULL)[0] != '\0')
			sorted[w.n++] = sorted[i];
	w.ids = sorted;
	index_stacks(&w, t);
	if (!name)
		name = "flame";
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n", f);
	fputs("\"exporter\":\"flame@" FLAME_VERSION "\",\"name\":", f);
	put_string(f, name, strlen(name));
	fputs(",\"activeProfileIndex\":0,\n", f);
	put_frames(f, &w);
	fputs("\"profiles\":[{\"type\":\"sampled\",\"name\":", f);
	put_string(f, name, strlen(name));
	fcount_format(&w.total, num);
	fprintf(f, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%s,\n",
		speedscope_unit_name(unit), num);
	put_samples(f, &w, t);
	fputs("}]}\n", f);
	strtab_free(w.frames);
	free(w.idx);
	free(w.end);
	free(sorted);
	return ferror(f) ? -1 : 0;
}

/* What sswrite_save writes. */
struct ssfile {
	const struct strtab *t;
	const char *unit, *name;
};

static int ssfile_write(FILE *f, void *ctx)
{
	const struct ssfile *x = ctx;

	return sswrite(f, x->t, x->unit, x->name);
}

int sswrite_save(const struct strtab *t, const char *unit, const char *name, const char *path,
		 char *err, size_t errlen)
{
	struct ssfile x = { t, unit, name };

	return outfile_save(path, ssfile_write, &x, err, errlen);
}
