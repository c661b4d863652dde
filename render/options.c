/* options: flamegraph.pl's options with getopt_long_only. */
#include "options.h"
#include "cliopt.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette_names[] = {
	"hot", "mem", "io", "wakeup", "chain", "java", "js", "perl", "red",
	"green", "blue", "aqua", "yellow", "purple", "orange"
};

enum {
	OPT_TITLE = 256, OPT_SUBTITLE, OPT_WIDTH, OPT_HEIGHT, OPT_MINWIDTH,
	OPT_FONTTYPE, OPT_FONTSIZE, OPT_FONTWIDTH, OPT_COUNTNAME, OPT_NAMETYPE,
	OPT_COLORS, OPT_BGCOLORS, OPT_NOTES, OPT_TOTAL, OPT_FACTOR,
	OPT_NAMEATTR, OPT_ENCODING, OPT_COMPACT, OPT_SORT, OPT_THEME,
	OPT_SEARCHCOLOR, OPT_STROKECOLOR, OPT_BASE, OPT_PALETTEFILE, OPT_MAXDEPTH
};

static const struct option longopts[] = {
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "subtitle", required_argument, NULL, OPT_SUBTITLE },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "height", required_argument, NULL, OPT_HEIGHT },
	{ "minwidth", required_argument, NULL, OPT_MINWIDTH },
	{ "fonttype", required_argument, NULL, OPT_FONTTYPE },
	{ "fontsize", required_argument, NULL, OPT_FONTSIZE },
	{ "fontwidth", required_argument, NULL, OPT_FONTWIDTH },
	{ "countname", required_argument, NULL, OPT_COUNTNAME },
	{ "nametype", required_argument, NULL, OPT_NAMETYPE },
	{ "colors", required_argument, NULL, OPT_COLORS },
	{ "bgcolors", required_argument, NULL, OPT_BGCOLORS },
	{ "hash", no_argument, NULL, 'H' },
	{ "random", no_argument, NULL, 'R' },
	{ "cp", no_argument, NULL, 'C' },
	{ "reverse", no_argument, NULL, 'r' },
	{ "inverted", no_argument, NULL, 'i' },
	{ "flamechart", no_argument, NULL, 'F' },
	{ "negate", no_argument, NULL, 'n' },
	{ "notes", required_argument, NULL, OPT_NOTES },
	{ "total", required_argument, NULL, OPT_TOTAL },
	{ "factor", required_argument, NULL, OPT_FACTOR },
	{ "nameattr", required_argument, NULL, OPT_NAMEATTR },
	{ "encoding", required_argument, NULL, OPT_ENCODING },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	/* flame's own options from here on: a prefix that names one of
	 * flamegraph.pl's options above still means it (see expand). */
	{ "compact", required_argument, NULL, OPT_COMPACT },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "max-depth", required_argument, NULL, OPT_MAXDEPTH },
	/* inferno-flamegraph's names, so its command lines keep working. */
	{ "search-color", required_argument, NULL, OPT_SEARCHCOLOR },
	{ "stroke-color", required_argument, NULL, OPT_STROKECOLOR },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "palette-file", required_argument, NULL, OPT_PALETTEFILE },
	{ "deterministic", no_argument, NULL, 'D' },
	{ "truncate-text-right", no_argument, NULL, 'T' },
	{ "colordiffusion", no_argument, NULL, 'c' },
	{ "no-javascript", no_argument, NULL, 'J' },
	{ "pretty-xml", no_argument, NULL, 'P' },
	{ "no-sort", no_argument, NULL, 'S' },
	{ NULL, 0, NULL, 0 }
};

void fgopt_init(struct fg_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->width = 1200;
	o->frameheight = 16;
	o->fontsize = 12;
	o->fontwidth = 0.59;
	o->minwidth = 0.1;
	o->fonttype = "Verdana";
	o->countname = "samples";
	o->nametype = "Function:";
	o->colors = PAL_HOT;
	o->factor = 1;
	o->searchcolor = "rgb(230,0,230)";
}

