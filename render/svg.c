/* svg: the SVG document.  Geometry (padding, frame boxes, label room)
 * follows flamegraph.pl so graphs line up with the ones people know. */
#include "svg.h"
#include "compact.h"
#include "draw.h"
#include "numfmt.h"
#include "nameattr.h"
#include "palette.h"
#include "xmlesc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/assets.h"

#define XPAD SVG_XPAD

static void text_el(FILE *f, const char *id, double x, double y, const char *cls,
		    const char *s)
{
	char ybuf[32], xbuf[NUMFMT_MAX];

	numfmt_fixed(xbuf, x, 2);
	fprintf(f, "<text id=\"%s\" x=\"%s\" y=\"%s\"%s>", id, xbuf, draw_num(ybuf, y), cls);
	xmlesc_write(f, s, strlen(s), (size_t)-1);
	fputs("</text>\n", f);
}

static void header(FILE *f, const struct fg_opts *o, double height)
{
	char hb[32];

	fprintf(f, "<?xml version=\"1.0\"%s%s%s standalone=\"no\"?>\n",
		o->encoding ? " encoding=\"" : "", o->encoding ? o->encoding : "",
		o->encoding ? "\"" : "");
	fputs("<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
	      "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n", f);
	draw_num(hb, height);
	fprintf(f, "<svg version=\"1.1\" width=\"%ld\" height=\"%s\" viewBox=\"0 0 %ld %s\" "
		"xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"",
		o->width, hb, o->width, hb);
}

/* The font family goes into CSS: keep only characters that cannot end
 * the declaration or the style element. */
static void css_font(FILE *f, const char *s)
{
	for (; *s; s++)
		if (!strchr(";{}<>&\\\n\r", *s))
			putc(*s, f);
}

/* Dark: the background and the text around the graph; labels stay dark
 * on the frames, whose palettes are bright enough on either. */
static void theme(FILE *f, const struct fg_opts *o)
{
	static const char dark[] = "rect[fill=\"url(#background)\"]{fill:#1c1d21}"
				   "text{fill:#dedede}#frames text{fill:#000}";

	if (o->theme == THEME_DARK)
		fprintf(f, "%s\n", dark);
	else if (o->theme == THEME_AUTO)
		fprintf(f, "@media (prefers-color-scheme:dark){%s}\n", dark);
}

static void style(FILE *f, const struct fg_opts *o)
{
	char fs[32], ts[32];

	fprintf(f, "<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
		"<stop stop-color=\"%s\" offset=\"5%%\"/><stop stop-color=\"%s\" offset=\"95%%\"/>"
		"</linearGradient>", o->bg1, o->bg2);
	/* Frames of stacks gone from AFTER: grey-blue diagonal stripes. */
	if (o->diff_detail)
		fputs("<pattern id=\"" DRAW_GONE_ID "\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\""
		      " patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"rgb(225,228,240)\"/>"
		      "<rect width=\"2.5\" height=\"6\" fill=\"rgb(130,150,205)\"/></pattern>", f);
	fputs("</defs>\n", f);
	fputs("<style type=\"text/css\">\ntext{font-family:", f);
	css_font(f, o->fonttype);
	fprintf(f, ";font-size:%spx;fill:#000}\n#title{text-anchor:middle;font-size:%spx}\n",
		draw_num(fs, o->fontsize), draw_num(ts, o->fontsize + 5));
	fputs(viewer_css, f);
	if (o->strokecolor)
		fprintf(f, "#frames rect { stroke:%s; stroke-width:0.5; }\n", o->strokecolor);
	theme(f, o);
	fputs("</style>\n", f);
}

void svg_write_empty(FILE *f, const struct fg_opts *o)
{
	header(f, o, o->fontsize * 5);
	fputs(">\n", f);
	style(f, o);
	text_el(f, "title", (double)(o->width / 2), o->fontsize * 2, "",
		"ERROR: No valid input provided to flamegraph.");
	fputs("</svg>\n", f);
}

static double image_height(const struct svg_in *in)
{
	const struct fg_opts *o = in->o;
	double h = (in->lo->depthmax + 1) * (double)o->frameheight + o->fontsize * 3 +
		   o->fontsize * 2 + 10;

	if (o->subtitle && *o->subtitle)
		h += o->fontsize * 2;
	return h;
}

static const char *default_title(const struct fg_opts *o)
{
	if (o->title && *o->title)
		return o->title;
	if (o->flamechart)
		return "Flame Chart";
	return o->inverted ? "Icicle Graph" : "Flame Graph";
}

