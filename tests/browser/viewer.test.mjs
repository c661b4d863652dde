// Browser tests of the flame graph viewer in Debian's chromium, driven by
// playwright-core.  Usage: node viewer.test.mjs FLAMEGRAPH_BINARY INPUT_DIR
// Prints one "ok NAME" or "FAIL NAME: why" line per check, then
// "N passed, N failed".
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const [flamegraph, inputs] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), "flame-browser-"));
let passed = 0, failed = 0;

function check(name, cond, why = "") {
	if (cond) { passed++; console.log(`ok   ${name}`); }
	else { failed++; console.log(`FAIL ${name}${why ? ": " + why : ""}`); }
}
function near(a, b, tol) { return Math.abs(a - b) <= tol; }

// Reference values come from the folded input, not from the SVG.
function parseFolded(file) {
	return readFileSync(file, "utf8").split("\n").filter(l => l).map(l => {
		const m = /^(.*)\s(\d+(?:\.\d*)?)$/.exec(l);
		return { frames: m[1].split(";"), count: parseFloat(m[2]) };
	});
}
function samplesUnder(stacks, prefix) {
	return stacks.filter(s => prefix.every((f, i) => s.frames[i] === f))
		.reduce((a, s) => a + s.count, 0);
}
// Samples of stacks that end at prefix: the frame's self count.
function selfOf(stacks, prefix) {
	return stacks.filter(s => s.frames.length === prefix.length && prefix.every((f, i) => s.frames[i] === f))
		.reduce((a, s) => a + s.count, 0);
}
// Share of the samples under prefix in stacks with any frame matching re:
// what "Matched:" must show (a matching ancestor covers everything).
function matchedPct(stacks, re, prefix = []) {
	const base = stacks.filter(s => prefix.every((f, i) => s.frames[i] === f));
	const total = base.reduce((a, s) => a + s.count, 0);
	const hit = base.filter(s => s.frames.some(f => re.test(f)))
		.reduce((a, s) => a + s.count, 0);
	return 100 * hit / total;
}

function render(name, args) {
	writeFileSync(join(dir, name), execFileSync(flamegraph, args));
}
render("basic.svg", [join(inputs, "basic.folded")]);
render("gen.svg", [join(inputs, "gen.folded")]);
render("inverted.svg", ["--inverted", join(inputs, "basic.folded")]);
render("weight.svg", ["--sort", "weight", join(inputs, "basic.folded")]);
render("dark.svg", ["--theme", "dark", join(inputs, "basic.folded")]);
render("light.svg", ["--theme", "light", join(inputs, "basic.folded")]);
render("inferno-search.svg", ["--search-color", "#00ff00", "--stroke-color", "#000000", join(inputs, "basic.folded")]);
render("nojs.svg", ["--no-javascript", join(inputs, "basic.folded")]);
render("diffusion.svg", ["--colordiffusion", join(inputs, "basic.folded")]);
render("base.svg", ["--base", "handle_request", "--base", "GC::collect", join(inputs, "basic.folded")]);
const palFile = join(dir, "my.map");
render("palfile.svg", ["--palette-file", palFile, join(inputs, "basic.folded")]);
const plain = execFileSync(flamegraph, [join(inputs, "basic.folded")]);
const noops = execFileSync(flamegraph, ["--deterministic", "--truncate-text-right", "--pretty-xml", "--no-sort",
	join(inputs, "basic.folded")]);
render("basic-compact.svg", ["--compact", "always", join(inputs, "basic.folded")]);
// Several graphs inline in one HTML page, as a report would hold them.
const inline = name => readFileSync(join(dir, name), "utf8").replace(/^<\?xml[^>]*>\s*<!DOCTYPE[^>]*>\s*/, "");
writeFileSync(join(dir, "page.html"), "<!DOCTYPE html><html><head><title>graphs</title></head><body style=\"margin:0\">" +
	`<div id="g1">${inline("basic.svg")}</div><div id="g2">${inline("inverted.svg")}</div>` +
	`<div id="g3">${inline("basic-compact.svg")}</div></body></html>`);
