/* draw: what the classic and the compact SVG forms both draw a frame
 * with (see draw.h). */
#include "draw.h"
#include "numfmt.h"
#include "palette.h"
#include "xmlesc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FRAMEPAD 1		/* vertical gap between frames */

const char *draw_num(char *buf, double v)
{
	numfmt_g15(buf, v);
	return buf;
}

void draw_commify(char *buf, size_t size, double n)
{
	char digits[NUMFMT_MAX];
	size_t len, i, o = 0, lead;
	int neg;

	numfmt_fixed(digits, n, 0);
	neg = digits[0] == '-';
	len = strlen(digits + neg);
	lead = len % 3 ? len % 3 : 3;
	if (neg && o + 1 < size)
		buf[o++] = '-';
	for (i = 0; i < len && o + 2 < size; i++) {
		if (i >= lead && (i - lead) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[neg + i];
	}
	buf[o] = '\0';
}

size_t draw_strip(const char *s, size_t n)
{
	if (n >= 4 && s[n - 4] == '_' && s[n - 3] == '[' && s[n - 1] == ']' &&
	    strchr("kwij", s[n - 2]) && s[n - 2])
		return n - 4;
	return n;
}

/* --colordiffusion: the wider a frame, the redder; narrow ones pale.  In
 * 32 steps of the square root of its share, so a few colours serve. */
static void diffusion(const struct svg_in *in, const struct frame *fr, char *out)
{
	double end = fr->depth == 0 ? in->timemax : fr->end;
	double v = floor(32 * sqrt((end - fr->start) / in->timemax)) / 32;

	sprintf(out, "rgb(%d,%d,%d)", 255 - (int)(25 * v), (int)(230 - 200 * v), (int)(200 - 190 * v));
}

void draw_fill(const struct svg_in *in, const struct frame *fr, char *out)
{
	if (fr->len == 2 && memcmp(fr->name, "--", 2) == 0)
		strcpy(out, "rgb(160,160,160)");
	else if (fr->len == 1 && fr->name[0] == '-')
		strcpy(out, "rgb(200,200,200)");
	else if (fr->has_delta && in->o->diff_detail && fr->after == 0 && fr->before > 0)
		strcpy(out, "url(#" DRAW_GONE_ID ")");
	else if (fr->has_delta)
		palette_diff(fr->delta, in->maxdelta, in->o->negate, out);
	else if (in->o->colordiffusion)
		diffusion(in, fr, out);
	else
		palette_color(in->pal, fr->name, fr->len, out);
}

void draw_label(FILE *f, const struct svg_in *in, const struct frame *fr, double x1,
		double x2, double ty)
{
	const struct fg_opts *o = in->o;
	double room = (x2 - x1) / (o->fontsize * o->fontwidth);
	size_t chars = room >= 1e9 ? (size_t)1e9 : (size_t)room;
	size_t n = draw_strip(fr->name, fr->len), have;
	char yb[32], xb[NUMFMT_MAX];

	if (chars < 3 || n == 0)
		return;
	have = xmlesc_count(fr->name, n);
	numfmt_fixed(xb, x1 + 3, 2);
	fprintf(f, "<text x=\"%s\" y=\"%s\">", xb, draw_num(yb, ty));
	if (have <= chars) {
		xmlesc_write(f, fr->name, n, (size_t)-1);
	} else {
		xmlesc_write(f, fr->name, n, chars - 2);
		fputs("..", f);
	}
	fputs("</text>", f);
}

void draw_frame_y(const struct fg_opts *o, unsigned depth, double height, double *y1, double *y2)
{
	double fh = (double)o->frameheight, ypad1 = o->fontsize * 3, ypad2 = o->fontsize * 2 + 10;

	if (!o->inverted) {
		*y1 = height - ypad2 - (depth + 1) * fh + FRAMEPAD;
		*y2 = height - ypad2 - depth * fh;
	} else {
		*y1 = ypad1 + depth * fh;
		*y2 = ypad1 + (depth + 1) * fh - FRAMEPAD;
	}
}

