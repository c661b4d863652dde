// Browser tests of the compact form (render/compact.h) in Debian's
// chromium: a generated graph of more than 10000 frames, so flamegraph
// writes it compactly by itself.  Every expectation comes from the folded
// input through an independent layout below, never from the SVG.
// Usage: node compact.test.mjs FLAMEGRAPH_BINARY
// Prints "ok NAME" / "FAIL NAME: why" lines, then "N passed, N failed".
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";

const [flamegraph] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), "flame-compact-"));
let passed = 0, failed = 0;
function check(name, cond, why = "") {
	if (cond) { passed++; console.log(`ok   ${name}`); }
	else { failed++; console.log(`FAIL ${name}${why ? ": " + why : ""}`); }
}
const near = (a, b, tol) => Math.abs(a - b) <= tol;

// Names a profile could carry that must not break the XML or the page.
const EVIL = ["evil</script><script>alert(1)</script>", "cdata]]>end", "amp&amp<b>&lt",
	"quote\"'", "std::vector<int>::push_back"];

// A deterministic profile: random walks down a call tree, a few heavy
// stacks through the hostile names so their frames are wide.
function generate() {
	let seed = 12345;
	const rnd = n => { seed = (seed * 1103515245 + 12345) % 2147483648; return Math.floor(seed / 65536) % n; };
	const lines = new Map();
	const add = (stack, n) => lines.set(stack, (lines.get(stack) || 0) + n);
	for (let i = 0; i < 2600; i++) {
		const depth = 4 + rnd(16), frames = ["main"];
		for (let d = 1; d < depth; d++)
			frames.push(`fn_${d}_${rnd(d < 3 ? 4 : 60)}`);
		add(frames.join(";"), 1 + rnd(40));
	}
	EVIL.forEach((e, k) => add(`main;${e};leaf_${k}`, 4000 + 500 * k));
	add("main;Parse_Request;parse_header;memchr", 9000);
	add("main;Parse_Request;parse_body", 6000);
	add("main;Parse_Request", 3000);
	return [...lines].map(([s, n]) => `${s} ${n}`).join("\n") + "\n";
}

// flamegraph.pl's layout: stacks sorted bytewise, a frame merged with the
// previous stack's frame when it and its ancestors are the same.
function layout(text) {
	const stacks = text.split("\n").filter(l => l).map(l => {
		const sp = l.lastIndexOf(" ");
		return { line: l.substring(0, sp), frames: l.substring(0, sp).split(";"), count: +l.substring(sp + 1) };
	}).sort((a, b) => (a.line < b.line ? -1 : a.line > b.line ? 1 : 0));
	const frames = [], open = [];
	let t = 0;
	for (const s of stacks) {
		let k = 0;
		while (k < open.length && k < s.frames.length && open[k].name === s.frames[k])
			k++;
		while (open.length > k)
			open.pop().end = t;
		for (let d = k; d < s.frames.length; d++) {
			const f = { name: s.frames[d], depth: d + 1, start: t, end: 0, path: s.frames.slice(0, d + 1) };
			frames.push(f);
			open.push(f);
		}
		t += s.count;
	}
	while (open.length)
		open.pop().end = t;
	return { stacks, frames, total: t, depthmax: Math.max(...frames.map(f => f.depth)) };
}

const text = generate();
writeFileSync(join(dir, "big.folded"), text);
const L = layout(text);
const svg = execFileSync(flamegraph, ["--minwidth", "0", join(dir, "big.folded")], { maxBuffer: 1 << 28 });
writeFileSync(join(dir, "big.svg"), svg);
writeFileSync(join(dir, "inv.svg"), execFileSync(flamegraph, ["--minwidth", "0", "--inverted", join(dir, "big.folded")],
	{ maxBuffer: 1 << 28 }));
check("a graph of more than 10000 frames is written compactly", L.frames.length > 10000 &&
	svg.includes('id="fg-data"') && !svg.includes("<title>main ("), `${L.frames.length} frames`);