// A deep broken stack: the graph is taller than the window.
writeFileSync(join(dir, "deep.folded"), "main;" + "[unknown];".repeat(128) + "leaf 10\nmain;short 5\n");
render("deep.svg", [join(dir, "deep.folded")]);
render("cut.svg", ["--max-depth", "10", join(dir, "deep.folded")]);
render("attrs.svg", ["--nameattr", join(inputs, "attrs.tsv"), join(inputs, "basic.folded")]);
// flame --diff: a stack gone from AFTER is drawn hatched, tooltips carry
// before/after; the viewer must still find each frame's name.
writeFileSync(join(dir, "before.folded"), "main;grow 10\nmain;gone;deep 20\nmain;same 40\n");
writeFileSync(join(dir, "after.folded"), "main;grow 50\nmain;new 20\nmain;same 40\n");
writeFileSync(join(dir, "diff.svg"), execFileSync(join(dirname(flamegraph), "flame"),
	["--diff", join(dir, "before.folded"), join(dir, "after.folded")]));
// flame on perf text from a pipe: cpu-clock periods are nanoseconds, and
// the title names the input's kind (classic and compact forms alike).
const clock = "p 1 1.0: 250000 cpu-clock:\n\t1 leaf (/x)\n\t2 main (/x)\n\n" +
	"p 1 1.1: 750000 cpu-clock:\n\t2 main (/x)\n\n";
for (const form of ["never", "always"])
	writeFileSync(join(dir, `clock-${form}.svg`), execFileSync(join(dirname(flamegraph), "flame"),
		["--compact", form, "-"], { input: clock }));

const server = createServer((req, res) => {
	const file = join(dir, new URL(req.url, "http://x").pathname.replace(/^\/+/, ""));
	try {
		const body = readFileSync(file);
		res.writeHead(200, { "content-type": file.endsWith(".html") ? "text/html" : "image/svg+xml" });
		res.end(body);
	} catch {
		res.writeHead(404);
		res.end();
	}
});
await new Promise(r => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
const errors = [];
page.on("pageerror", e => errors.push(String(e)));
let answer = null;
page.on("dialog", d => { const a = answer; answer = null; a === null ? d.dismiss() : d.accept(a); });

// Geometry of the frame whose name is exactly `name` (first match).
async function frame(name) {
	return page.evaluate(n => {
		for (const g of document.getElementById("frames").children) {
			const t = g.querySelector("title").textContent;
			if (t === n || t.startsWith(n + " (")) {
				const r = g.querySelector("rect"), x = g.querySelector("text");
				return { title: t, x: +r.getAttribute("x"), w: +r.getAttribute("width"), y: +r.getAttribute("y"),
					fill: r.getAttribute("fill"), cls: g.getAttribute("class") || "",
					hidden: getComputedStyle(g).display === "none", label: x ? x.textContent : "" };
			}
		}
		return null;
	}, name);
}
const text = id => page.evaluate(i => document.getElementById(i).textContent, id);
// An SVG document has no margin: page coordinates are SVG user units.
async function clickAt(name) {
	const f = await frame(name);
	await page.mouse.click(f.x + Math.min(f.w / 2, 5), f.y + 7);
}

const basic = parseFolded(join(inputs, "basic.folded"));
const total = basic.reduce((a, s) => a + s.count, 0);

await page.goto(base + "basic.svg");
check("viewer loads without script errors", errors.length === 0, errors.join("; "));

// Hover.
let f = await frame("handle_request");
await page.mouse.move(f.x + 3, f.y + 7);
const want = `handle_request (${samplesUnder(basic, ["main", "run_server", "handle_request"])} samples, ` +
	`${(100 * samplesUnder(basic, ["main", "run_server", "handle_request"]) / total).toFixed(2)}%)`;
const hrSelf = selfOf(basic, ["main", "run_server", "handle_request"]);
check("hover shows Function: NAME (N samples, P%; self N samples)", (await text("details")) ===
	"Function: " + want.replace(/\)$/, `; self ${hrSelf} samples)`), await text("details"));
f = await frame("parse_headers");
await page.mouse.move(f.x + 3, f.y + 7);
const phPath = ["main", "run_server", "handle_request", "parse_headers"];
check("hover gives a frame's self samples beside its total", (await text("details")).endsWith(
	`(${samplesUnder(basic, phPath)} samples, ${(100 * samplesUnder(basic, phPath) / total).toFixed(2)}%; ` +
	`self ${selfOf(basic, phPath)} samples)`) && selfOf(basic, phPath) < samplesUnder(basic, phPath), await text("details"));
