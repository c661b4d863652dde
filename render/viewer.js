/* flame viewer: hover for details, click to zoom, Ctrl-F / F3 to search.
 * Settings come from data-* attributes on the root element; frames are the
 * children of #frames, each with a <title>, a <rect> and maybe a <text>. */
"use strict";
/* The graph being handled: every handler sets it first, so several graphs
 * inline in one HTML page keep their own state.  fg_graphs: all of them,
 * set up once however many copies of this script the page holds. */
var fg = null;
var fg_graphs = fg_graphs || null;
var fg_active = fg_active || null;

function fg_attr(name, fallback) {
	var v = fg.svg.getAttribute("data-" + name);
	return v === null ? fallback : v;
}

/* The frame name is the title without its " (N samples, P%...)" tail. */
function fg_name_of(title) {
	var tail = " " + fg.countname + ", ";
	var i = title.lastIndexOf(" (");
	while (i >= 0) {
		var rest = title.substring(i + 2);
		var m = /^[-0-9,.]+/.exec(rest);
		if (m && rest.substr(m[0].length, tail.length) === tail)
			return title.substring(0, i);
		i = i > 0 ? title.lastIndexOf(" (", i - 1) : -1;
	}
	return title;
}

/* An element of this graph by id: ids repeat when graphs share a page. */
function fg_el(id) {
	return fg.svg.querySelector('[id="' + id + '"]');
}

function fg_collect() {
	var kids = fg_el("frames").children;
	for (var i = 0; i < kids.length; i++) {
		var el = kids[i];
		var rect = el.querySelector("rect");
		var title = el.querySelector("title");
		if (!rect || !title)
			continue;
		var text = el.querySelector("text");
		var f = {
			el: el, rect: rect, text: text,
			title: title.textContent,
			x: parseFloat(rect.getAttribute("x")),
			w: parseFloat(rect.getAttribute("width")),
			y: parseFloat(rect.getAttribute("y")),
			h: parseFloat(rect.getAttribute("height")),
			x0: rect.getAttribute("x"),
			w0: rect.getAttribute("width"),
			y0: rect.getAttribute("y"),
			fill0: rect.getAttribute("fill"),
			label0: text ? text.textContent : ""
		};
		f.name = fg_name_of(f.title);
		f.chars = Array.from(f.name);
		el.fg = f;
		fg.frames.push(f);
		if (!fg.root || f.w > fg.root.w)
			fg.root = f;
	}
}

/* Label text that fits w pixels, the way the SVG was written. */
function fg_fit(f, w) {
	var room = Math.floor(w / (fg.fontsize * fg.fontwidth));
	if (room < 3 || f.chars.length === 0 || f === fg.root)
		return "";
	if (f.chars.length <= room)
		return f.name;
	return f.chars.slice(0, room - 2).join("") + "..";
}

function fg_place(f, x, w) {
	f.rect.setAttribute("x", x.toFixed(1));
	f.rect.setAttribute("width", w.toFixed(1));
	var label = fg_fit(f, w);
	if (!f.text) {
		if (label === "")
			return;
		f.text = document.createElementNS("http://www.w3.org/2000/svg", "text");
		f.text.setAttribute("y", String(f.y + f.h / 2 + 3));
		f.el.appendChild(f.text);
	}
	f.text.setAttribute("x", (x + 3).toFixed(2));
	f.text.textContent = label;
}

function fg_restore(f) {
	f.rect.setAttribute("x", f.x0);
	f.rect.setAttribute("width", f.w0);
	if (f.text) {
		f.text.setAttribute("x", (f.x + 3).toFixed(2));
		f.text.textContent = f.label0;
	}
	f.el.classList.remove("fg-dim", "fg-hidden");
}

function fg_params() {
	var out = {};
	var parts = window.location.search.substring(1).split("&");
	for (var i = 0; i < parts.length; i++) {
		var eq = parts[i].indexOf("=");
		if (eq <= 0)
			continue;
		try {
			var key = parts[i].substring(0, eq);
			/* The second graph on a page keeps s2, x2, ...: its own. */
			if (fg.pfx === "" || key.substring(key.length - fg.pfx.length) === fg.pfx)
				out[key.substring(0, key.length - fg.pfx.length)] = decodeURIComponent(parts[i].substring(eq + 1));
		} catch (e) {
			/* a malformed escape: ignore that parameter */
		}
	}
	return out;
}

