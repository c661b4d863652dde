/* flame viewer, compact form (render/compact.h): loaded after viewer.js
 * in graphs written compactly; viewer.js calls fg_c_* when fg.compact. */
"use strict";

/* Tells the style sheet that script runs before the frames are parsed, so
 * the static drawing is hidden and never painted. */
document.documentElement.classList.add("fg-js");

/* The compact form (render/compact.h): frames are data, not elements.
 * fg.c holds them as arrays in preorder (parents before children), so a
 * frame's descendants are the run from it to end[i]: zoom, search and
 * hit-testing walk only what is visible, skipping whole subtrees too
 * narrow to draw. */
var FG_SVGNS = "http://www.w3.org/2000/svg";
var FG_MINPX = 0.05;	/* narrower frames are not drawn (compact.c: a tenth, rounded) */

function fg_c_numbers(line, n, out) {
	var parts = line.split(",");
	for (var i = 0; i < n; i++)
		out[i] = +parts[i];
	return out;
}

function fg_c_parse(el) {
	var lines = el.textContent.split("\n");
	var nn = parseInt(el.getAttribute("data-names"), 10);
	var n = parseInt(el.getAttribute("data-frames"), 10);
	/* lines[0] is the empty rest of the start tag's line. */
	var c = {
		n: n, names: lines.slice(1, nn + 1), chars: [],
		depth: fg_c_numbers(lines[nn + 1], n, new Int32Array(n)),
		name: fg_c_numbers(lines[nn + 2], n, new Int32Array(n)),
		w: fg_c_numbers(lines[nn + 3], n, new Float64Array(n)),
		col: fg_c_numbers(lines[nn + 4], n, new Int32Array(n)),
		colors: lines[nn + 6].split(" "),
		start: new Float64Array(n), end: new Int32Array(n), parent: new Int32Array(n),
		match: null, depthmax: 0
	};
	var gaps = {};
	if (lines[nn + 5] !== "") {
		var g = lines[nn + 5].split(",");
		for (var k = 0; k < g.length; k++) {
			var colon = g[k].indexOf(":");
			gaps[g[k].substring(0, colon)] = +g[k].substring(colon + 1);
		}
	}
	fg_c_link(c, gaps);
	return c;
}

/* Starts (from widths and gaps, as compact.c's gaps() expects), parents
 * and subtree ends. */
function fg_c_link(c, gaps) {
	var next = [0], open = [];
	for (var i = 0; i < c.n; i++) {
		var d = c.depth[i];
		var st = next[d] === undefined ? 0 : next[d];
		if (gaps[i] !== undefined)
			st += gaps[i];
		c.start[i] = st;
		next[d + 1] = st;
		next[d] = st + c.w[i];
		while (open.length && c.depth[open[open.length - 1]] >= d)
			c.end[open.pop()] = i;
		c.parent[i] = open.length ? open[open.length - 1] : -1;
		open.push(i);
		if (d > c.depthmax)
			c.depthmax = d;
	}
	while (open.length)
		c.end[open.pop()] = c.n;
}

function fg_c_el(parent, name, attrs) {
	var el = document.createElementNS(FG_SVGNS, name);
	for (var k in attrs)
		el.setAttribute(k, attrs[k]);
	parent.appendChild(el);
	return el;
}