f = await frame("handle_request");
check("the frame's <title> tooltip has the same text", f.title === want, f.title);
await page.mouse.move(2, 2);
check("moving away clears the details line", (await text("details")).trim() === "");

// Zoom.
const before = await frame("parse_headers");
await clickAt("handle_request");
f = await frame("handle_request");
check("clicked frame fills the width", near(f.x, 10, 0.05) && near(f.w, 1180, 0.05), JSON.stringify(f));
const main = await frame("main");
check("ancestors are dimmed", main.cls.includes("fg-dim") && near(main.w, 1180, 0.05), JSON.stringify(main));
check("frames outside the zoomed one are hidden", (await frame("gc_thread")).hidden);
const ph = await frame("parse_headers");
const hr = samplesUnder(basic, ["main", "run_server", "handle_request"]);
const phs = samplesUnder(basic, ["main", "run_server", "handle_request", "parse_headers"]);
check("children are scaled to the zoomed frame", near(ph.w, 1180 * phs / hr, 0.2), `${ph.w} vs ${1180 * phs / hr}`);
check("Reset Zoom appears", !(await page.evaluate(() => document.getElementById("unzoom").classList.contains("fg-hidden"))));
check("zoom is kept in the URL", /[?&]x=/.test(page.url()) && /[?&]y=/.test(page.url()), page.url());
const zoomedUrl = page.url();
await page.click("#unzoom");
const after = await frame("parse_headers");
check("Reset Zoom restores widths and labels", after.x === before.x && after.w === before.w && after.label === before.label,
	JSON.stringify(after));
check("Reset Zoom shows every frame again", !(await frame("gc_thread")).hidden);
check("Reset Zoom clears the URL state", !/[?&]x=/.test(page.url()), page.url());

// Labels are re-fitted to the new widths.
const anon = "(anonymous namespace)::compute";
const short = await frame(anon);
await clickAt("std::function<int (int, int)>::operator()");
const long = await frame(anon);
check("labels are re-fitted after zoom", short.label.endsWith("..") && long.label === anon,
	`${short.label} -> ${long.label}`);
await page.click("#unzoom");
check("labels are restored by Reset Zoom", (await frame(anon)).label === short.label);

// Search: Ctrl-F, highlight, Matched %.
answer = "parse|send";
await page.keyboard.press("Control+f");
await page.waitForTimeout(50);
const m1 = await text("matched");
const exp1 = matchedPct(basic, /parse|send/);
check("Ctrl-F searches and shows Matched %", m1 === `Matched: ${exp1.toFixed(1)}%`, `${m1} vs ${exp1}`);
check("matching frames are highlighted", (await frame("send_response")).fill === "rgb(230,0,230)"
	&& (await frame("parse_headers")).fill === "rgb(230,0,230)");
check("other frames keep their colour", (await frame("main")).fill !== "rgb(230,0,230)");
check("search is kept in the URL", /[?&]s=parse%7Csend/.test(page.url()), page.url());
await page.keyboard.press("Escape");
check("Escape clears the search", (await text("matched")).trim() === "" &&
	(await frame("send_response")).fill !== "rgb(230,0,230)");

// Nested matches count once: "handle_request" and "parse_headers" overlap.
answer = "handle_request|parse_headers|memchr";
await page.keyboard.press("F3");
await page.waitForTimeout(50);
const exp2 = matchedPct(basic, /handle_request|parse_headers|memchr/);
check("F3 searches; nested matches are counted once", (await text("matched")) === `Matched: ${exp2.toFixed(1)}%`,
	await text("matched"));
await page.click("#search");	// "Reset Search"
check("the Search control resets an active search", (await text("matched")).trim() === "");

// Ignore case with Ctrl-I.
answer = "GC::";
await page.click("#search");
await page.waitForTimeout(50);
const exp3 = matchedPct(basic, /GC::/);
check("the Search control asks for a term", (await text("matched")) === `Matched: ${exp3.toFixed(1)}%`,
	await text("matched"));
await page.keyboard.press("Escape");
answer = "gc::";
await page.keyboard.press("Control+f");
await page.waitForTimeout(50);
check("searches are case-sensitive by default", (await text("matched")) === "Matched: 0.0%", await text("matched"));
await page.keyboard.press("Control+i");
await page.waitForTimeout(50);
check("Ctrl-I toggles ignore-case and re-runs the search", (await text("matched")) === `Matched: ${exp3.toFixed(1)}%`,
	await text("matched"));