static int bad(char *err, size_t errlen, const char *opt, const char *val,
	       const char *want)
{
	snprintf(err, errlen, "invalid --%s '%s': %s", opt, val, want);
	return -1;
}

/* A finite number, all of s used. */
static int number(const char *s, double *v)
{
	return cliopt_real(s, v);
}

static int integer(const char *s, long *v)
{
	return cliopt_long(s, 1, 1000000, v);
}

static int set_minwidth(struct fg_opts *o, const char *s, char *err, size_t errlen)
{
	size_t n = strlen(s);
	char buf[64];

	if (n == 0 || n >= sizeof(buf))
		return bad(err, errlen, "minwidth", s, "expected pixels or a percentage");
	memcpy(buf, s, n + 1);
	o->minwidth_pct = buf[n - 1] == '%';
	if (o->minwidth_pct)
		buf[n - 1] = '\0';
	if (number(buf, &o->minwidth) < 0 || o->minwidth < 0)
		return bad(err, errlen, "minwidth", s, "expected pixels or a percentage");
	return 0;
}

static int is_hex6(const char *s)
{
	int i;

	for (i = 1; i <= 6; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
			return 0;
	return s[0] == '#' && s[7] == '\0';
}

static int set_bgcolors(struct fg_opts *o, const char *s, char *err, size_t errlen)
{
	static const char *const names[][3] = {
		{ "yellow", "#eeeeee", "#eeeeb0" },
		{ "blue", "#eeeeee", "#e0e0ff" },
		{ "green", "#eef2ee", "#e0ffe0" },
		{ "grey", "#f8f8f8", "#e8e8e8" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i][0]) == 0) {
			o->bg1 = names[i][1];
			o->bg2 = names[i][2];
			return 0;
		}
	}
	if (!is_hex6(s))
		return bad(err, errlen, "bgcolors", s, "expected yellow, blue, green, grey or #rrggbb");
	memcpy(o->bgbuf, s, 8);
	o->bg1 = o->bg2 = o->bgbuf;
	return 0;
}

static int set_colors(struct fg_opts *o, const char *s, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < sizeof(palette_names) / sizeof(palette_names[0]); i++) {
		if (strcmp(s, palette_names[i]) == 0) {
			o->colors = (enum fg_palette)i;
			return 0;
		}
	}
	return bad(err, errlen, "colors", s, "expected hot, mem, io, wakeup, chain, java, js, "
		   "perl, red, green, blue, aqua, yellow, purple or orange");
}

static int set_compact(struct fg_opts *o, const char *s, char *err, size_t errlen)
{
	if (strcmp(s, "never") == 0)
		o->compact = -1;
	else if (strcmp(s, "auto") == 0)
		o->compact = 0;
	else if (strcmp(s, "always") == 0)
		o->compact = 1;
	else
		return bad(err, errlen, "compact", s, "expected auto, always or never");
	return 0;
}

/* A colour as "#rrggbb" or "rgb(R,G,B)", written to buf as "rgb(R,G,B)"
 * (the viewer and the canvas read that form). */
static int set_rgb(const char *s, char *buf, size_t size)
{
	unsigned r, g, b;
	char tail;

	if (is_hex6(s))
		sscanf(s + 1, "%2x%2x%2x", &r, &g, &b);
	else if (sscanf(s, "rgb(%u,%u,%u%c", &r, &g, &b, &tail) != 4 || tail != ')' ||
		 s[strlen(s) - 1] != ')' || r > 255 || g > 255 || b > 255)
		return -1;
	snprintf(buf, size, "rgb(%u,%u,%u)", r, g, b);
	return 0;
}