function fg_c_init(data) {
	var root = fg.svg, g = fg;
	var c = fg_c_parse(data);
	var frames = fg_el("frames");
	c.static = fg_el("fg-static");
	c.labels = fg_el("fg-labels");
	c.height = parseFloat(root.getAttribute("height"));
	c.fh = parseFloat(fg_attr("frameheight", "16"));
	c.timemax = parseFloat(fg_attr("timemax", "1"));
	c.factor = parseFloat(fg_attr("factor", "1"));
	c.fractional = fg_attr("fractional", "0") === "1";
	c.full = fg.width - 2 * fg.xpad;
	/* With script the frames are painted on a canvas: the static paths
	 * (hidden by the fg-js class from the start, so never painted) cost
	 * a browser seconds to rasterise at this size. */
	var fo = document.createElementNS(FG_SVGNS, "foreignObject");
	fo.setAttribute("width", String(fg.width));
	fo.setAttribute("height", String(c.height));
	/* Events go through to the controls below; frames are hit-tested. */
	fo.setAttribute("pointer-events", "none");
	var canvas = document.createElementNS("http://www.w3.org/1999/xhtml", "canvas");
	var dpr = window.devicePixelRatio || 1;
	canvas.width = Math.ceil(fg.width * dpr);
	canvas.height = Math.ceil(c.height * dpr);
	canvas.style.width = fg.width + "px";
	canvas.style.height = c.height + "px";
	canvas.style.display = "block";
	canvas.style.pointerEvents = "none";
	/* A layer of its own: repainting it must not repaint the labels. */
	canvas.style.willChange = "transform";
	fo.appendChild(canvas);
	frames.insertBefore(fo, c.static.nextSibling);
	c.ctx = canvas.getContext("2d");
	c.dpr = dpr;
	c.cw = canvas.width;
	c.img = c.ctx.createImageData(canvas.width, canvas.height);
	c.px = new Uint32Array(c.img.data.buffer);
	c.pix = c.colors.map(function (s) { return fg_c_pixel(s, 255); });
	c.hitpx = fg_c_pixel(fg.searchcolor, 255);
	c.livelabels = fg_c_el(frames, "g", {});
	c.pool = [];
	c.hover = fg_c_el(frames, "rect", { "class": "fg-hover", fill: "none", stroke: "rgb(0,0,0)",
		"stroke-width": "0.5", "pointer-events": "none", rx: "2", ry: "2", visibility: "hidden" });
	fg.c = c;
	fg.compact = true;
	fg.zoomed = null;
	fg_c_draw();
	root.addEventListener("mousemove", function (e) { fg = fg_active = g; fg_c_on_move(e); });
	root.addEventListener("mouseleave", function () { fg = g; fg_c_show_hover(-1); });
}

/* Top of the frames at depth d, as svg_frame_y places them. */
function fg_c_y(d) {
	var c = fg.c;
	if (fg.inverted)
		return fg.fontsize * 3 + d * c.fh;
	return c.height - (fg.fontsize * 2 + 10) - (d + 1) * c.fh + 1;
}

/* The frame drawn under (px, py) in the current view, or -1. */
function fg_c_hit(px, py) {
	var c = fg.c, z = fg.zoomed === null ? 0 : fg.zoomed;
	var d = fg.inverted ? Math.floor((py - fg.fontsize * 3) / c.fh)
		: Math.floor((c.height - (fg.fontsize * 2 + 10) - py) / c.fh);
	if (d < 0 || d > c.depthmax || px < fg.xpad || px > fg.xpad + c.full)
		return -1;
	var cur = z;
	if (d < c.depth[z]) {
		while (c.depth[cur] > d)
			cur = c.parent[cur];
		return cur;
	}
	var t = c.start[z] + (px - fg.xpad) * c.w[z] / c.full;
	while (c.depth[cur] < d) {
		var j = cur + 1, found = -1;
		while (j < c.end[cur]) {
			if (t >= c.start[j] && t < c.start[j] + c.w[j]) {
				found = j;
				break;
			}
			j = c.end[j];
		}
		if (found < 0)
			return -1;
		cur = found;
	}
	return cur;
}

function fg_c_point(e) {
	var svg = fg.svg;
	var m = svg.getScreenCTM();
	var pt = svg.createSVGPoint();
	pt.x = e.clientX;
	pt.y = e.clientY;
	return m ? pt.matrixTransform(m.inverse()) : pt;
}

function fg_c_target(e) {
	var p = fg_c_point(e);
	return fg_c_hit(p.x, p.y);
}

/* The title the classic form would give frame i (svg.c: title()). */
function fg_c_title(i) {
	var c = fg.c, all = c.timemax * c.factor;
	if (i === 0)
		return "all (" + fg_commify(all) + " " + fg.countname + ", 100%)";
	var samples = c.w[i] * c.factor;
	var pct = 100 * (c.fractional ? samples : fg_rint(samples)) / all;
	return c.names[c.name[i]] + " (" + fg_commify(samples) + " " + fg.countname + ", " +
		Math.min(pct, 100).toFixed(2) + "%)";
}

/* Geometry of frame i in the current view (px). */
function fg_c_box(i) {
	var c = fg.c, z = fg.zoomed === null ? 0 : fg.zoomed;
	var y = fg_c_y(c.depth[i]);
	if (c.depth[i] < c.depth[z])
		return { x: fg.xpad, w: c.full, y: y };
	var scale = c.full / c.w[z];
	return { x: fg.xpad + (c.start[i] - c.start[z]) * scale, w: c.w[i] * scale, y: y };
}

