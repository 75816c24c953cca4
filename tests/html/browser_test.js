'use strict';
/*
 * schedrec report html's page in Debian's headless Chromium, driven by
 * playwright-core (tests/html/package-lock.json pins it; run.sh installs
 * it into build/ and makes the page).
 *
 *   node browser_test.js DIR/index.html SCREENSHOT.png
 *
 * SCREENSHOT.png shows the page down to the second shown under the heat
 * map (after a click on a heat-map cell), SCREENSHOT-full.png all of it.
 *
 * Prints a TAP line per check ("ok N - what" / "not ok N - what", then
 * why); exits 1 if one failed.  The page is opened as a file (file://),
 * as people open it: nothing may be fetched from anywhere else.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const CHROMIUM = '/usr/bin/chromium';
/* Chromium on a machine with no network but the package registries */
const FLAGS = [
	'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
	'--no-first-run', '--disable-background-networking',
	'--disable-component-update', '--disable-sync',
];
const TIMEOUT = 15000;

let count = 0;
let failed = 0;

function report(ok, what, why) {
	count++;
	console.log(`${ok ? 'ok' : 'not ok'} ${count} - ${what}`);
	if (!ok) {
		failed++;
		for (const line of String(why).split('\n'))
			console.log(`#   ${line}`);
	}
}

/* Run the check @fn; a throw or a false return fails it. */
async function check(what, fn) {
	try {
		const why = await fn();
		report(why === undefined || why === true, what, why);
	} catch (e) {
		report(false, what, e && e.stack ? e.stack : e);
	}
}

/* The frame an <object> loaded @file into, once it has an <svg>. */
async function objectFrame(page, file) {
	const deadline = Date.now() + TIMEOUT;

	while (Date.now() < deadline) {
		const frame = page.frames().find((f) => f.url().endsWith(file));

		if (frame && await frame.locator('svg').count() > 0)
			return frame;
		await page.waitForTimeout(100);
	}
	throw new Error(`no frame loaded ${file}`);
}

/* Click the middle of the heat-map cell of second @s, offset 500 ms. */
async function clickCell(page, s) {
	const box = await page.evaluate((second) => {
		const cells = document.querySelectorAll('#heat rect');

		for (const r of cells) {
			const t = r.querySelector('title') ||
				r.parentNode.querySelector(':scope > title');

			if (t && t.textContent.startsWith(
				`second ${second}, offset 500-`)) {
				r.scrollIntoView({ block: 'center' });
				const b = r.getBoundingClientRect();

				return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
			}
		}
		return null;
	}, s);

	if (!box)
		throw new Error(`no heat-map cell of second ${s}`);
	await page.mouse.click(box.x, box.y);
}

/* What the page says it shows: the second, and its views' files. */
function shown(page) {
	return page.evaluate(() => {
		const data = (id) => {
			const o = document.querySelector(`#${id} object`);
			const box = document.getElementById(id);

			return o && !box.hidden && o.offsetHeight > 0 ?
				o.getAttribute('data') : null;
		};

		return {
			second: document.getElementById('second')
				.getAttribute('data-second'),
			title: document.getElementById('second-title').textContent,
			note: document.getElementById('second-note').hidden ? '' :
				document.getElementById('second-note').textContent,
			timeline: data('second-timeline'),
			flame: data('second-flame'),
			marked: document.querySelectorAll('#heat .heat-mark').length,
		};
	});
}