const W = 1180, X0 = 10, FH = 16;
const height = (L.depthmax + 1) * FH + 12 * 3 + 12 * 2 + 10;
const yOf = (d, inverted) => inverted ? 36 + d * FH : height - 34 - (d + 1) * FH + 1;
// Where a frame is in the unzoomed view, or zoomed into z.
function box(f, z = null, inverted = false) {
	const s0 = z ? z.start : 0, span = z ? z.end - z.start : L.total;
	return { x: X0 + (f.start - s0) * W / span, w: (f.end - f.start) * W / span, y: yOf(f.depth, inverted) };
}
const pct = n => (100 * n / L.total).toFixed(2);
const commify = n => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const title = f => `${f.name} (${commify(f.end - f.start)} samples, ${pct(f.end - f.start)}%)`;
const kidsOf = f => L.frames.filter(k => k.depth === f.depth + 1 && k.start >= f.start && k.end <= f.end);
const selfOf = f => f.end - f.start - kidsOf(f).reduce((a, k) => a + k.end - k.start, 0);
// The details line: the title with the self count, and when zoomed into
// z the shares of all and of z.
const details = (f, z = null) => `Function: ${f.name} (${commify(f.end - f.start)} samples, ${pct(f.end - f.start)}%` +
	(z ? ` of all, ${(100 * (f.end - f.start) / (z.end - z.start)).toFixed(2)}% of zoomed` : "") +
	`; self ${commify(selfOf(f))} samples)`;
const under = (f, prefix) => prefix.every((p, i) => f.path[i] === p);
function matchedPct(re, prefix = []) {
	const base = L.stacks.filter(s => prefix.every((p, i) => s.frames[i] === p));
	const all = base.reduce((a, s) => a + s.count, 0);
	return 100 * base.filter(s => s.frames.some(x => re.test(x))).reduce((a, s) => a + s.count, 0) / all;
}