function fg_set_params(changes) {
	var p = {}, parts = window.location.search.substring(1).split("&");
	for (var i = 0; i < parts.length; i++) {
		var eq = parts[i].indexOf("=");
		if (eq > 0)
			p[parts[i].substring(0, eq)] = parts[i].substring(eq + 1);
	}
	for (var k in changes) {
		if (changes[k] === null)
			delete p[k + fg.pfx];
		else
			p[k + fg.pfx] = encodeURIComponent(changes[k]);
	}
	var q = [];
	for (var key in p)
		q.push(key + "=" + p[key]);
	var url = window.location.pathname + (q.length ? "?" + q.join("&") : "") + window.location.hash;
	try {
		history.replaceState(null, "", url);
	} catch (e) {
		/* some file: URLs refuse; the state just is not kept */
	}
}

function fg_unzoom() {
	if (fg.compact) {
		fg_c_zoom(0);
		return;
	}
	for (var i = 0; i < fg.frames.length; i++)
		fg_restore(fg.frames[i]);
	fg.zoomed = null;
	fg.unzoombtn.classList.add("fg-hidden");
	fg_set_params({ x: null, y: null });
	fg_update_matched();
}

function fg_zoom(z) {
	if (fg.compact) {
		fg_c_zoom(z);
		return;
	}
	if (z === fg.root || z.w >= fg.root.w - 0.05) {
		fg_unzoom();
		return;
	}
	var eps = 1e-6;
	var full = fg.width - 2 * fg.xpad;
	var scale = full / z.w;
	for (var i = 0; i < fg.frames.length; i++) {
		var f = fg.frames[i];
		var above = fg.inverted ? f.y < z.y : f.y > z.y;
		f.el.classList.remove("fg-dim", "fg-hidden");
		if (above && f.x <= z.x + eps && f.x + f.w >= z.x + z.w - eps) {
			f.el.classList.add("fg-dim");
			fg_place(f, fg.xpad, full);
		} else if (!above && f.x >= z.x - eps && f.x + f.w <= z.x + z.w + eps) {
			fg_place(f, fg.xpad + (f.x - z.x) * scale, f.w * scale);
		} else {
			f.el.classList.add("fg-hidden");
		}
	}
	fg.zoomed = z;
	fg.unzoombtn.classList.remove("fg-hidden");
	fg_set_params({ x: z.x0, y: z.y0 });
	fg_update_matched();
}

/* Matched %: the share of the samples under at least one matching frame
 * (nested matches counted once), of the zoomed frame and of everything. */
function fg_update_matched() {
	if (fg.regex === null)
		return;
	if (fg.compact) {
		fg_show_matched(fg_c_matched(fg.zoomed), fg_c_matched(null));
		return;
	}
	fg_show_matched(fg_matched(fg.zoomed || fg.root), fg_matched(fg.root));
}

function fg_matched(base) {
	var lo = base.x, hi = base.x + base.w;
	var spans = [];
	for (var i = 0; i < fg.frames.length; i++) {
		var f = fg.frames[i];
		if (!f.match)
			continue;
		var a = Math.max(f.x, lo), b = Math.min(f.x + f.w, hi);
		if (b > a)
			spans.push([a, b]);
	}
	spans.sort(function (p, q) { return p[0] - q[0]; });
	var covered = 0, end = -Infinity;
	for (var j = 0; j < spans.length; j++) {
		var s = Math.max(spans[j][0], end);
		if (spans[j][1] > s)
			covered += spans[j][1] - s;
		end = Math.max(end, spans[j][1]);
	}
	return hi > lo ? 100 * covered / (hi - lo) : 0;
}

function fg_pct(p) {
	return (Math.abs(p - 100) < 1e-9 ? "100" : p.toFixed(1)) + "%";
}

function fg_show_matched(zoomed, all) {
	fg.matchedtxt.textContent = "Matched: " + (fg.zoomed ? fg_pct(zoomed) + " of zoomed, " +
		fg_pct(all) + " of all" : fg_pct(all));
}

/* Round half to even, as C's %.0f and rint do. */
function fg_rint(v) {
	var r = Math.round(v);
	if (Math.abs(v - Math.trunc(v)) === 0.5 && r % 2 !== 0)
		r -= 1;
	return r;
}

function fg_commify(v) {
	var s = String(Math.abs(fg_rint(v))), out = "";
	for (var i = 0; i < s.length; i++) {
		if (i > 0 && (s.length - i) % 3 === 0)
			out += ",";
		out += s.charAt(i);
	}
	return (fg_rint(v) < 0 ? "-" : "") + out;
}