/* The viewer reads its settings from attributes, never from script text,
 * so no option value is ever parsed as code. */
static void settings(FILE *f, const struct svg_in *in, int compact)
{
	const struct fg_opts *o = in->o;
	char b1[32], b2[32];

	fprintf(f, " data-xpad=\"%d\" data-fontsize=\"%s\" data-fontwidth=\"%s\" data-inverted=\"%d\""
		" data-searchcolor=\"%s\" data-nametype=\"", XPAD, draw_num(b1, o->fontsize),
		draw_num(b2, o->fontwidth), o->inverted, o->searchcolor);
	xmlesc_write(f, o->nametype, strlen(o->nametype), (size_t)-1);
	fputs("\" data-countname=\"", f);
	xmlesc_write(f, o->countname, strlen(o->countname), (size_t)-1);
	fputs("\"", f);
	/* The compact form's viewer computes titles and geometry itself. */
	if (compact)
		fprintf(f, " data-timemax=\"%s\" data-factor=\"%s\" data-fractional=\"%d\""
			" data-frameheight=\"%ld\"", draw_num(b1, in->timemax), draw_num(b2, o->factor),
			in->fractional, o->frameheight);
	fputs(">\n", f);
}

static void chrome(FILE *f, const struct svg_in *in, double height, int compact)
{
	const struct fg_opts *o = in->o;
	double w = (double)o->width, fs = o->fontsize, ypad2 = fs * 2 + 10;

	fputs("<!-- Flame graph by flame: hover for details, click to zoom, Ctrl-F to search -->\n"
	      "<!-- NOTES: ", f);
	if (o->notes)
		xmlesc_comment(f, o->notes, strlen(o->notes));
	fputs(" -->\n", f);
	style(f, o);
	if (!o->no_js) {
		fputs("<script type=\"text/ecmascript\"><![CDATA[\n", f);
		fputs(viewer_js, f);
		if (compact)
			fputs(compact_js, f);
		fputs("]]></script>\n", f);
	}
	fprintf(f, "<rect x=\"0.0\" y=\"0\" width=\"%.1f\" height=\"%.1f\" fill=\"url(#background)\"/>\n",
		w, height);
	text_el(f, "title", (double)(o->width / 2), fs * 2, "", default_title(o));
	if (o->subtitle && *o->subtitle)
		text_el(f, "subtitle", (double)(o->width / 2), fs * 4, "", o->subtitle);
	text_el(f, "details", XPAD, height - ypad2 / 2, "", " ");
	text_el(f, "unzoom", XPAD, fs * 2, " class=\"fg-hidden fg-button\"", "Reset Zoom");
	text_el(f, "search", w - XPAD - 100, fs * 2, " class=\"fg-button fg-faint\"", "Search");
	text_el(f, "ignorecase", w - XPAD - 16, fs * 2, " class=\"fg-button fg-faint\"", "ic");
	text_el(f, "matched", w - XPAD - 100, height - ypad2 / 2, "", " ");
}

/* "N countname, P%": n of all, as flame --diff's tooltips give it. */
static void share(FILE *f, const struct svg_in *in, double n, double all)
{
	char num[64];

	draw_commify(num, sizeof(num), n * in->o->factor);
	fprintf(f, "%s ", num);
	xmlesc_write(f, in->o->countname, strlen(in->o->countname), (size_t)-1);
	fprintf(f, ", %.2f%%", all > 0 ? 100 * n / all : 0.0);
}

/* flame --diff: "name (AFTER share; before BEFORE share; +change, +points)"
 * with the frame's own inclusive counts.  The head keeps the form
 * "name (N samples, " the viewer takes the name from. */
static void detail_title(FILE *f, const struct svg_in *in, const struct frame *fr)
{
	double pa = in->after_total > 0 ? 100 * fr->after / in->after_total : 0;
	double pb = in->before_total > 0 ? 100 * fr->before / in->before_total : 0;
	double d = (fr->after - fr->before) * in->o->factor, dp = pa - pb;
	char num[64];

	fputs("<title>", f);
	if (fr->depth == 0)
		fputs("all", f);
	else
		xmlesc_write(f, fr->name, draw_strip(fr->name, fr->len), (size_t)-1);
	fputs(" (", f);
	share(f, in, fr->after, in->after_total);
	fputs("; before ", f);
	share(f, in, fr->before, in->before_total);
	if (fabs(d) < 0.5)
		d = 0;		/* rounds to 0: no "+0" or "-0" */
	draw_commify(num, sizeof(num), d);
	fprintf(f, "; %s%s ", d > 0 ? "+" : "", num);
	xmlesc_write(f, in->o->countname, strlen(in->o->countname), (size_t)-1);
	if (fabs(dp) < 0.005)
		dp = 0;		/* no "-0.00" */
	fprintf(f, ", %s%.2f points", dp > 0 ? "+" : "", dp);
	if (fr->after == 0 && fr->before > 0)
		fputs("; gone from AFTER", f);
	else if (fr->before == 0 && fr->after > 0)
		fputs("; new in AFTER", f);
	fputs(")</title>", f);
}