check("ignore-case is kept in the URL", /[?&]ic=1/.test(page.url()) && /[?&]s=gc/.test(page.url()), page.url());
const icUrl = page.url();
await page.goto("about:blank");
await page.goto(icUrl);
check("a link with ic=1 reopens the search ignoring case", (await text("matched")) === `Matched: ${exp3.toFixed(1)}%` &&
	(await page.evaluate(() => document.getElementById("ignorecase").classList.contains("fg-on"))), await text("matched"));
await page.keyboard.press("Control+i");
check("turning ignore-case off drops it from the URL", !/[?&]ic=/.test(page.url()), page.url());
await page.click("#ignorecase");
check("the ic control toggles ignore-case", (await text("matched")) === `Matched: ${exp3.toFixed(1)}%`);
await page.keyboard.press("Escape");
await page.click("#ignorecase");

// Matched % within the zoomed frame.
await clickAt("handle_request");
answer = "memchr";
await page.keyboard.press("Control+f");
await page.waitForTimeout(50);
const exp4 = matchedPct(basic, /memchr/, ["main", "run_server", "handle_request"]);
const exp4all = matchedPct(basic, /memchr/);
const want4 = `Matched: ${exp4.toFixed(1)}% of zoomed, ${exp4all.toFixed(1)}% of all`;
check("Matched % gives the zoomed frame's share and the whole's, labelled", (await text("matched")) === want4,
	`${await text("matched")} vs ${want4}`);
// Zoom-relative share on hover, from the input.
f = await frame("parse_headers");
await page.mouse.move(f.x + 3, f.y + 7);
const zshare = (100 * samplesUnder(basic, phPath) / samplesUnder(basic, ["main", "run_server", "handle_request"])).toFixed(2);
check("hover when zoomed gives the share of all and of the zoomed frame", (await text("details")).includes(
	`${(100 * samplesUnder(basic, phPath) / total).toFixed(2)}% of all, ${zshare}% of zoomed;`), await text("details"));
await page.keyboard.press("Escape");
await page.keyboard.press("Escape");
check("Escape with no search resets the zoom", (await frame("handle_request")).w < 1180 &&
	!(await frame("gc_thread")).hidden);

// URL state restores zoom and search.
await page.goto(zoomedUrl.replace(/basic\.svg.*$/, "basic.svg") + "?" + zoomedUrl.split("?")[1] + "&s=memchr");
await page.waitForTimeout(50);
f = await frame("handle_request");
check("?x=&y= restores the zoom", near(f.w, 1180, 0.05), JSON.stringify(f));
check("?s= restores the search", (await text("matched")) === want4, await text("matched"));

// Inverted graphs zoom upward.
await page.goto(base + "inverted.svg");
await clickAt("handle_request");
const im = await frame("main");
check("icicle graph: ancestors above are dimmed", im.cls.includes("fg-dim") && !(await frame("parse_headers")).hidden);

// A large graph: Matched % from the input.
const gen = parseFolded(join(inputs, "gen.folded"));
await page.goto(base + "gen.svg?s=" + encodeURIComponent("^std::|_\\[k\\]$|Service"));
await page.waitForTimeout(100);
// Names are matched as displayed, without the _[k] annotation.
const exp5 = matchedPct(gen.map(s => ({ ...s, frames: s.frames.map(x => x.replace(/_\[[kwij]\]$/, "")) })),
	/^std::|_\[k\]$|Service/);
const m5 = parseFloat((await text("matched")).replace(/[^0-9.]/g, ""));
check("large graph: Matched % agrees with the input", near(m5, exp5, 0.15), `${m5} vs ${exp5}`);

// Linked frames (--nameattr href) follow their link; Ctrl-click zooms.
await page.goto(base + "attrs.svg");
const a = await page.evaluate(() => {
	const el = [...document.getElementById("frames").children].find(g => g.nodeName === "a");
	return el ? el.getAttribute("target") + " " + el.querySelector("title").textContent : null;
});
check("--nameattr href makes a link element with its title", a === "_blank Request handler", String(a));
const urlBefore = page.url();
await page.keyboard.down("Control");
await clickAt("Request handler");
await page.keyboard.up("Control");
check("Ctrl-click on a linked frame zooms instead of following it", page.url().startsWith(urlBefore) &&
	/[?&]x=/.test(page.url()), page.url());