static int set_inferno(int c, struct fg_opts *o, const char *s, char *err, size_t errlen)
{
	switch (c) {
	case OPT_SEARCHCOLOR:
		if (set_rgb(s, o->scbuf, sizeof(o->scbuf)) < 0)
			return bad(err, errlen, "search-color", s, "expected #rrggbb or rgb(R,G,B)");
		o->searchcolor = o->scbuf;
		return 0;
	case OPT_STROKECOLOR:
		if (strcmp(s, "none") == 0) {
			o->strokecolor = NULL;
			return 0;
		}
		if (set_rgb(s, o->stbuf, sizeof(o->stbuf)) < 0)
			return bad(err, errlen, "stroke-color", s, "expected #rrggbb, rgb(R,G,B) or none");
		o->strokecolor = o->stbuf;
		return 0;
	case OPT_BASE:
		if (o->nbase == (int)(sizeof(o->base) / sizeof(o->base[0])))
			return bad(err, errlen, "base", s, "at most 16 are allowed");
		o->base[o->nbase++] = s;
		return 0;
	default:
		o->palette_file = s;
		o->cp = 1;
		return 0;
	}
}

/* An XML encoding name: [A-Za-z][A-Za-z0-9._-]*. */
static int valid_encoding(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
		return 0;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		      "0123456789._-") == strlen(s);
}

static int set_number(int c, struct fg_opts *o, const char *s, char *err, size_t errlen)
{
	const char *name = cliopt_name(longopts, c);
	double v;

	if (c == OPT_WIDTH || c == OPT_HEIGHT) {
		if (integer(s, c == OPT_WIDTH ? &o->width : &o->frameheight) < 0)
			return bad(err, errlen, name, s, "expected a positive integer");
		return 0;
	}
	if (number(s, &v) < 0 || v < 0 || (v == 0 && c != OPT_TOTAL))
		return bad(err, errlen, name, s, "expected a positive number");
	if (c == OPT_FONTSIZE)
		o->fontsize = v;
	else if (c == OPT_FONTWIDTH)
		o->fontwidth = v;
	else if (c == OPT_TOTAL)
		o->total = v;
	else
		o->factor = v;
	return 0;
}

static int set_string(int c, struct fg_opts *o, const char *s, char *err, size_t errlen)
{
	switch (c) {
	case OPT_TITLE: o->title = s; break;
	case OPT_SUBTITLE: o->subtitle = s; break;
	case OPT_FONTTYPE: o->fonttype = s; break;
	case OPT_COUNTNAME: o->countname = s; o->countname_given = 1; break;
	case OPT_NAMETYPE: o->nametype = s; break;
	case OPT_NOTES: o->notes = s; break;
	case OPT_NAMEATTR: o->nameattr = s; break;
	case OPT_COLORS: return set_colors(o, s, err, errlen);
	case OPT_BGCOLORS: return set_bgcolors(o, s, err, errlen);
	case OPT_MINWIDTH: return set_minwidth(o, s, err, errlen);
	case OPT_COMPACT: return set_compact(o, s, err, errlen);
	case OPT_SEARCHCOLOR: case OPT_STROKECOLOR: case OPT_BASE: case OPT_PALETTEFILE:
		return set_inferno(c, o, s, err, errlen);
	case OPT_MAXDEPTH:
		if (integer(s, &o->max_depth) < 0)
			return bad(err, errlen, "max-depth", s, "expected a positive integer");
		break;
	case OPT_THEME:
		if (strcmp(s, "auto") == 0)
			o->theme = THEME_AUTO;
		else if (strcmp(s, "light") == 0)
			o->theme = THEME_LIGHT;
		else if (strcmp(s, "dark") == 0)
			o->theme = THEME_DARK;
		else
			return bad(err, errlen, "theme", s, "expected auto, light or dark");
		break;
	case OPT_SORT:
		if (strcmp(s, "name") != 0 && strcmp(s, "weight") != 0)
			return bad(err, errlen, "sort", s, "expected name or weight");
		o->sort_weight = s[0] == 'w';
		break;
	case OPT_ENCODING:
		if (!valid_encoding(s))
			return bad(err, errlen, "encoding", s, "expected an encoding name such as UTF-8");
		o->encoding = s;
		break;
	default: return set_number(c, o, s, err, errlen);
	}
	return 0;
}