async function main() {
	const [index, screenshot] = process.argv.slice(2);
	const full = screenshot.replace(/\.png$/, '') + '-full.png';
	const dir = path.dirname(path.resolve(index));
	const url = 'file://' + path.resolve(index);
	const problems = [];	/* console errors, page errors, requests */
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'schedrec-chromium-'));
	let context;

	if (!fs.existsSync(CHROMIUM)) {
		report(false, 'open the page in Debian\'s chromium',
		       `${CHROMIUM} is missing: apt-get install chromium`);
		return;
	}
	try {
		context = await chromium.launchPersistentContext(profile, {
			executablePath: CHROMIUM, headless: true, args: FLAGS,
			viewport: { width: 1280, height: 900 },
		});
	} catch (e) {
		report(false, 'start Debian\'s headless chromium', e.stack);
		fs.rmSync(profile, { recursive: true, force: true });
		return;
	}
	const page = context.pages()[0] || await context.newPage();

	page.setDefaultTimeout(TIMEOUT);
	page.on('console', (m) => {
		if (m.type() === 'error' || m.type() === 'warning')
			problems.push(`console ${m.type()}: ${m.text()}`);
	});
	page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
	context.on('request', (r) => {
		const u = r.url();

		if (!u.startsWith('file://' + dir + '/') && !u.startsWith('data:'))
			problems.push(`a request outside the page's directory: ${u}`);
	});
	context.on('requestfailed', (r) =>
		problems.push(`request failed: ${r.url()}`));

	let views = [];

	await check('the page loads from file:// with no console error', async () => {
		await page.goto(url, { waitUntil: 'load' });
		views = JSON.parse(await page.locator('#views-data').textContent())
			.views;
		return problems.length ? problems.join('\n') : true;
	});

	await check('the summary, the tables and the loss warning are there', async () => {
		for (const id of ['summary', 'table-offcpu', 'table-tenancy',
				  'table-states', 'table-latency', 'loss-warning'])
			if (!await page.locator(`#${id}`).isVisible())
				return `#${id} is not visible`;
		const rows = await page.locator('#table-offcpu tbody tr').count();

		return rows > 0 || 'the offcpu table has no row';
	});

	await check('the heat map, the timeline and the flame graph are drawn', async () => {
		if (!await page.locator('svg#heat').isVisible())
			return 'no heat map';
		const cells = await page.locator('#heat rect title').count();
		const s = await shown(page);

		if (cells < 50)
			return `the heat map has ${cells} cells`;
		if (!views.length || s.second !== String(views[0].second))
			return `the busiest second is not shown: ${JSON.stringify(s)}`;
		if (!s.timeline || !s.flame)
			return `the views are not visible: ${JSON.stringify(s)}`;
		await objectFrame(page, s.timeline);
		await objectFrame(page, s.flame);
		await objectFrame(page, '/flame.svg');
		return true;
	});

	await check('a click on a heat-map cell shows that second\'s timeline and flame graph', async () => {
		const s = views[1].second;

		await clickCell(page, s);
		await page.waitForFunction((want) =>
			document.getElementById('second')
				.getAttribute('data-second') === String(want), s);
		const got = await shown(page);

		if (got.timeline !== `seconds/timeline-${s}.svg` ||
		    got.flame !== `seconds/flame-${s}.svg` ||
		    !got.title.startsWith(`Second ${s}:`) || got.note ||
		    got.marked !== 1)
			return `after a click on second ${s}: ${JSON.stringify(got)}`;
		const frame = await objectFrame(page, got.timeline);
		const text = await frame.locator('svg').first().textContent();

		if (!text.includes(`${s}.000000 to ${s + 1}.000000 s`))
			return `the timeline loaded is not of second ${s}`;
		await objectFrame(page, got.flame);
		return true;
	});

	await check('a click on a second not pre-rendered says how to draw it', async () => {
		const done = new Set(views.map((v) => v.second));
		let s = 0;

		while (done.has(s))
			s++;
		await clickCell(page, s);
		await page.waitForFunction((want) =>
			document.getElementById('second')
				.getAttribute('data-second') === String(want), s);
		const got = await shown(page);

		if (!got.note.includes('not pre-rendered') ||
		    !got.note.includes(`--range ${s}:${s + 1}`) ||
		    got.timeline || got.flame)
			return `after a click on second ${s}: ${JSON.stringify(got)}`;
		/* back to a pre-rendered one, for the screenshot */
		await clickCell(page, views[1].second);
		await page.waitForFunction((want) =>
			document.getElementById('second')
				.getAttribute('data-second') === String(want),
			views[1].second);
		return true;
	});

	await check('a click on a table\'s heading sorts it', async () => {
		const th = page.locator('#table-offcpu th[data-col="tid"]');
		const tids = () => page.locator('#table-offcpu tbody tr td:first-child')
			.allTextContents();

		await th.click();
		const down = (await tids()).map(Number);
		await th.click();
		const up = (await tids()).map(Number);
		const sorted = [...up].sort((a, b) => a - b);

		if (JSON.stringify(up) !== JSON.stringify(sorted) ||
		    JSON.stringify(down) !== JSON.stringify([...sorted].reverse()))
			return `tids: ${down} then ${up}`;
		return true;
	});

	await check('nothing was fetched from outside the page\'s directory, no error', async () =>
		problems.length ? problems.join('\n') : true);

	await check(`screenshots for people to look at: ${path.basename(screenshot)}, ${path.basename(full)}`, async () => {
		/*
		 * The <object>s' SVG documents are painted only inside the
		 * viewport: make it as tall as the page, and wait for them all.
		 */
		const height = await page.evaluate(() =>
			document.documentElement.scrollHeight);
		const objects = await page.locator('object').evaluateAll((list) =>
			list.filter((o) => o.offsetHeight > 0)
				.map((o) => o.getAttribute('data')));

		await page.setViewportSize({ width: 1280, height });
		for (const file of objects)
			await objectFrame(page, '/' + file);
		await page.waitForTimeout(300);
		await page.screenshot({ path: full });
		const bottom = await page.evaluate(() => {
			const b = document.getElementById('second')
				.getBoundingClientRect();

			return b.bottom + window.scrollY + 12;
		});
		await page.screenshot({ path: screenshot,
			clip: { x: 0, y: 0, width: 1280, height: bottom } });
		return fs.statSync(screenshot).size > 10000 ||
			'the screenshot is nearly empty';
	});

	await context.close();
	fs.rmSync(profile, { recursive: true, force: true });
}

main().then(() => {
	console.log(`1..${count}`);
	process.exit(failed || !count ? 1 : 0);
}, (e) => {
	console.log(`not ok ${count + 1} - the test itself\n#   ${e.stack}`);
	process.exit(1);
});