function fg_c_show_hover(i) {
	var c = fg.c;
	if (i < 0) {
		c.hover.setAttribute("visibility", "hidden");
		fg.details.textContent = " ";
		return;
	}
	var b = fg_c_box(i);
	c.hover.setAttribute("x", b.x.toFixed(1));
	c.hover.setAttribute("y", String(b.y));
	c.hover.setAttribute("width", Math.max(b.w, 0.1).toFixed(1));
	c.hover.setAttribute("height", String(c.fh - 1));
	c.hover.setAttribute("visibility", "visible");
	var z = fg.zoomed, self = c.w[i];
	for (var k = i + 1; k < c.end[i]; k = c.end[k])
		self -= c.w[k];
	fg.details.textContent = fg_describe(fg_c_title(i), self * c.factor,
		z && c.depth[i] >= c.depth[z] ? 100 * c.w[i] / c.w[z] : null);
}

function fg_c_on_move(e) {
	var i = fg_c_target(e);
	if (i !== fg.c.hovered) {
		fg.c.hovered = i;
		fg_c_show_hover(i);
	}
}

/* The frame the classic form draws at x, y (its rect's attributes), as
 * ?x=&y= name it. */
function fg_c_find(x, y) {
	var c = fg.c, scale = c.full / c.w[0];
	for (var i = 0; i < c.n; i++) {
		if (Math.abs(fg_c_y(c.depth[i]) - y) < 0.05 &&
		    Math.abs(fg.xpad + c.start[i] * scale - x) < 0.05)
			return i;
	}
	return -1;
}

function fg_c_zoom(z) {
	var c = fg.c;
	if (z <= 0 || c.w[z] * c.full / c.w[0] >= c.full - 0.05) {
		fg.zoomed = null;
		fg.unzoombtn.classList.add("fg-hidden");
		fg_set_params({ x: null, y: null });
	} else {
		fg.zoomed = z;
		fg.unzoombtn.classList.remove("fg-hidden");
		fg_set_params({ x: (fg.xpad + c.start[z] * c.full / c.w[0]).toFixed(1), y: String(fg_c_y(c.depth[z])) });
	}
	fg_c_draw();
	fg_update_matched();
	c.hovered = -2;
}

function fg_c_search(re) {
	var c = fg.c;
	c.match = new Uint8Array(c.names.length);
	for (var k = 0; k < c.names.length; k++)
		c.match[k] = re.test(c.names[k]) ? 1 : 0;
}

function fg_c_matches(i) {
	return i !== 0 && fg.c.match !== null && fg.c.match[fg.c.name[i]] === 1;
}

/* Share (%) of the view's samples under a matching frame, nested matches
 * counted once; a matching ancestor of the zoomed frame covers it all. */
function fg_c_matched(zoomed) {
	var c = fg.c, z = zoomed === null ? 0 : zoomed, covered = 0;
	for (var a = z; a > 0; a = c.parent[a])
		if (fg_c_matches(a))
			return 100;
	for (var i = z + 1; i < c.end[z];) {
		if (fg_c_matches(i)) {
			covered += c.w[i];
			i = c.end[i];
		} else {
			i++;
		}
	}
	return c.w[z] > 0 ? 100 * covered / c.w[z] : 0;
}

function fg_c_label(i, w) {
	var c = fg.c, k = c.name[i];
	if (i === 0)
		return "";
	if (c.chars[k] === undefined)
		c.chars[k] = Array.from(c.names[k]);
	var ch = c.chars[k];
	var room = Math.floor(w / (fg.fontsize * fg.fontwidth));
	if (room < 3 || ch.length === 0)
		return "";
	if (ch.length <= room)
		return c.names[k];
	return ch.slice(0, room - 2).join("") + "..";
}

/* "rgb(R,G,B)" as a pixel of an ImageData's Uint32Array (little-endian
 * RGBA), with the given alpha. */
function fg_c_pixel(color, alpha) {
	var m = /(\d+)\D+(\d+)\D+(\d+)/.exec(color) || [0, 160, 160, 160];
	return ((alpha << 24) | (+m[3] << 16) | (+m[2] << 8) | +m[1]) >>> 0;
}

/* Paints frame i's box from x to x + w (px) into its band's top row; the
 * row is copied down the band afterwards.  A frame that covers no pixel
 * centre is not painted, unless it matches: a match always shows. */
