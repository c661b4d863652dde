/* options: flamegraph.pl's command line, parsed into struct fg_opts.
 * Long options take one or two dashes, "--opt=value" or "--opt value",
 * and any unambiguous prefix, as Getopt::Long does. */
#ifndef FLAME_OPTIONS_H
#define FLAME_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

enum fg_palette {
	PAL_HOT, PAL_MEM, PAL_IO, PAL_WAKEUP, PAL_CHAIN, PAL_JAVA, PAL_JS,
	PAL_PERL, PAL_RED, PAL_GREEN, PAL_BLUE, PAL_AQUA, PAL_YELLOW,
	PAL_PURPLE, PAL_ORANGE
};

enum fg_theme { THEME_AUTO, THEME_LIGHT, THEME_DARK };

struct fg_opts {
	const char *title;	/* NULL: "Flame Graph", "Icicle Graph" or "Flame Chart" */
	const char *subtitle;	/* NULL: none */
	long width;		/* image width, px */
	long frameheight;	/* frame height, px (--height) */
	double fontsize;	/* px */
	double fontwidth;	/* average glyph width / fontsize */
	double minwidth;	/* omit narrower frames: px, or % of the total */
	int minwidth_pct;	/* minwidth is a percentage */
	const char *fonttype;	/* CSS font family */
	const char *countname;	/* "samples" */
	int countname_given;	/* --countname was given */
	const char *nametype;	/* "Function:" */
	enum fg_palette colors;	/* --colors */
	const char *bg1;	/* background gradient colours */
	const char *bg2;
	int hash;		/* colours from flamegraph.pl's name hash */
	int random;		/* random colours */
	int cp;			/* consistent palette via palette.map */
	int reverse;		/* reverse each stack */
	int inverted;		/* icicle graph */
	int flamechart;		/* input order, no merging */
	int negate;		/* swap differential hues */
	int diff_detail;	/* no flag: flame --diff sets it.  Stacks
				   gone from AFTER are drawn with their
				   BEFORE width, hatched; tooltips give each
				   frame's inclusive before/after/change */
	const char *notes;	/* comment text */
	double total;		/* --total, 0 when unset */
	double factor;		/* count multiplier for display */
	const char *nameattr;	/* attribute file */
	const char *encoding;	/* XML declaration encoding */
	const char *searchcolor;	/* --search-color, "rgb(R,G,B)" */
	const char *strokecolor;	/* --stroke-color: frame outlines, NULL: none */
	int no_js;		/* --no-javascript: a static picture */
	int colordiffusion;	/* --colordiffusion: colour by width */
	const char *base[16];	/* --base: stacks start at one of these */
	int nbase;		/* entries in base */
	const char *palette_file;	/* --palette-file: --cp's map, NULL: palette.map */
	char argbuf[1024];	/* storage for options expanded to full names */
	char scbuf[24];		/* storage for the search colour */
	char stbuf[24];		/* storage for the stroke colour */
	enum fg_theme theme;	/* --theme: auto follows prefers-color-scheme */
	long max_depth;		/* --max-depth: frames kept per stack, 0: all */
	int sort_weight;	/* --sort weight: widest children first */
	int compact;		/* --compact: -1 never, 0 auto (by frame
				   count), 1 always */
	const char *output;	/* -o FILE, NULL: stdout */
	int help;		/* --help given */
	int version;		/* --version given */
	char bgbuf[8];		/* storage for a "#rrggbb" background */
};

/* Sets the defaults of flamegraph.pl. */
void fgopt_init(struct fg_opts *o);

/* Parses argv into o; on return argv[*first..argc) are the input files.
 * Returns 0, or -1 with a message in err (usage error). */
int fgopt_parse(struct fg_opts *o, int argc, char **argv, int *first,
		char *err, size_t errlen);

/* Writes the --help text. */
void fgopt_usage(FILE *f, const char *prog);

/* Writes only the option list (for tools that accept these options). */
void fgopt_options(FILE *f);

#endif