// flame --diff graphs: hover, search and zoom on the richer tooltips.
await page.goto(base + "diff.svg");
await page.mouse.move(0, 0);
const gone = await frame("gone");
await page.mouse.move(gone.x + 5, gone.y + 7);
check("diff: hover names a gone frame with its before/after",
	(await text("details")) === "Function: gone (0 samples, 0.00%; before 20 samples, 28.57%; " +
	"-20 samples, -28.57 points; gone from AFTER)", await text("details"));
answer = "^(gone|deep)$";
await page.keyboard.press("Control+f");
await page.waitForTimeout(50);
// 20 of the 130 samples drawn (110 AFTER + 20 gone) match.
check("diff: search matches names parsed from the richer titles",
	(await text("matched")) === `Matched: ${(100 * 20 / 130).toFixed(1)}%`, await text("matched"));
check("diff: a gone frame is highlighted, then gets its hatching back",
	(await frame("deep")).fill === "rgb(230,0,230)" && (await page.keyboard.press("Escape"),
	(await frame("deep")).fill === "url(#fg-gone)"), (await frame("deep")).fill);
await clickAt("gone");
check("diff: a gone frame zooms like any other", near((await frame("deep")).w, 1180, 0.05),
	JSON.stringify(await frame("deep")));

// --sort weight: below every frame the children go widest first, by the
// input's totals; the viewer still zooms them.
await page.goto(base + "weight.svg");
const wf = await page.evaluate(() => [...document.getElementById("frames").children].map(g => {
	const r = g.querySelector("rect");
	return { name: g.querySelector("title").textContent.replace(/ \([^(]*\)$/, ""), x: +r.getAttribute("x"), y: +r.getAttribute("y") };
}));
// Independent layout: a tree of the input, children widest first (ties
// by name), the samples ending at a frame after its children.
const tree = { kids: new Map(), n: 0 };
for (const st of basic) {
	let node = tree;
	node.n += st.count;
	for (const name of st.frames) {
		if (!node.kids.has(name))
			node.kids.set(name, { kids: new Map(), n: 0 });
		node = node.kids.get(name);
		node.n += st.count;
	}
}
const wantX = [];
(function place(node, start, depth) {
	const kids = [...node.kids].sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1));
	for (const [name, k] of kids) {
		wantX.push(`${depth}:${name.replace(/_\[[kwij]\]$/, "")}@${(10 + start * 1180 / total).toFixed(1)}`);
		place(k, start, depth + 1);
		start += k.n;
	}
})(tree, 0, 1);
const maxY = Math.max(...wf.map(f => f.y));
const gotX = wf.filter(f => f.y < maxY).map(f => `${Math.round((maxY - f.y) / 16)}:${f.name}@${f.x.toFixed(1)}`);
const sortedOk = gotX.sort().join("|") === wantX.sort().join("|");
const why = gotX.filter(x => !wantX.includes(x)).slice(0, 3).join(" ") + " vs " + wantX.filter(x => !gotX.includes(x)).slice(0, 3).join(" ");
check("--sort weight puts the widest child first", sortedOk, why);
await page.mouse.move(0, 0);
f = await frame("main");
await page.mouse.click(f.x + 5, f.y + 7);
const wurl = await page.evaluate(() => location.href);
check("--sort weight: the graph zooms", /[?&]x=/.test(wurl), wurl);

// Several graphs on one HTML page keep their own state.
await page.goto(base + "page.html");
await page.waitForTimeout(50);
const boxes = await page.evaluate(() => ["g1", "g2", "g3"].map(id => {
	const r = document.querySelector("#" + id + " svg").getBoundingClientRect();
	return { x: r.x, y: r.y + window.scrollY };
}));
const inG = (g, id) => page.evaluate(([g, id]) => document.querySelector(`#${g} [id="${id}"]`).textContent, [g, id]);
const inGcls = (g, id) => page.evaluate(([g, id]) => document.querySelector(`#${g} [id="${id}"]`).getAttribute("class") || "", [g, id]);
const hrBox = await page.evaluate(() => {
	const t = [...document.querySelectorAll("#g1 #frames > g > title")].find(t => t.textContent.startsWith("handle_request ("));
	const r = t.parentNode.querySelector("rect");
	return { x: +r.getAttribute("x"), y: +r.getAttribute("y"), w: +r.getAttribute("width") };
});
const invBox = await page.evaluate(() => {
	const t = [...document.querySelectorAll("#g2 #frames > g > title")].find(t => t.textContent.startsWith("handle_request ("));
	const r = t.parentNode.querySelector("rect");
	return { x: +r.getAttribute("x"), y: +r.getAttribute("y"), w: +r.getAttribute("width") };
});
check("several graphs on a page load without script errors", errors.length === 0, errors.join("; "));
await page.mouse.move(boxes[1].x + invBox.x + 5, boxes[1].y + invBox.y + 7 - await page.evaluate(() => window.scrollY));
check("several graphs: hovering the second names the frame in its own details line",
	(await inG("g2", "details")).startsWith("Function: handle_request (") && (await inG("g1", "details")).trim() === "",
	`${await inG("g2", "details")} / ${await inG("g1", "details")}`);