const server = createServer((req, res) => {
	try {
		const body = readFileSync(join(dir, new URL(req.url, "http://x").pathname.replace(/^\/+/, "")));
		res.writeHead(200, { "content-type": "image/svg+xml" });
		res.end(body);
	} catch { res.writeHead(404); res.end(); }
});
await new Promise(r => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
	args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
const errors = [];
page.on("pageerror", e => errors.push(String(e)));
let answer = null, dialogs = 0;
page.on("dialog", d => { dialogs++; const a = answer; answer = null; a === null ? d.dismiss() : d.accept(a); });
const textOf = id => page.evaluate(i => document.getElementById(i).textContent, id);
// The painted colour at (x, y): the canvas the viewer paints, as pixels.
const pixel = (x, y) => page.evaluate(([x, y]) => {
	const cv = document.querySelector("canvas");
	const r = window.devicePixelRatio || 1;
	const d = cv.getContext("2d").getImageData(Math.floor(x * r), Math.floor(y * r), 1, 1).data;
	return d[3] === 0 ? "none" : `rgb(${d[0]},${d[1]},${d[2]})`;
}, [x, y]);
const at = async (b, dx = 0.5) => { await page.mouse.move(b.x + b.w * dx, b.y + 7); return textOf("details"); };

await page.goto(base + "big.svg");
check("compact: loads without script errors", errors.length === 0, errors.join("; "));
check("compact: the SVG is well-formed XML", await page.evaluate(() =>
	document.getElementsByTagName("parsererror").length === 0 && document.documentElement.nodeName === "svg"));
const counts = await page.evaluate(() => [document.querySelectorAll("script").length,
	document.querySelectorAll("foreignObject").length]);
check("compact: hostile names inject no element", counts.join() === "2,1", counts.join());

// Hover: frames picked from the independent layout, wide enough to aim at.
const wide = L.frames.filter(f => f.depth >= 3 && box(f).w >= 30);
const target = wide[Math.floor(wide.length / 2)];
check("compact: hover shows Function: NAME (N samples, P%; self N samples)",
	(await at(box(target))) === details(target), `${await textOf("details")} vs ${details(target)}`);
const withSelf = L.frames.find(f => f.depth >= 2 && box(f).w > 20 && selfOf(f) > 0 && kidsOf(f).length > 0);
check("compact: hover gives a frame's self samples beside its total", (await at(box(withSelf))) === details(withSelf),
	`${await textOf("details")} vs ${details(withSelf)}`);
for (const e of EVIL) {
	const f = L.frames.find(x => x.name === e && x.depth === 2);
	const got = await at(box(f));
	check(`compact: a hostile name reads back exactly: ${e}`, got === details(f), got);
}
await page.mouse.move(3, 3);
check("compact: moving away clears the details line", (await textOf("details")).trim() === "");

// Zoom into the target: its children fill the width in proportion.
const kids = L.frames.filter(f => f.depth === target.depth + 1 && under(f, target.path));
const outside = L.frames.find(f => f.depth === target.depth + 1 && !under(f, target.path) && box(f).w > 3);
await page.mouse.click(box(target).x + box(target).w / 2, box(target).y + 7);
check("compact: the zoomed frame fills the width", (await at({ x: X0, w: W, y: box(target).y }, 0.02)) ===
	details(target, target) && (await at({ x: X0, w: W, y: box(target).y }, 0.98)) === details(target, target));
const kid = kids.reduce((a, b) => (b.end - b.start > a.end - a.start ? b : a));
const kb = box(kid, target);
check("compact: children are placed and scaled; hover gives the share of all and of the zoomed frame",
	(await at(kb, 0.1)) === details(kid, target) && (await at(kb, 0.9)) === details(kid, target), `${await textOf("details")} at ${JSON.stringify(kb)}`);
check("compact: a zoomed child is painted in its palette colour", /^rgb\((2[0-5]\d),/.test(await pixel(kb.x + kb.w / 2, kb.y + 7)),
	await pixel(kb.x + kb.w / 2, kb.y + 7));
const anc = L.frames.find(f => f.depth === 1);
check("compact: ancestors are drawn dimmed at full width", (await at({ x: X0, w: W, y: yOf(1) }, 0.5)) === details(anc) &&
	(await page.evaluate(([x, y]) => {
		const cv = document.querySelector("canvas"), r = window.devicePixelRatio || 1;
		return cv.getContext("2d").getImageData(Math.floor(x * r), Math.floor(y * r), 1, 1).data[3];
	}, [X0 + W / 2, yOf(1) + 7])) === 128);
const deepest = Math.max(...L.frames.filter(f => under(f, target.path)).map(f => f.depth));
check("compact: nothing is painted above the zoomed subtree", (await pixel(X0 + W / 2, yOf(deepest + 1) + 7)) === "none" &&
	(await at({ x: X0, w: W, y: yOf(deepest + 1) }, 0.5)).trim() === "");
check("compact: a zoomed label names a wide child", await page.evaluate(n =>
	[...document.querySelectorAll("text")].some(t => t.textContent === n && getComputedStyle(t).display !== "none"), kid.name));
check("compact: Reset Zoom appears", await page.evaluate(() => !document.getElementById("unzoom").classList.contains("fg-hidden")));
check("compact: zoom is kept in the URL", /[?&]x=/.test(page.url()) && /[?&]y=/.test(page.url()), page.url());
const zoomedUrl = page.url();
await page.click("#unzoom");
check("compact: Reset Zoom restores the layout", (await at(box(target))) === details(target) &&
	(await at(box(outside))) === details(outside));
check("compact: Reset Zoom clears the URL state", !/[?&]x=/.test(page.url()), page.url());

// Search: Matched % from the input, matches painted in the search colour.
const re1 = "^parse|memchr";
answer = re1;
await page.keyboard.press("Control+f");
await page.waitForTimeout(50);
const exp1 = matchedPct(new RegExp(re1));
check("compact: Ctrl-F searches and shows Matched %", (await textOf("matched")) === `Matched: ${exp1.toFixed(1)}%`,
	`${await textOf("matched")} vs ${exp1}`);
const ph = L.frames.find(f => f.name === "parse_header");
const pr = L.frames.find(f => f.name === "Parse_Request");
check("compact: matching frames are painted in the search colour",
	(await pixel(box(ph).x + box(ph).w / 2, box(ph).y + 7)) === "rgb(230,0,230)", await pixel(box(ph).x + 2, box(ph).y + 7));
check("compact: other frames keep their colour", (await pixel(box(pr).x + box(pr).w / 2, box(pr).y + 7)) !== "rgb(230,0,230)");
check("compact: search is kept in the URL", /[?&]s=%5Eparse%7Cmemchr/.test(page.url()), page.url());
await page.keyboard.press("Control+i");
await page.waitForTimeout(50);
const exp2 = matchedPct(new RegExp(re1, "i"));
check("compact: Ctrl-I re-runs the search ignoring case", (await textOf("matched")) === `Matched: ${exp2.toFixed(1)}%` &&
	(await pixel(box(pr).x + box(pr).w / 2, box(pr).y + 7)) === "rgb(230,0,230)", await textOf("matched"));
check("compact: ignore-case is kept in the URL", /[?&]ic=1/.test(page.url()), page.url());
await page.keyboard.press("Control+i");
await page.keyboard.press("Escape");
check("compact: Escape clears the search", (await textOf("matched")).trim() === "" &&
	(await pixel(box(ph).x + box(ph).w / 2, box(ph).y + 7)) !== "rgb(230,0,230)");

// Matched % relative to the zoomed frame; the state in the URL.
await page.mouse.click(box(pr).x + box(pr).w / 2, box(pr).y + 7);
answer = "memchr";
await page.keyboard.press("Control+f");
await page.waitForTimeout(50);
const exp3 = matchedPct(/memchr/, pr.path);
const want3 = `Matched: ${exp3.toFixed(1)}% of zoomed, ${matchedPct(/memchr/).toFixed(1)}% of all`;
check("compact: Matched % gives the zoomed frame's share and the whole's", (await textOf("matched")) === want3,
	`${await textOf("matched")} vs ${want3}`);
const url = page.url();
await page.goto("about:blank");
await page.goto(url);
await page.waitForTimeout(50);
check("compact: ?x=&y=&s= restore zoom and search", (await textOf("matched")) === want3 &&
	(await at({ x: X0, w: W, y: box(pr).y }, 0.9)) === details(pr, pr), await textOf("matched"));
await page.goto(zoomedUrl);
check("compact: a zoom link reopens the zoom", (await at({ x: X0, w: W, y: box(target).y }, 0.98)) === details(target, target));

// Icicle: depth grows downward.
await page.goto(base + "inv.svg");
const ib = box(target, null, true);
check("compact: icicle graph hover", (await at(ib)) === details(target), await textOf("details"));
await page.mouse.click(ib.x + ib.w / 2, ib.y + 7);
check("compact: icicle graph zoom", (await at(box(kid, target, true), 0.5)) === details(kid, target));
check("compact: no script errors anywhere", errors.length === 0, errors.join("; "));

// Without JavaScript the static drawing and its labels show.
const nojs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1300, height: 900 } });
const p2 = await nojs.newPage();
await p2.goto(base + "big.svg");
const st = await p2.evaluate(() => {
	const g = document.getElementById("fg-static");
	return { shown: getComputedStyle(g).display !== "none", paths: g.querySelectorAll("path").length,
		labels: document.querySelectorAll("#fg-labels text").length };
});
check("compact: without JavaScript the static drawing shows", st.shown && st.paths > 10 && st.labels > 10, JSON.stringify(st));
const shot = await p2.screenshot({ clip: { x: box(pr).x + box(pr).w / 2, y: box(pr).y + 4, width: 1, height: 1 } });
await nojs.close();
// A 1x1 PNG: the IDAT inflates to a filter byte and the pixel.
function pngPixel(png) {
	let o = 8, idat = [];
	while (o < png.length) {
		const len = png.readUInt32BE(o), type = png.toString("ascii", o + 4, o + 8);
		if (type === "IDAT")
			idat.push(png.subarray(o + 8, o + 8 + len));
		o += 12 + len;
	}
	const px = inflateSync(Buffer.concat(idat));
	return [px[1], px[2], px[3]];
}
const [r, g, b] = pngPixel(shot);
// The hot palette: red 205-255, blue at most 55; the background is pale.
check("compact: the static drawing paints the frames in their colours", r >= 200 && b <= 60, `${r},${g},${b}`);

await browser.close();
server.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
