// Browser benchmark of flame graph SVGs in Debian's chromium: for each
// NAME=FILE.svg given, the file's size, the time to load it to a usable
// graph (the load event and the viewer's set-up done, then a frame
// painted), a regex search (Ctrl-F) and a click-zoom, each until the next
// frame is painted.  Usage: node bench.mjs [--shots DIR] NAME=FILE...
// Prints one line per graph: NAME size_bytes load_s search_s zoom_s
// ("-" for a step that failed).
import { chromium } from "playwright-core";
import { readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { basename, dirname, join, resolve } from "node:path";

let args = process.argv.slice(2), shots = null;
if (args[0] === "--shots") {
	shots = args[1];
	args = args.slice(2);
}
const files = args.map(a => {
	const eq = a.indexOf("=");
	return { name: a.substring(0, eq), path: resolve(a.substring(eq + 1)) };
});
const term = process.env.BENCH_SEARCH || "parse|hash";
const timeout = 1000 * +(process.env.BENCH_TIMEOUT || 180);

const server = createServer((req, res) => {
	const want = decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/^\/+/, "");
	const f = files.find(x => x.name === want);
	try {
		const body = readFileSync(f.path);
		res.writeHead(200, { "content-type": "image/svg+xml" });
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
	args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

// A first prompt in a new browser is slow whatever the page: warm up on
// a blank page so the first graph measured does not pay for it.
{
	const warm = await browser.newPage();
	warm.on("dialog", d => d.accept("x"));
	await warm.evaluate(() => prompt("warm-up"));
	await warm.close();
}

const painted = page => page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));
async function timed(page, fn) {
	const t0 = performance.now();
	await fn();
	await painted(page);
	return (performance.now() - t0) / 1000;
}

for (const f of files) {
	// The whole graph in the window, so the click below lands on a frame.
	const head = readFileSync(f.path, "latin1").substring(0, 4096);
	const svgh = parseFloat((/<svg[^>]*?\sheight="([0-9.]+)/.exec(head) || [0, "900"])[1]);
	const page = await browser.newPage({ viewport: { width: 1300, height: Math.min(Math.ceil(svgh) + 10, 8000) } });
	page.setDefaultTimeout(timeout);
	let answer = null, accepted = 0;
	// The search time runs from the prompt's answer, not from the key:
	// the dialog's round trip through the driver is not the viewer's.
	page.on("dialog", d => {
		const a = answer;
		answer = null;
		accepted = performance.now();
		a === null ? d.dismiss() : d.accept(a);
	});
	const out = { load: "-", search: "-", zoom: "-" };
	try {
		out.load = (await timed(page, () => page.goto(base + f.name, { waitUntil: "load", timeout }))).toFixed(3);
		const h = await page.evaluate(() => parseFloat(document.documentElement.getAttribute("height")));
		// The same spot in every tool's graph: they share flamegraph.pl's
		// geometry.  A frame two levels up, in the middle.
		const y = h - 34 - 16 * 3 + 8;
		if (shots)
			await page.screenshot({ path: join(shots, `${f.name}-default.png`) });
		await page.mouse.move(600, y);
		answer = term;
		await page.keyboard.press("Control+f");
		await painted(page);
		out.search = ((performance.now() - accepted) / 1000).toFixed(3);
		if (shots)
			await page.screenshot({ path: join(shots, `${f.name}-search.png`) });
		await page.click("#search");	/* Reset Search: every tool has it */
		await painted(page);
		out.zoom = (await timed(page, () => page.mouse.click(600, y))).toFixed(3);
		if (shots) {
			await page.screenshot({ path: join(shots, `${f.name}-zoom.png`) });
			await page.click("#unzoom");
			await page.emulateMedia({ colorScheme: "dark" });
			await painted(page);
			await page.screenshot({ path: join(shots, `${f.name}-dark.png`) });
			await page.emulateMedia({ colorScheme: "light" });
		}
	} catch (e) {
		console.error(`${f.name}: ${String(e).split("\n")[0]}`);
	}
	console.log(`${f.name} ${statSync(f.path).size} ${out.load} ${out.search} ${out.zoom}`);
	await page.close();
}
await browser.close();
server.close();
