/* speedscope_format: telling speedscope's JSON, and reading it for
 * collect. */
#include "speedscope.h"
#include "bytes.h"
#include "collect.h"
#include "json.h"
#include "lread.h"

/* The $schema URL every speedscope file carries (the spec requires it);
 * failing that, the shared frames and profiles of a hand-made file. */
int speedscope_sniff(const char *head, size_t len)
{
	size_t i = 0;

	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i == len || head[i] != '{')
		return 0;
	if (bytes_contains(head, len, "speedscope.app/file-format-schema.json"))
		return 100;
	if (bytes_contains(head, len, "\"profiles\"") && bytes_contains(head, len, "\"shared\""))
		return 100;
	return 0;
}

int speedscope_collect(const struct format_job *j)
{
	struct speedscope_opts o = { 0 };
	struct json *js = json_new(lread_pull, j->lr);
	int rc;

	o.t = j->t;
	o.seq = j->o->seq;
	o.warn = j->warn;
	o.ctx = j->ctx;
	o.name = j->name;
	rc = speedscope_read(js, &o);
	if (o.unit[0])
		collect_unit(j->o, o.unit);
	json_free(js);
	return rc;
}