function fg_c_fill(c, i, x, w, alpha) {
	var dpr = c.dpr, y = Math.round(fg_c_y(c.depth[i]) * dpr);
	var x0 = Math.round(x * dpr), x1 = Math.round((x + w) * dpr);
	var m = fg_c_matches(i);
	if (x1 <= x0) {
		if (!m)
			return;
		x1 = x0 + 1;
	} else if (x1 - x0 > 3) {
		x1--;	/* a gap between neighbours, as the classic form's rounded corners leave */
	}
	var pix = m ? c.hitpx : c.pix[c.col[i]];
	if (alpha !== 255)
		pix = ((pix & 0xffffff) | (alpha << 24)) >>> 0;
	c.px.fill(pix, y * c.cw + x0, y * c.cw + x1);
	c.bands[y] = 1;
}

/* Copies each used band's top row down the band, then shows the image. */
function fg_c_flush(c) {
	var rows = Math.round((c.fh - 1) * c.dpr);
	for (var y in c.bands) {
		var top = +y * c.cw;
		for (var r = 1; r < rows; r++)
			c.px.copyWithin(top + r * c.cw, top, top + c.cw);
	}
	c.ctx.putImageData(c.img, 0, 0);
}

/* Paints the view: every frame of the zoomed subtree (or the whole graph)
 * wide enough to see, matches in the search colour, and the zoomed
 * frame's ancestors dimmed at full width.  Pixels are written directly:
 * at this size a canvas's own rects or SVG paths take longer to paint
 * than the whole walk.  The static labels serve the unzoomed view;
 * zoomed, labels come from the pool. */
function fg_c_draw() {
	var c = fg.c, z = fg.zoomed === null ? 0 : fg.zoomed;
	var whole = z === 0, labels = [];
	var scale = c.full / c.w[z];
	c.labels.style.display = whole ? "" : "none";
	c.px.fill(0);
	c.bands = {};
	fg_c_walk(c, z, scale, whole ? null : labels);
	for (var a = whole ? -1 : c.parent[z]; a >= 0; a = c.parent[a]) {
		fg_c_fill(c, a, fg.xpad, c.full, 128);
		labels.push([a, fg.xpad, fg_c_y(c.depth[a]), c.full]);
	}
	fg_c_flush(c);
	fg_c_labels(labels, whole ? -1 : c.depth[z]);
}

/* fg_c_fill for every frame of z's subtree at full alpha, written out:
 * this loop is most of a search's or a zoom's time (a 200k-frame graph
 * visits nearly all of them), so what each frame needs is at hand. */
function fg_c_walk(c, z, scale, labels) {
	var dpr = c.dpr, cw = c.cw, px = c.px, w = c.w, start = c.start, end = c.end;
	var depth = c.depth, name = c.name, col = c.col, pix = c.pix, hit = c.hitpx;
	var match = c.match, bands = c.bands, minw = 3 * fg.fontsize * fg.fontwidth;
	var rows = [], xpad = fg.xpad, sz = start[z], stop = end[z];
	for (var d = 0; d <= c.depthmax; d++)
		rows.push(Math.round(fg_c_y(d) * dpr));
	for (var i = z; i < stop;) {
		var fw = w[i] * scale;
		if (fw < FG_MINPX) {
			i = end[i];
			continue;
		}
		var x = xpad + (start[i] - sz) * scale;
		var a = Math.round(x * dpr), b = Math.round((x + fw) * dpr);
		var m = match !== null && i !== 0 && match[name[i]] === 1;
		if (b <= a) {
			if (!m) {
				i++;
				continue;
			}
			b = a + 1;
		} else if (b - a > 3) {
			b--;
		}
		var y = rows[depth[i]], top = y * cw;
		px.fill(m ? hit : pix[col[i]], top + a, top + b);
		bands[y] = 1;
		if (labels !== null && fw >= minw)
			labels.push([i, x, fg_c_y(depth[i]), fw]);
		i++;
	}
}

/* Labels from a reused pool of <text> elements; ancestors' are dimmed. */
function fg_c_labels(list, zdepth) {
	var c = fg.c, used = 0;
	for (var k = 0; k < list.length; k++) {
		var i = list[k][0], text = fg_c_label(i, list[k][3]);
		if (text === "")
			continue;
		var el = c.pool[used];
		if (!el) {
			el = fg_c_el(c.livelabels, "text", {});
			c.pool.push(el);
		}
		el.setAttribute("x", (list[k][1] + 3).toFixed(2));
		el.setAttribute("y", String(list[k][2] + c.fh / 2 + 2.5));
		el.textContent = text;
		el.classList.toggle("fg-dim", c.depth[i] < zdepth);
		el.style.display = "";
		used++;
	}
	for (; used < c.pool.length; used++)
		c.pool[used].style.display = "none";
}