static int set_flag(int c, struct fg_opts *o)
{
	switch (c) {
	case 'H': o->hash = 1; break;
	case 'R': o->random = 1; break;
	case 'C': o->cp = 1; break;
	case 'r': o->reverse = 1; break;
	case 'i': o->inverted = 1; break;
	case 'F': o->flamechart = 1; break;
	case 'n': o->negate = 1; break;
	case 'h': o->help = 1; break;
	case 'V': o->version = 1; break;
	/* Colours and truncation already are deterministic and on the right;
	 * the output is one element a line and sorted input stays sorted. */
	case 'D': o->random = 0; break;
	case 'T': case 'P': case 'S': break;
	case 'c': o->colordiffusion = 1; break;
	case 'J': o->no_js = 1; break;
	default: return -1;
	}
	return 0;
}

/* Background by palette, as flamegraph.pl picks it when --bgcolors is unset. */
static void default_background(struct fg_opts *o)
{
	const char *name = "yellow";
	char err[8];

	if (o->colors == PAL_MEM)
		name = "green";
	else if (o->colors == PAL_IO || o->colors == PAL_WAKEUP || o->colors == PAL_CHAIN)
		name = "blue";
	else if (o->colors >= PAL_RED)
		name = "grey";
	set_bgcolors(o, name, err, sizeof(err));
}

/* The option a name or prefix means among longopts[0..n): an exact
 * name, else the only option it is a prefix of; -1 when none or several. */
static int lookup(const char *name, size_t len, size_t n)
{
	size_t i;
	int found = -1;

	for (i = 0; i < n; i++) {
		if (strncmp(longopts[i].name, name, len) != 0)
			continue;
		if (longopts[i].name[len] == '\0')
			return (int)i;
		found = found == -1 ? (int)i : -2;
	}
	return found < 0 ? -1 : found;
}

/* Rewrites each prefix of one of flamegraph.pl's own options to its full
 * name, so that "--color" or "--b" mean what they mean to flamegraph.pl
 * although flame's additions (--colordiffusion, --base) share them.  The
 * new strings live in o (optarg may point into them); what does not fit
 * is left for getopt to call ambiguous. */
static void expand(struct fg_opts *o, int argc, char **argv)
{
	size_t used = 0;
	size_t orig = (size_t)lookup("compact", 7, sizeof(longopts) / sizeof(longopts[0]) - 1);
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i], *name = a + (a[1] == '-' ? 2 : 1), *eq;
		size_t len;
		int k;

		if (a[0] != '-' || a[1] == '\0')
			continue;
		eq = strchr(name, '=');
		len = eq ? (size_t)(eq - name) : strlen(name);
		k = lookup(name, len, sizeof(longopts) / sizeof(longopts[0]) - 1);
		if (k >= 0 && (size_t)k >= orig && longopts[k].name[len] == '\0') {
			i += longopts[k].has_arg == required_argument && !eq;
			continue;	/* one of flame's own, by its full name */
		}
		if (k < 0 || (size_t)k >= orig)
			k = lookup(name, len, orig);
		if (k < 0)
			continue;
		if (longopts[k].name[len] != '\0') {
			size_t n = strlen(longopts[k].name) + (eq ? strlen(eq) : 0) + 3;

			if (n <= sizeof(o->argbuf) - used) {
				snprintf(o->argbuf + used, n, "--%s%s", longopts[k].name, eq ? eq : "");
				argv[i] = o->argbuf + used;
				used += n;
			}
		}
		if (longopts[k].has_arg == required_argument && !eq)
			i++;	/* its value, whatever it looks like */
	}
}

int fgopt_parse(struct fg_opts *o, int argc, char **argv, int *first,
		char *err, size_t errlen)
{
	int c;

	expand(o, argc, argv);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long_only(argc, argv, ":o:h", longopts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			const char *arg = argv[optind - 1];

			snprintf(err, errlen, c == ':' ? "option '%s' needs a value"
				 : "unknown or ambiguous option '%s'", arg);
			return -1;
		}
		if (c == 'o')
			o->output = optarg;
		else if (c >= OPT_TITLE) {
			if (set_string(c, o, optarg, err, errlen) < 0)
				return -1;
		} else if (set_flag(c, o) < 0) {
			snprintf(err, errlen, "unknown option");
			return -1;
		}
	}
	if (!o->bg1)
		default_background(o);
	*first = optind;
	return 0;
}