await page.mouse.click(boxes[0].x + hrBox.x + 5, boxes[0].y + hrBox.y + 7 - await page.evaluate(() => window.scrollY));
check("several graphs: a click zooms only the graph clicked", !(await inGcls("g1", "unzoom")).includes("fg-hidden") &&
	(await inGcls("g2", "unzoom")).includes("fg-hidden") && (await inGcls("g3", "unzoom")).includes("fg-hidden"));
await page.mouse.move(boxes[2].x + hrBox.x + 5, boxes[2].y + hrBox.y + 7 - await page.evaluate(() => window.scrollY));
check("several graphs: the compact graph hovers on its own", (await inG("g3", "details")).startsWith("Function: handle_request ("),
	await inG("g3", "details"));
answer = "memchr";
await page.keyboard.press("Control+f");
await page.waitForTimeout(50);
check("several graphs: Ctrl-F searches the graph last pointed at, only it",
	(await inG("g3", "matched")) === `Matched: ${matchedPct(basic, /memchr/).toFixed(1)}%` && (await inG("g1", "matched")).trim() === "",
	`${await inG("g3", "matched")} / ${await inG("g1", "matched")}`);
const purl = await page.evaluate(() => location.search);
check("several graphs: each keeps its URL state under its own names", /[?&]s3=memchr/.test(purl) && /[?&]x=/.test(purl) &&
	!/[?&]s=/.test(purl), purl);

// A graph taller than the window opens scrolled down to its base.
await page.goto(base + "deep.svg");
await page.waitForTimeout(50);
const sc = await page.evaluate(() => {
	const r = [...document.querySelectorAll("#frames > g")].find(g => g.querySelector("title").textContent.startsWith("all ("))
		.querySelector("rect").getBoundingClientRect();
	return { y: window.scrollY, top: r.top, bottom: r.bottom, h: window.innerHeight };
});
check("a graph taller than the window opens scrolled to its base", sc.y > 0 && sc.top >= 0 && sc.bottom <= sc.h, JSON.stringify(sc));
// --max-depth cuts the deep stack and marks the cut.
await page.goto(base + "cut.svg");
const cut = await page.evaluate(() => [...document.querySelectorAll("#frames > g > title")].map(t => t.textContent));
const unknowns = cut.filter(t => t.startsWith("[unknown] (")).length;
f = await frame("[truncated]");
await page.mouse.move(f.x + 3, f.y + 7);
check("--max-depth N keeps N frames of a deeper stack and marks the cut", unknowns === 9 && f.w > 700 &&
	(await text("details")) === "Function: [truncated] (10 samples, 66.67%; self 10 samples)" &&
	(await page.evaluate(() => window.scrollY)) === 0, `${unknowns} ${await text("details")}`);
await page.goto(base + "basic.svg");
check("a graph that fits is not scrolled", (await page.evaluate(() => window.scrollY)) === 0);

// inferno-flamegraph's options.
check("inferno's --deterministic --truncate-text-right --pretty-xml --no-sort are accepted, same graph",
	plain.equals(noops));
check("inferno's --palette-file keeps --cp's map in that file", /^main->rgb\(\d+,\d+,\d+\)$/m.test(
	(() => { try { return readFileSync(palFile, "utf8"); } catch { return ""; } })()));
await page.goto(base + "inferno-search.svg");
answer = "parse";
await page.keyboard.press("Control+f");
await page.waitForTimeout(50);
check("inferno's --search-color colours the matches", (await frame("parse_headers")).fill === "rgb(0,255,0)",
	(await frame("parse_headers")).fill);
