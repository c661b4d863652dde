/* vsp_format: telling VS reports, and collapsing them for collect. */
#include "vsp_format.h"
#include "collect.h"
#include "csv.h"
#include "folded.h"
#include "lread.h"
#include "strtab.h"
#include "vsp.h"
#include "vsp_cli.h"

#include <stdlib.h>
#include <string.h>

/* A report's header: Function Name, with Level (tree) or Type (caller/callee). */
static int header_has(const char *head, size_t len, const char *col)
{
	struct csv cs;
	const char *s;
	size_t n;
	int yes = 0;

	if (!format_first_line(head, len, &s, &n))
		return 0;
	csv_init(&cs);
	if (csv_split(&cs, s, n) == 0 && cs.n >= 2)
		yes = csv_find(&cs, "Function Name") >= 0 && csv_find(&cs, col) >= 0;
	csv_release(&cs);
	return yes;
}

int vsp_tree_sniff(const char *head, size_t len)
{
	return header_has(head, len, "Level") ? 90 : 0;
}

int vsp_caller_sniff(const char *head, size_t len)
{
	return header_has(head, len, "Type") ? 89 : 0;
}

static int feed(void *v, const char *s, size_t n, unsigned long no)
{
	return vsp_line(v, s, n, no);
}

/* A report has no time: a flame chart gets its stacks sorted. */
static void chart_sorted(const struct format_job *j, struct strtab *vt)
{
	uint32_t *ids = strtab_sorted(vt);
	size_t i, len;

	for (i = 0; i < strtab_count(vt); i++) {
		const char *s = strtab_str(vt, ids[i], &len);

		fseq_put(j->t, j->o->seq, s, len, strtab_val(vt, ids[i]));
	}
	free(ids);
}

int vsp_collect(const struct format_job *j)
{
	const struct vsp_cli *cli = j->fopts;
	struct vsp_opts vo;
	struct strtab *vt = NULL;
	struct vsp *v;
	int rc;

	if (cli)
		vo = cli->opts;
	else
		memset(&vo, 0, sizeof(vo));
	if (j->o->seq) {
		j->warn(j->ctx, j->name, 0, "a Visual Studio report has no time order: the flame "
			"chart shows its stacks sorted");
		vt = strtab_new(sizeof(struct fcount));
	}
	v = vsp_new(&vo, vt ? vt : j->t, j->warn, j->ctx);
	vsp_begin(v, j->name);
	rc = format_fault(j, lread_feed(j->lr, feed, v, j->err, j->errlen) < 0);
	vsp_end(v);
	rc |= vsp_stats(v)->bad_input != 0;
	if (vt) {
		chart_sorted(j, vt);
		strtab_free(vt);
	}
	vsp_free(v);
	return rc;
}
