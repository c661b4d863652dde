/* collect: detection over the format table, then the format's run. */
#include "collect.h"
#include "lread.h"
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEAD (64 * 1024)	/* text looked at to tell the format */

/* An input: a file, stdin, or bytes in memory.  Each is read twice, to
 * tell the format and then to collapse it; a pipe on stdin is read once,
 * its first bytes kept from the first reading for the second. */
struct input {
	const char *path;	/* the file, NULL for stdin or memory */
	const char *data;	/* collect_mem's bytes, or NULL */
	size_t len;		/* how many */
	int pipe;		/* stdin cannot be rewound */
	off_t start;		/* else where stdin began */
	unsigned char *prefix;	/* a pipe's bytes read while sniffing */
	size_t plen;		/* how many */
	const char *name;	/* for messages */
};

/* Notes how stdin can be read twice: rewound, or a pipe. */
static void stdin_kind(struct input *in)
{
	struct stat st;

	in->pipe = !(fstat(0, &st) == 0 && S_ISREG(st.st_mode) &&
		     (in->start = lseek(0, 0, SEEK_CUR)) >= 0);
}

/* A reader over the input from its start (for a pipe: what sniff kept,
 * then the rest). */
static struct lread *reopen(struct input *in)
{
	struct lread *lr;

	if (in->path)
		return lread_open(in->path);
	if (in->data)
		return lread_from_mem(in->data, in->len, in->name);
	if (!in->pipe)
		return lseek(0, in->start, SEEK_SET) < 0 ? NULL : lread_open(NULL);
	lr = lread_resume_stdin(in->prefix, in->plen);
	in->prefix = NULL;	/* the reader owns it now */
	in->plen = 0;
	return lr;
}

/* Only blanks and line ends: nothing to collapse, in any format. */
static int blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

/* Tells in's format into *f.  Returns 0; 1 when in is empty (or blank),
 * which is no samples rather than an unknown format; -1 with a message in
 * err. */
static int sniff(struct input *in, uint64_t max_inflate, const struct format **f,
		 char *err, size_t errlen)
{
	char names[1024];
	struct lread *lr = in->pipe && !in->data ? lread_stdin_tee() : reopen(in);
	char *head = xmalloc(HEAD);
	const char *hint;
	size_t len = 0;
	ssize_t n = 1;
	int rc = -1;

	if (!lr) {
		free(head);
		snprintf(err, errlen, "cannot open '%s': %s", in->name, strerror(errno));
		return -1;
	}
	if (max_inflate)
		lread_set_max_inflate(lr, max_inflate);
	while (len < HEAD - 16 && (n = lread_read(lr, head + len, HEAD - len)) > 0)
		len += (size_t)n;
	*f = NULL;
	/* Text before a fault is told and read as any other: the format's
	 * run reports the fault when it reaches it. */
	if (n < 0 && len > 0)
		n = 0;
	if (n < 0)
		snprintf(err, errlen, "%s: %s", in->name, lread_error(lr));
	else if (n == 0 && blank(head, len))	/* read to its end */
		rc = 1;
	else if (!(*f = format_detect(head, len)) && (hint = format_hint(head, len)))
		snprintf(err, errlen, "%s: %s", in->name, hint);
	else if (!*f) {
		format_names(names, sizeof(names));
		snprintf(err, errlen, "%s: cannot tell its format; name it with --format (one of: %s)",
			 in->name, names);
	} else
		rc = 0;
	if (in->pipe && !in->data)
		in->prefix = lread_take_record(lr, &in->plen);
	lread_free(lr);
	free(head);
	return rc;
}

/* Names the filters format f has no field for; they are ignored. */
static void unfiltered(const struct input *in, const struct format *f, const struct collect_opts *o,
		       collect_warn_fn *warn, void *ctx)
{
	int ids = filter_has_ids(&o->filter), time = filter_has_time(&o->filter);
	char msg[200];

	if ((!ids || (f->filters & FILTER_IDS)) && (!time || (f->filters & FILTER_TIME)))
		return;
	if (f->filters & FILTER_TIME)
		snprintf(msg, sizeof(msg), "%s input has no process or thread ids to filter on; "
			 "--pid, --tid and --process are ignored", f->name);
	else
		snprintf(msg, sizeof(msg), "%s input has no process, thread or time to filter on; "
			 "the filters are ignored", f->name);
	warn(ctx, in->name, 0, msg);
}

/* Detection (unless the format is given), then the format's run. */
static int collect_input(struct input *in, const struct collect_opts *o, struct strtab *t,
			 const struct format **fmt, collect_warn_fn *warn, void *ctx, char *err,
			 size_t errlen)
{
	const struct format *f = o->format;
	struct format_job j;
	int rc;

	*fmt = f;
	if (!f && (rc = sniff(in, o->max_inflate, &f, err, errlen)) != 0) {
		/* An empty input has no samples; whether that fails is the
		 * caller's to say (flame: exit 2, as for any input without). */
		if (rc > 0)
			warn(ctx, in->name, 0, "empty input");
		return rc < 0 ? -1 : 0;
	}
	*fmt = f;
	unfiltered(in, f, o, warn, ctx);
	j = (struct format_job){ f, in->name, reopen(in), o, NULL, t, warn, ctx, err, errlen };
	if (!j.lr) {
		snprintf(err, errlen, "cannot read '%s' again: %s", in->name, strerror(errno));
		return -1;
	}
	if (f->family && o->fopts)
		j.fopts = o->fopts[format_family_index(f->family)];
	if (o->max_inflate)
		lread_set_max_inflate(j.lr, o->max_inflate);
	rc = f->run(&j);
	lread_free(j.lr);
	return rc;
}

int collect(const char *path, const struct collect_opts *o, struct strtab *t,
	    const struct format **fmt, collect_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	struct input in = { 0 };
	int rc = -1;

	in.path = path && strcmp(path, "-") ? path : NULL;
	in.name = in.path ? in.path : "<stdin>";
	if (!in.path)
		stdin_kind(&in);
	if (in.path && access(in.path, R_OK) < 0)
		snprintf(err, errlen, "cannot open '%s': %s", in.name, strerror(errno));
	else
		rc = collect_input(&in, o, t, fmt, warn, ctx, err, errlen);
	free(in.prefix);
	return rc;
}

int collect_mem(const char *data, size_t len, const struct collect_opts *o, struct strtab *t,
		const struct format **fmt, collect_warn_fn *warn, void *ctx, char *err, size_t errlen)
{
	struct input in = { 0 };

	in.data = data;
	in.len = len;
	in.name = "<stdin>";
	return collect_input(&in, o, t, fmt, warn, ctx, err, errlen);
}

void collect_unit(const struct collect_opts *o, const char *u)
{
	if (o->unit && o->unitcap && !o->unit[0] && u)
		snprintf(o->unit, o->unitcap, "%s", u);
}
