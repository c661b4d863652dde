/* libFuzzer target: sample(1) reports through the sample collapser.  The
 * first byte picks --no-modules.  The input is read three times, a line
 * at a time (sample_line) and in blocks of lines (lblock_feed,
 * sample_text) into a table, and in blocks into a call tree (what
 * stackcollapse-sample does): all must give the same stacks, and the
 * tree's walk must write them in the table's sorted order, or the target
 * aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "fuzz.h"
#include "lblock.h"
#include "sample.h"
#include "sample_tree.h"
#include "strtab.h"

static int feed(void *s, const char *line, size_t len, unsigned long lineno)
{
	return sample_line(s, line, len, lineno);
}

static int feed_block(void *s, const char *text, size_t len, unsigned long *lineno)
{
	return sample_text(s, text, len, lineno);
}

static void quiet(void *ctx, const char *file, unsigned long line, const char *msg)
{
	fuzz_quiet(ctx, file, line, msg);
}

/* The stacks of data read one way (blocks or lines), in t. */
static void run(const struct sample_opts *o, int blocks, const uint8_t *data, size_t size,
		struct strtab *t)
{
	struct sample *s = sample_new(o, t, NULL, quiet, NULL, "fuzz");
	char err[256];

	if (blocks) {
		struct lread *lr = lread_from_mem(data, size, "fuzz");

		(void)lblock_feed(lr, feed_block, s, err, sizeof(err));
		lread_free(lr);
	} else {
		fuzz_lines(data, size, feed, s);
	}
	sample_end(s);
	sample_free(s);
}

/* The tree's stacks are t's, and its walk writes them as t's are
 * written sorted. */
static void same_as_tree(const struct sample_tree *tree, const struct strtab *t)
{
	struct strtab *v = strtab_new(sizeof(struct fcount));
	uint32_t *ids = strtab_sorted(t);
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0, i, len;
	FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);
	const char *s;

	sample_tree_spell(tree, v);
	fuzz_same_stacks(t, v);
	if (!fa || !fb || sample_tree_write(tree, fa) < 0)
		abort();
	for (i = 0; i < strtab_count(t); i++) {
		s = strtab_str(t, ids[i], &len);
		folded_write(fb, s, len, strtab_val(t, ids[i]));
	}
	fclose(fa);
	fclose(fb);
	if (alen != blen || memcmp(a, b, alen) != 0)
		abort();
	free(a);
	free(b);
	free(ids);
	strtab_free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sample_opts o = { { 0 }, 0, NULL };
	struct strtab *t = strtab_new(sizeof(struct fcount));
	struct strtab *u = strtab_new(sizeof(struct fcount));
	struct strtab *w = strtab_new(sizeof(struct fcount));

	if (size > 0) {
		o.no_modules = data[0] & 1;
		data++;
		size--;
	}
	run(&o, 0, data, size, t);
	run(&o, 1, data, size, u);
	fuzz_same_stacks(t, u);
	o.tree = sample_tree_new();
	run(&o, 1, data, size, w);
	if (strtab_count(w) != 0)
		abort();
	same_as_tree(o.tree, t);
	sample_tree_free(o.tree);
	strtab_free(t);
	strtab_free(u);
	strtab_free(w);
	return 0;
}