check("inferno's --stroke-color outlines every frame", await page.evaluate(() =>
	getComputedStyle(document.querySelector("#frames rect")).stroke) === "rgb(0, 0, 0)");
await page.goto(base + "nojs.svg");
f = await frame("handle_request");
await page.mouse.move(f.x + 3, f.y + 7);
check("inferno's --no-javascript: no script, the frames still drawn", await page.evaluate(() =>
	document.querySelectorAll("script").length === 0) && f.w > 100 && (await text("details")).trim() === "");
await page.goto(base + "diffusion.svg");
const dif = await page.evaluate(() => [...document.querySelectorAll("#frames rect")].map(r =>
	[+r.getAttribute("width"), +/rgb\(\d+,(\d+)/.exec(r.getAttribute("fill"))[1]]));
const monotone = dif.every(([w, g]) => dif.every(([w2, g2]) => !(w > w2 + 1) || g <= g2));
check("inferno's --colordiffusion: the wider the frame, the redder", monotone && new Set(dif.map(d => d[1])).size > 3);
await page.goto(base + "base.svg");
const hrN = samplesUnder(basic, ["main", "run_server", "handle_request"]);
const gcN = samplesUnder(basic, ["gc_thread", "GC::collect"]);
const all = (await frame("all")).title;
f = await frame("handle_request");
check("inferno's --base keeps only stacks through the base, cut to start there",
	all === `all (${hrN + gcN} samples, 100%)` && near(f.w, 1180 * hrN / (hrN + gcN), 0.15) &&
	f.y === (await frame("all")).y - 16 && (await frame("main")) === null &&
	(await frame("parse_headers")) !== null, all);

// Units and the piped input's title, as a reader sees them: hovering main
// (1,000,000 ns, self 750,000) in each form.
for (const form of ["never", "always"]) {
	await page.goto(base + `clock-${form}.svg`);
	const h = await page.evaluate(() => parseFloat(document.documentElement.getAttribute("height")));
	// all, then the process p, then main: the third row from the bottom.
	await page.mouse.move(600, h - 34 - 16 * 3 + 8);
	const d = await text("details");
	check(`--compact ${form}: hover gives perf cpu-clock weights in ns, not samples`,
		d === "Function: main (1,000,000 ns, 100.00%; self 750,000 ns)", d);
	const title = await text("title");
	check(`--compact ${form}: piped perf text is titled by its kind`,
		title === "Flame Graph: perf script text from stdin", title);
}

// Dark mode: by default it follows the reader's prefers-color-scheme;
// --theme fixes it.  Labels on frames stay dark (palettes are bright).
const look = () => page.evaluate(() => {
	const bg = document.querySelector('rect[fill="url(#background)"]');
	const label = document.querySelector("#frames text");
	return { bg: getComputedStyle(bg).fill, title: getComputedStyle(document.getElementById("title")).fill,
		label: getComputedStyle(label).fill };
});
const DARKBG = "rgb(28, 29, 33)";
const LIGHTTXT = "rgb(222, 222, 222)";
await page.emulateMedia({ colorScheme: "dark" });
await page.goto(base + "basic.svg");
let lk = await look();
check("dark mode follows prefers-color-scheme: dark background, light text", lk.bg === DARKBG &&
	lk.title === "rgb(222, 222, 222)", JSON.stringify(lk));
check("dark mode keeps frame labels dark on the bright palettes", lk.label === "rgb(0, 0, 0)", JSON.stringify(lk));
await page.goto(base + "light.svg");
lk = await look();
check("--theme light stays light in a dark system", lk.bg !== DARKBG && lk.title === "rgb(0, 0, 0)", JSON.stringify(lk));
await page.emulateMedia({ colorScheme: "light" });
await page.goto(base + "basic.svg");
lk = await look();
check("a light system gets the light graph", lk.bg !== DARKBG && lk.title === "rgb(0, 0, 0)", JSON.stringify(lk));
await page.goto(base + "dark.svg");
lk = await look();
check("--theme dark is dark in a light system", lk.bg === DARKBG && lk.title === "rgb(222, 222, 222)" &&
	lk.label === "rgb(0, 0, 0)", JSON.stringify(lk));
check("no script errors anywhere", errors.length === 0, errors.join("; "));

await browser.close();
server.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
