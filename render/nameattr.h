/* nameattr: flamegraph.pl's --nameattr file, "NAME<TAB>key=value<TAB>...",
 * giving a frame's <g> (or, with href, <a>) element attributes: title
 * (replaces the tooltip), id, class, href, target, and the raw attribute
 * lists g_extra and a_extra.  Unlike flamegraph.pl, everything is escaped,
 * event-handler attributes (on*) and script URLs are dropped, and a later
 * duplicate attribute is ignored, so the SVG stays well-formed and inert. */
#ifndef FLAME_NAMEATTR_H
#define FLAME_NAMEATTR_H

#include <stddef.h>

struct nameattr;

struct nattr {
	char *title;	/* tooltip text, raw (escape when writing), or NULL */
	char *g_attrs;	/* escaped ' key="value"' list for the <g>, or "" */
	char *a_attrs;	/* same for the <a>, or NULL when there is no href */
};

typedef void nameattr_warn_fn(void *ctx, const char *msg);

/* Reads path.  Returns the table, or NULL with errno set when it cannot be
 * read.  Malformed lines and attributes are reported through warn and
 * skipped.  Free with nameattr_free. */
struct nameattr *nameattr_load(const char *path, nameattr_warn_fn *warn, void *ctx);

/* Frees na.  nameattr_free(NULL) does nothing. */
void nameattr_free(struct nameattr *na);

/* The attributes of the frame name, or NULL. */
const struct nattr *nameattr_find(const struct nameattr *na, const char *name, size_t len);

#endif