/* The details line: the frame's title "NAME (N samples, P%)" with the
 * share of the zoomed frame (share, or null) and the frame's own samples
 * (self, or null) put in.  Other titles (differential, --nameattr) are
 * shown as they are. */
function fg_describe(title, self, share) {
	var m = /^([^]*) \(([-0-9,.]+) ([^]*), ([0-9.]+)%\)$/.exec(title);
	if (!m || m[3] !== fg.countname)
		return fg.nametype + " " + title;
	return fg.nametype + " " + m[1] + " (" + m[2] + " " + m[3] + ", " + m[4] + "%" +
		(share === null ? "" : " of all, " + share.toFixed(2) + "% of zoomed") +
		(self === null ? "" : "; self " + fg_commify(self) + " " + m[3]) + ")";
}

/* A classic frame's count, read back from its title. */
function fg_count(f) {
	var m = / \(([-0-9,.]+) /.exec(f.title.substring(f.name.length));
	return m ? parseFloat(m[1].replace(/,/g, "")) : NaN;
}

/* Samples of f not in a child: its count less its children's, the
 * frames one level further from the root within its span. */
function fg_self(f) {
	var eps = 0.05, step = fg.inverted ? f.h + 1 : -(f.h + 1), self = fg_count(f);
	for (var i = 0; i < fg.frames.length; i++) {
		var k = fg.frames[i];
		if (Math.abs(k.y - (f.y + step)) < eps && k.x >= f.x - eps && k.x + k.w <= f.x + f.w + eps)
			self -= fg_count(k);
	}
	return isNaN(self) ? null : self;
}

function fg_clear_search(quiet) {
	if (fg.compact)
		fg.c.match = null;
	for (var i = 0; i < fg.frames.length; i++) {
		var f = fg.frames[i];
		if (f.match)
			f.rect.setAttribute("fill", f.fill0);
		f.match = false;
	}
	fg.regex = null;
	fg.term = null;
	fg.searchbtn.textContent = "Search";
	fg.searchbtn.classList.remove("fg-on");
	fg.matchedtxt.textContent = " ";
	fg_set_params({ s: null });
	if (fg.compact && !quiet)
		fg_c_draw();
}

function fg_search(term) {
	fg_clear_search(true);
	if (term !== null && term !== "")
		fg_search_run(term);
	if (fg.compact)
		fg_c_draw();
}

function fg_search_run(term) {
	var re;
	try {
		re = new RegExp(term, fg.ignorecase ? "i" : "");
	} catch (e) {
		fg.matchedtxt.textContent = "Invalid regular expression";
		return;
	}
	fg.term = term;
	fg.regex = re;
	if (fg.compact)
		fg_c_search(re);
	for (var i = 0; i < fg.frames.length; i++) {
		var f = fg.frames[i];
		f.match = f !== fg.root && re.test(f.name);
		if (f.match)
			f.rect.setAttribute("fill", fg.searchcolor);
	}
	fg.searchbtn.textContent = "Reset Search";
	fg.searchbtn.classList.add("fg-on");
	fg_set_params({ s: term });
	fg_update_matched();
}

function fg_prompt() {
	var q = "Search frames by regular expression" +
		(fg.ignorecase ? " (ignoring case)" : "") + ", e.g. ^ext4_ (Ctrl-I toggles case)";
	var term = window.prompt(q, fg.term || "");
	if (term !== null)
		fg_search(term);
}

function fg_toggle_case() {
	fg.ignorecase = !fg.ignorecase;
	fg.icbtn.classList.toggle("fg-on", fg.ignorecase);
	fg_set_params({ ic: fg.ignorecase ? "1" : null });
	if (fg.term !== null)
		fg_search(fg.term);
}

function fg_frame_of(node) {
	while (node && node.parentNode) {
		if (node.parentNode.id === "frames")
			return node.fg || null;
		node = node.parentNode;
	}
	return null;
}

function fg_on_click(e) {
	if (fg.compact && e.target.classList && !e.target.classList.contains("fg-button")) {
		var i = fg_c_target(e);
		if (i >= 0) {
			e.preventDefault();
			fg_zoom(i);
		}
		return;
	}
	var f = fg_frame_of(e.target);
	if (f) {
		/* A linked frame (--nameattr href) follows its link; Ctrl zooms. */
		if (f.el && f.el.nodeName === "a" && !e.ctrlKey)
			return;
		e.preventDefault();
		fg_zoom(f);
		return;
	}
	var id = e.target.id;
	if (id === "unzoom")
		fg_unzoom();
	else if (id === "search")
		fg.term !== null ? fg_clear_search() : fg_prompt();
	else if (id === "ignorecase")
		fg_toggle_case();
}

function fg_on_key(e) {
	if (e.key === "F3" || ((e.ctrlKey || e.metaKey) && (e.key === "f" || e.key === "F"))) {
		e.preventDefault();
		fg_prompt();
	} else if ((e.ctrlKey || e.metaKey) && (e.key === "i" || e.key === "I")) {
		e.preventDefault();
		fg_toggle_case();
	} else if (e.key === "Escape") {
		if (fg.term !== null)
			fg_clear_search();
		else if (fg.zoomed)
			fg_unzoom();
	}
}

function fg_hover(e, on) {
	var f = fg_frame_of(e.target);
	if (!f)
		return;
	var z = fg.zoomed, inside = z && !f.el.classList.contains("fg-dim");
	fg.details.textContent = on ? fg_describe(f.title, fg_self(f),
		inside ? 100 * fg_count(f) / fg_count(z) : null) : " ";
}

/* The graph an event happened in. */
function fg_graph_of(node) {
	for (; node; node = node.parentNode)
		if (node.fg_graph)
			return node.fg_graph;
	return null;
}

function fg_init() {
	if (fg_graphs !== null)
		return;
	fg_graphs = [];
	var roots = document.querySelectorAll("svg[data-xpad]");
	for (var i = 0; i < roots.length; i++)
		fg_start(roots[i], i === 0 ? "" : String(i + 1));
	fg_active = fg_graphs[0] || null;
	window.addEventListener("click", function (e) {
		var g = fg_graph_of(e.target);
		if (g) {
			fg = fg_active = g;
			fg_on_click(e);
		}
	});
	window.addEventListener("keydown", function (e) {
		if (fg_active) {
			fg = fg_active;
			fg_on_key(e);
		}
	});
	/* A tall flame graph stands on its base: open scrolled down to it. */
	var top = document.documentElement;
	if (fg_graphs.length === 1 && top.fg_graph && !top.fg_graph.inverted && top.getBoundingClientRect().height > window.innerHeight)
		window.scrollTo(0, top.getBoundingClientRect().height);
}

function fg_start(svg, pfx) {
	fg = { svg: svg, pfx: pfx };
	fg.xpad = parseFloat(fg_attr("xpad", "10"));
	fg.fontsize = parseFloat(fg_attr("fontsize", "12"));
	fg.fontwidth = parseFloat(fg_attr("fontwidth", "0.59"));
	fg.inverted = fg_attr("inverted", "0") === "1";
	fg.nametype = fg_attr("nametype", "Function:");
	fg.countname = fg_attr("countname", "samples");
	fg.searchcolor = fg_attr("searchcolor", "rgb(230,0,230)");
	fg.width = parseFloat(svg.getAttribute("width"));
	fg.frames = [];
	fg.root = fg.zoomed = fg.term = fg.regex = null;
	fg.ignorecase = false;
	fg.details = fg_el("details");
	fg.matchedtxt = fg_el("matched");
	fg.unzoombtn = fg_el("unzoom");
	fg.searchbtn = fg_el("search");
	fg.icbtn = fg_el("ignorecase");
	var g = fg, data = fg_el("fg-data");
	if (data) {
		fg_c_init(data);
	} else {
		fg_collect();
		if (!fg.root)
			return;
		var frames = fg_el("frames");
		frames.addEventListener("mouseover", function (e) { fg = fg_active = g; fg_hover(e, true); });
		frames.addEventListener("mouseout", function (e) { fg = g; fg_hover(e, false); });
	}
	svg.fg_graph = fg;
	fg_graphs.push(fg);
	var p = fg_params();
	if (fg.compact && p.x !== undefined && p.y !== undefined) {
		var z = fg_c_find(parseFloat(p.x), parseFloat(p.y));
		if (z > 0)
			fg_zoom(z);
	} else if (p.x !== undefined && p.y !== undefined) {
		for (var i = 0; i < fg.frames.length; i++) {
			var f = fg.frames[i];
			if (Math.abs(f.x - parseFloat(p.x)) < 0.05 && Math.abs(f.y - parseFloat(p.y)) < 0.05) {
				fg_zoom(f);
				break;
			}
		}
	}
	if (p.ic === "1")
		fg_toggle_case();
	if (p.s)
		fg_search(p.s);
}

window.addEventListener("load", fg_init);