static void title(FILE *f, const struct svg_in *in, const struct frame *fr, double end)
{
	const struct fg_opts *o = in->o;
	double samples = (end - fr->start) * o->factor, all = in->timemax * o->factor;
	char num[NUMFMT_MAX], share[NUMFMT_MAX];
	double pct;

	draw_commify(num, sizeof(num), samples);
	fputs("<title>", f);
	if (fr->depth == 0) {
		fprintf(f, "all (%s ", num);
		xmlesc_write(f, o->countname, strlen(o->countname), (size_t)-1);
		fputs(", 100%)</title>", f);
		return;
	}
	xmlesc_write(f, fr->name, draw_strip(fr->name, fr->len), (size_t)-1);
	fprintf(f, " (%s ", num);
	xmlesc_write(f, o->countname, strlen(o->countname), (size_t)-1);
	/* flamegraph.pl divides the rounded count; with fractional counts
	 * that can pass 100%, so then the exact count is used. */
	pct = 100 * (in->fractional ? samples : rint(samples)) / all;
	numfmt_fixed(share, pct > 100 ? 100.0 : pct, 2);
	fprintf(f, ", %s%%", share);
	if (fr->has_delta) {
		/* + 0.0 turns -0 into 0: Perl negates an integer zero to 0. */
		double d = (o->negate ? -fr->delta : fr->delta) + 0.0;

		fprintf(f, "; %s%.2f%%", d > 0 ? "+" : "", 100 * d / all);
	}
	fputs(")</title>", f);
}

static void frame(FILE *f, const struct svg_in *in, const struct frame *fr, double height)
{
	const struct fg_opts *o = in->o;
	double wpt = ((double)o->width - 2 * XPAD) / in->timemax;
	double end = fr->depth == 0 ? in->timemax : fr->end;
	double x1 = XPAD + fr->start * wpt, x2 = XPAD + end * wpt, y1, y2;
	const struct nattr *na = fr->depth ? nameattr_find(in->na, fr->name, fr->len) : NULL;
	char xs1[NUMFMT_MAX], xs2[NUMFMT_MAX], w[NUMFMT_MAX], h[NUMFMT_MAX], yb[32], color[48];

	draw_frame_y(o, fr->depth, height, &y1, &y2);
	if (na && na->a_attrs)
		fprintf(f, "<a%s%s>", na->a_attrs, na->g_attrs);
	else
		fprintf(f, "<g%s>", na ? na->g_attrs : "");
	if (na && na->title) {
		fputs("<title>", f);
		xmlesc_write(f, na->title, strlen(na->title), (size_t)-1);
		fputs("</title>", f);
	} else if (o->diff_detail && fr->has_delta) {
		detail_title(f, in, fr);
	} else {
		title(f, in, fr, end);
	}
	/* Width from the rounded ends, as flamegraph.pl prints it. */
	numfmt_fixed(xs1, x1, 1);
	numfmt_fixed(xs2, x2, 1);
	numfmt_fixed(w, strtod(xs2, NULL) - strtod(xs1, NULL), 1);
	numfmt_fixed(h, y2 - y1, 1);
	draw_fill(in, fr, color);
	fprintf(f, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\"/>", xs1,
		draw_num(yb, y1), w, h, color);
	draw_label(f, in, fr, x1, x2, 3 + (y1 + y2) / 2);
	fputs(na && na->a_attrs ? "</a>\n" : "</g>\n", f);
}

void svg_write(FILE *f, const struct svg_in *in)
{
	double height = image_height(in);
	size_t i;

	int compact = compact_wanted(in);

	header(f, in->o, height);
	settings(f, in, compact);
	chrome(f, in, height, compact);
	if (compact) {
		compact_write(f, in, height);
	} else {
		fputs("<g id=\"frames\">\n", f);
		for (i = 0; i < in->lo->n; i++)
			frame(f, in, &in->lo->f[i], height);
		fputs("</g>\n", f);
	}
	fputs("</svg>\n", f);
}