void fgopt_usage(FILE *f, const char *prog)
{
	fprintf(f,
"Usage: %s [options] [FILE...] > graph.svg\n"
"Renders collapsed stacks (\"frame;frame;leaf COUNT\", or two counts for a\n"
"differential graph) as an interactive SVG flame graph.  With no FILE, or\n"
"when FILE is -, reads stdin; several files are merged; .gz is inflated.\n"
"\n", prog);
	fgopt_options(f);
	fprintf(f,
"  -h, --help         this text\n"
"  --version          the version\n"
"\n"
"Colours derive from the function name, so a function keeps its colour\n"
"across graphs.  Exit status: 0 graph written, 1 I/O error, 2 usage error\n"
"or no valid input (an SVG saying so is still written).\n");
}

void fgopt_options(FILE *f)
{
	fputs(
"  -o, --output FILE  write the SVG to FILE (atomically) instead of stdout\n"
"  --title TEXT       title (default \"Flame Graph\")\n"
"  --subtitle TEXT    second title line\n"
"  --width NUM        image width in pixels (default 1200)\n"
"  --height NUM       frame height in pixels (default 16)\n"
"  --minwidth NUM     omit frames narrower than NUM pixels, or NUM% of the\n"
"                     total when NUM ends in % (default 0.1)\n"
"  --fonttype FONT    font family (default \"Verdana\")\n"
"  --fontsize NUM     font size (default 12)\n"
"  --fontwidth NUM    average glyph width relative to the size (default 0.59)\n"
"  --countname TEXT   what counts are (default \"samples\")\n"
"  --nametype TEXT    label of the details line (default \"Function:\")\n"
"  --colors PALETTE   hot (default), mem, io, wakeup, chain, java, js, perl,\n"
"                     red, green, blue, aqua, yellow, purple, orange\n"
"  --bgcolors COLOR   yellow, blue, green, grey, or #rrggbb\n"
"  --hash             colours from flamegraph.pl's name hash\n"
"  --random           random colours (output differs run to run)\n"
"  --cp               consistent colours, kept in ./palette.map\n"
"  --reverse          reverse each stack (merge from the leaf end)\n"
"  --inverted         icicle graph (root at the top)\n"
"  --flamechart       keep input order and do not merge stacks (time order)\n"
"  --negate           swap the differential hues (blue grew, red shrank)\n"
"  --notes TEXT       a comment embedded in the SVG\n"
"  --total NUM        the 100% total, when larger than the input's\n"
"  --factor NUM       multiply counts by NUM in the labels\n"
"  --nameattr FILE    per-function attributes: NAME<TAB>attr=value<TAB>...\n"
"  --encoding NAME    encoding named in the XML declaration\n"
"  --sort ORDER       name (default: alphabetical, as flamegraph.pl) or\n"
"                     weight (the widest child first)\n"
"  --max-depth N      keep N frames of a deeper stack, then a [truncated] frame\n"
"  --theme THEME      auto (default: dark when the reader's system is), light\n"
"                     or dark\n"
"inferno-flamegraph's options:\n"
"  --search-color C   search highlight, #rrggbb or rgb(R,G,B)\n"
"  --stroke-color C   outline every frame in C (default none)\n"
"  --colordiffusion   colour frames by width: wide ones redder\n"
"  --base NAME        only stacks through NAME, cut to start there (repeatable)\n"
"  --palette-file F   --cp with the map kept in F\n"
"  --no-javascript    a static picture, no viewer script\n"
"  --deterministic, --truncate-text-right, --pretty-xml, --no-sort\n"
"                     accepted: flame already behaves so\n"
"  --compact WHEN     auto (default: above 10000 frames), always or never:\n"
"                     draw frames as a few paths with their data kept once,\n"
"                     so huge graphs stay fast in a browser\n", f);
}
