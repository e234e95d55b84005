// The measured flows. Each returns plain numbers; run.js repeats, takes medians and prints.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import {
	addProbe,
	countRequests,
	median,
	percentile,
	summarize,
	testbed,
	throttle,
	waitPainted
} from './browser.js';

export const APP_HEADLINE = '.headline[data-article-id]';
export const TTRSS_HEADLINE = '#headlines-frame [id^="RROW-"]';
const APP_ALL_ARTICLES = 'a[href$="/feed/-4"]';

/** @typedef {import('@playwright/test').Browser} Browser */
/** @typedef {import('@playwright/test').BrowserContext} BrowserContext */
/** @typedef {import('@playwright/test').Page} Page */

/**
 * Submits a form from inside the page (no Playwright round trip between the clock and the click)
 * and returns the wall-clock time of the submit.
 * @param {Page} page @param {string} button selector
 */
async function submitAt(page, button) {
	return page.evaluate((sel) => {
		const t = performance.timeOrigin + performance.now();
		const b = document.querySelector(sel);
		if (!(b instanceof HTMLElement)) throw new Error(`no ${sel}`);
		setTimeout(() => b.click());
		return t;
	}, button);
}

/** @param {Page} page */
async function longTaskSum(page, /** @type {number} */ t0, /** @type {number} */ t1) {
	return page.evaluate(
		(/** @type {[number, number]} */ [a, b]) =>
			/** @type {any} */ (window).__bench.longTasks
				.filter((/** @type {any} */ t) => t.start >= a && t.start <= b)
				.reduce((/** @type {number} */ s, /** @type {any} */ t) => s + t.duration, 0),
		/** @type {[number, number]} */ ([t0, t1])
	);
}

/** Time after the paint for requests in flight to finish, so their bytes are known. */
const settle = (ms = 800) => new Promise((r) => setTimeout(r, ms));

/**
 * The window of a start: a desktop, or a phone's one-pane layout (390 × 844 CSS px, at scale 1 so
 * the figures compare with the desktop's; the phone's slower CPU is the 4× slow-down).
 * @param {boolean} phone
 */
export function viewportOf(phone) {
	return phone ? { width: 390, height: 844 } : { width: 1280, height: 800 };
}

/**
 * tt-rss's own web UI: login form → first headline of "All articles". tt-rss opens "Fresh" (-3)
 * by default; the probe sets its own deep link `#f=-4&c=0` before its scripts run, so it opens
 * All articles directly, the same list the app is measured on.
 * @param {Browser} browser @param {{ cpu: number, phone?: boolean }} opts
 */
export async function ttrssCold(browser, { cpu, phone = false }) {
	const context = await browser.newContext({ viewport: viewportOf(phone) });
	await addProbe(context, {
		target: TTRSS_HEADLINE,
		hash: '#f=-4&c=0',
		hashPath: new URL(testbed.url).pathname
	});
	const page = await context.newPage();
	const counter = await countRequests(context, page);
	await throttle(page, counter.cdp, cpu);
	await page.goto(testbed.url);
	await page.locator('#login').waitFor();
	await page.waitForLoadState('networkidle');
	// dijit text boxes: typing fills the real inputs.
	await page.locator('input[name="login"]').fill(testbed.user);
	await page.locator('input[name="password"]').fill(testbed.password);
	const t0 = await submitAt(page, 'form input[type="submit"]');
	const painted = await waitPainted(page);
	await settle();
	const stats = summarize(counter.between(t0, painted));
	const blocking = await longTaskSum(page, t0, painted);
	// Warm: the session cookie and HTTP cache are there; open the UI again.
	const warmPage = await context.newPage();
	const warmCounter = await countRequests(context, warmPage);
	await throttle(warmPage, warmCounter.cdp, cpu);
	const w0 = Date.now();
	await warmPage.goto(`${testbed.url}#f=-4&c=0`);
	const warmPainted = await waitPainted(warmPage);
	const warmOrigin = await warmPage.evaluate(() => performance.timeOrigin);
	await settle(300);
	const warmStats = summarize(warmCounter.between(w0 - 50, warmPainted));
	await context.close();
	return {
		cold: { ms: painted - t0, ...stats, longTaskMs: blocking },
		warm: { ms: warmPainted - warmOrigin, ...warmStats }
	};
}

/** Traces and profiles taken so far (the `%n` in their file names). */
let tracesTaken = 0;

/**
 * The file an environment variable names for a trace or profile, its `%n` numbered (1, 2, …), or
 * undefined when the variable is not set.
 * @param {string | undefined} name
 */
function numberedFile(name) {
	return name?.replace('%n', String(++tracesTaken));
}

/**
 * Chromium's own main-thread totals (CDP Performance.getMetrics, seconds) in ms.
 * @param {{ metrics: { name: string, value: number }[] }} reply
 */
function rendererTotals(reply) {
	/** @param {string} name */
	const ms = (name) =>
		Math.round((reply.metrics.find((m) => m.name === name)?.value ?? NaN) * 1000);
	return {
		styleMs: ms('RecalcStyleDuration'),
		layoutMs: ms('LayoutDuration'),
		scriptMs: ms('ScriptDuration'),
		taskMs: ms('TaskDuration')
	};
}

/**
 * Waits for the page's service worker to be active, for at most `timeout` ms: a worker that never
 * activates fails the run with a message instead of holding the benchmark for ever.
 * @param {import('@playwright/test').Page} page
 */
async function workerReady(page, timeout = 30_000) {
	const ready = await page.evaluate(
		(ms) =>
			Promise.race([
				navigator.serviceWorker.ready.then(() => true),
				new Promise((resolve) => setTimeout(() => resolve(false), ms))
			]),
		timeout
	);
	if (!ready) throw new Error(`no active service worker within ${timeout} ms on ${page.url()}`);
}

/**
 * The app, from a fresh profile: /login (service worker installed while the form is filled in) →
 * submit → the app's start screen → "All articles" (/feed/-4, clicked by the probe as soon as the
 * link exists) → first headline row. Then, in the same profile: warm start (a new tab opening
 * /feed/-4 with the worker and caches filled) and offline start (the same with the network cut).
 * @param {Browser} browser @param {{ cpu: number, origin: string, phone?: boolean }} opts
 */
export async function appStarts(browser, { cpu, origin, phone = false }) {
	const context = await browser.newContext({ viewport: viewportOf(phone) });
	await addProbe(context, {
		target: APP_HEADLINE,
		click: APP_ALL_ARTICLES,
		milestones: ['.list-pane', APP_ALL_ARTICLES]
	});
	const page = await context.newPage();
	const counter = await countRequests(context, page);
	await throttle(page, counter.cdp, cpu);
	await page.goto(`${origin}/login`);
	await workerReady(page);
	await page.waitForLoadState('networkidle');
	await page.getByLabel('User name', { exact: true }).fill(testbed.user);
	await page.getByLabel('Password', { exact: true }).fill(testbed.password);
	// BENCH_TRACE_COLD=file.json: a Chromium trace of the cold start too (`%n` numbers them).
	const coldTrace = numberedFile(process.env.BENCH_TRACE_COLD);
	if (coldTrace) await browser.startTracing(page, { path: coldTrace });
	// BENCH_PROFILE_COLD=file.cpuprofile: the V8 CPU profile of the cold start (`%n` numbers them).
	const coldProfile = numberedFile(process.env.BENCH_PROFILE_COLD);
	if (coldProfile) {
		await counter.cdp.send('Profiler.enable');
		await counter.cdp.send('Profiler.setSamplingInterval', { interval: 500 });
		await counter.cdp.send('Profiler.start');
	}
	const t0 = await submitAt(page, 'form button[type="submit"]');
	const painted = await waitPainted(page);
	if (coldTrace) await browser.stopTracing();
	if (coldProfile) {
		const { profile } = await counter.cdp.send('Profiler.stop');
		writeFileSync(coldProfile, JSON.stringify(profile));
	}
	await settle();
	const cold = {
		ms: painted - t0,
		...summarize(counter.between(t0, painted)),
		longTaskMs: await longTaskSum(page, t0, painted),
		/** ms after submit at which the list shell and the "All articles" link first existed */
		milestones: await page.evaluate(
			(t) =>
				Object.fromEntries(
					Object.entries(/** @type {any} */ (window).__bench.seen).map(([k, v]) => [
						k,
						Math.round(/** @type {number} */ (v) - t)
					])
				),
			t0
		),
		urls: counter.between(t0, painted).map((r) => `${r.source} ${r.from} ${r.url}`),
		// The network requests on a time line (ms after submit), to see the critical path.
		timeline: counter
			.between(t0, painted)
			.filter((r) => r.source === 'network')
			.map(
				(r) =>
					`${Math.round(r.start - t0)}–${r.end ? Math.round(r.end - t0) : '?'} ${r.op ?? new URL(r.url).pathname}`
			)
	};
	// Let the app finish what it does after the first paint (cache writes, counters).
	await page.waitForLoadState('networkidle');
	await settle(1000);
	await page.close();

	/** @param {boolean} offline */
	const reopen = async (offline) => {
		const p = await context.newPage();
		const c = await countRequests(context, p);
		await throttle(p, c.cdp, cpu);
		// BENCH_TRACE=file.json: a Chromium trace of the warm start, to see where its time goes
		// (BENCH_TRACE_CPU=1: of the unthrottled start only; BENCH_TRACE_MS=n: n ms past the paint).
		const traceCpu = process.env.BENCH_TRACE_CPU;
		// A `%n` in the name numbers the traces of a run of several (1, 2, …).
		const trace =
			!offline && (!traceCpu || Number(traceCpu) === cpu)
				? numberedFile(process.env.BENCH_TRACE)
				: undefined;
		if (trace) await browser.startTracing(p, { path: trace });
		// The renderer's own totals up to the paint (style, layout, script, all tasks): where a
		// start's main-thread time goes, without a trace's cost.
		await c.cdp.send('Performance.enable');
		const start = Date.now();
		await p.goto(`${origin}/feed/-4`);
		const done = await waitPainted(p);
		const renderer = rendererTotals(await c.cdp.send('Performance.getMetrics'));
		if (trace) {
			await new Promise((resolve) => setTimeout(resolve, Number(process.env.BENCH_TRACE_MS ?? 0)));
			await browser.stopTracing();
		}
		const timeOrigin = await p.evaluate(() => performance.timeOrigin);
		// Where the time goes: document, scripts (served by the worker), first paint.
		const phases = await p.evaluate(() => {
			const nav = /** @type {PerformanceNavigationTiming | undefined} */ (
				performance.getEntriesByType('navigation')[0]
			);
			const scripts = performance
				.getEntriesByType('resource')
				.filter((e) => e.name.endsWith('.js'));
			const fcp = performance.getEntriesByName('first-contentful-paint')[0];
			const rec = /** @type {any} */ (window).__bench;
			/** @type {Record<string, number>} */
			const seen = {};
			for (const [k, v] of Object.entries(rec.seen)) seen[k] = v - performance.timeOrigin;
			return {
				// The app's own performance.mark()s, if it sets any (none yet).
				marks: performance
					.getEntriesByType('mark')
					.map((m) => `${m.name} ${Math.round(m.startTime)}`),
				seen,
				fromSnapshot: rec.fromSnapshot,
				htmlEnd: nav?.responseEnd ?? NaN,
				domContentLoaded: nav?.domContentLoadedEventEnd ?? NaN,
				lastScriptEnd: Math.max(
					0,
					...scripts.map((e) => /** @type {PerformanceResourceTiming} */ (e).responseEnd)
				),
				firstContentfulPaint: fcp?.startTime ?? NaN,
				// The start snapshot the worker put in (boot/start-snapshot.ts): its size and elements.
				snapshot: (() => {
					const kept = document.querySelector('.start-snapshot');
					return kept
						? {
								chars: kept.innerHTML.length,
								elements: kept.querySelectorAll('*').length,
								svgs: kept.querySelectorAll('svg').length
							}
						: null;
				})(),
				stylesheets: document.styleSheets.length,
				// A fixed loop's time: shows whether the CPU slow-down held for this page.
				spinMs: (() => {
					const t = performance.now();
					let x = 0;
					for (let i = 0; i < 3e6; i++) x += Math.sqrt(i);
					return x > 0 ? performance.now() - t : NaN;
				})()
			};
		});
		await settle(offline ? 200 : 500);
		const s = summarize(c.between(start - 50, done));
		const jsFiles = c
			.between(start - 50, done)
			.filter((r) => r.from === 'page' && new URL(r.url).pathname.endsWith('.js'))
			.map((r) => new URL(r.url).pathname);
		c.stop();
		await p.waitForLoadState('networkidle').catch(() => {});
		await p.close();
		const apiCalls = c
			.between(start - 50, done)
			.filter((r) => r.op)
			.map(
				(r) =>
					`${r.op} ${Math.round(r.start - timeOrigin)}–${r.end ? Math.round(r.end - timeOrigin) : '?'}`
			);
		return { ms: done - timeOrigin, ...s, phases: { ...phases, renderer }, apiCalls, jsFiles };
	};
	const warm = await reopen(false);
	await context.setOffline(true);
	await context.route('**/tt-rss/**', (route) => route.abort('internetdisconnected'));
	const offline = await reopen(true);
	await context.unrouteAll({ behavior: 'ignoreErrors' });
	await context.setOffline(false);
	counter.stop();
	await context.close();
	return { cold, warm, offline };
}

/** A page with one headline row and nothing else: the floor under any start on this machine. */
export const FLOOR_HTML =
	'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ' +
	'content="width=device-width, initial-scale=1"><title>Reader</title></head><body>' +
	'<div class="headline" data-article-id="1">A headline</div></body></html>';

/**
 * The same probe on FLOOR_HTML in a new tab: what a browser tab, the harness's per-document work
 * and a first frame cost here before any app does anything (tt-rss and the app both pay it).
 * @param {Browser} browser @param {{ cpu: number, url: string, phone?: boolean }} opts
 */
export async function floorStart(browser, { cpu, url, phone = false }) {
	const context = await browser.newContext({ viewport: viewportOf(phone) });
	await addProbe(context, { target: APP_HEADLINE });
	const page = await context.newPage();
	const counter = await countRequests(context, page);
	await throttle(page, counter.cdp, cpu);
	await page.goto(url);
	const painted = await waitPainted(page);
	const timeOrigin = await page.evaluate(() => performance.timeOrigin);
	counter.stop();
	await context.close();
	return { ms: painted - timeOrigin };
}

/**
 * Item 4: gzip and brotli sizes of the JS files the first screen loaded (read from the build),
 * and the whole build's size.
 * @param {string} buildDir @param {string[]} files URL paths
 */
export function jsSizes(buildDir, files) {
	const unique = [...new Set(files)].filter((f) => !f.endsWith('/service-worker.js'));
	let raw = 0;
	let gzip = 0;
	let brotli = 0;
	/** @type {{ file: string, raw: number, gzip: number }[]} */
	const perFile = [];
	for (const f of unique) {
		const buf = readFileSync(join(buildDir, f));
		const g = gzipSync(buf, { level: 9 }).length;
		raw += buf.length;
		gzip += g;
		brotli += brotliCompressSync(buf, {
			params: { [constants.BROTLI_PARAM_QUALITY]: 11 }
		}).length;
		perFile.push({ file: f, raw: buf.length, gzip: g });
	}
	perFile.sort((a, b) => b.gzip - a.gzip);
	return { files: unique.length, raw, gzip, brotli, perFile };
}

/** @param {string} dir */
export function buildSize(dir) {
	let total = 0;
	let js = 0;
	let files = 0;
	/** @param {string} d */
	const walk = (d) => {
		for (const name of readdirSync(d)) {
			const p = join(d, name);
			const st = statSync(p);
			if (st.isDirectory()) walk(p);
			else {
				files++;
				total += st.size;
				if (name.endsWith('.js')) js += st.size;
			}
		}
	};
	walk(dir);
	return { files, total, js };
}
/**
 * Signs in through the app's form in a fresh context, with settings applied before the app starts.
 * @param {Browser} browser @param {string} origin @param {object} settings
 */
export async function signedInApp(browser, origin, settings) {
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	const page = await context.newPage();
	await page.goto(`${origin}/login`);
	await page.evaluate((s) => localStorage.setItem('reader.settings', s), JSON.stringify(settings));
	await page.reload();
	await page.getByLabel('User name', { exact: true }).fill(testbed.user);
	await page.getByLabel('Password', { exact: true }).fill(testbed.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	// Sign-in lands on All articles (wide screens) or the tree (phones): anywhere but /login.
	await page.waitForURL((u) => !u.pathname.endsWith('/login'));
	await workerReady(page);
	return { context, page };
}

/**
 * Item 5: the 10,000-headline feed scrolled from top to bottom at ~3 rows per frame (a quick
 * fling, sustained), loading pages as the list asks. Samples DOM size every 10 frames.
 * @param {Browser} browser @param {string} origin @param {number} feedId
 */
export async function longList(browser, origin, feedId) {
	const { context, page } = await signedInApp(browser, origin, { viewMode: 'all_articles' });
	await addProbe(context, { target: APP_HEADLINE });
	await page.goto(`${origin}/feed/${feedId}`);
	await waitPainted(page);
	await page.waitForLoadState('networkidle');
	const result = await page.evaluate(
		async ({ selector, expected }) => {
			const viewport = document.querySelector('.viewport');
			if (!(viewport instanceof HTMLElement)) throw new Error('no .viewport');
			/** @type {number[]} */
			const frames = [];
			/** @type {number[]} */
			const rows = [];
			/** @type {number[]} */
			const nodes = [];
			const rec = /** @type {any} */ (window).__bench;
			const ltStart = rec.longTasks.length;
			const started = performance.now();
			let last = started;
			let frame = 0;
			let stuckSince = started;
			let lastTop = -1;
			const count = () =>
				Number(viewport.querySelector('[data-count]')?.getAttribute('data-count'));
			await new Promise((resolve) => {
				const step = (/** @type {number} */ now) => {
					frames.push(now - last);
					last = now;
					if (frame++ % 10 === 0) {
						rows.push(document.querySelectorAll(selector).length);
						nodes.push(document.getElementsByTagName('*').length);
					}
					viewport.scrollTop += 350;
					const atEnd = viewport.scrollTop + viewport.clientHeight >= viewport.scrollHeight - 2;
					if (viewport.scrollTop !== lastTop) {
						lastTop = viewport.scrollTop;
						stuckSince = now;
					}
					if (
						(atEnd && count() >= expected) ||
						now - stuckSince > 15_000 ||
						now - started > 240_000
					) {
						resolve(undefined);
						return;
					}
					requestAnimationFrame(step);
				};
				requestAnimationFrame(step);
			});
			const tasks = rec.longTasks.slice(ltStart);
			return {
				loaded: count(),
				seconds: (performance.now() - started) / 1000,
				frames: frames.slice(1),
				maxRows: Math.max(...rows),
				maxNodes: Math.max(...nodes),
				longTasks: tasks.length,
				longestTask: Math.max(0, ...tasks.map((/** @type {any} */ t) => t.duration)),
				longTaskMs: tasks.reduce(
					(/** @type {number} */ s, /** @type {any} */ t) => s + t.duration,
					0
				)
			};
		},
		{ selector: APP_HEADLINE, expected: 10_000 }
	);
	await context.close();
	const { frames, ...rest } = result;
	return {
		...rest,
		frameMedian: median(frames),
		frameP95: percentile(frames, 95),
		frameMax: Math.max(...frames)
	};
}

/**
 * Item 6: from clicking the 100 KB article's row to the frame in which its body is in the DOM.
 * @param {Browser} browser @param {string} origin @param {number} feedId @param {number} articleId
 * @param {number} runs
 */
export async function bigArticle(browser, origin, feedId, articleId, runs) {
	const { context, page } = await signedInApp(browser, origin, { viewMode: 'all_articles' });
	/** @type {number[]} */
	const times = [];
	for (let i = 0; i < runs; i++) {
		await page.goto(`${origin}/feed/${feedId}`);
		// The list is virtual (rows exist only near the viewport): scroll until the row exists.
		await page.locator(APP_HEADLINE).first().waitFor();
		await page.evaluate(async (sel) => {
			const viewport = document.querySelector('.viewport');
			if (!(viewport instanceof HTMLElement)) throw new Error('no .viewport');
			const end = performance.now() + 60_000;
			while (!document.querySelector(sel) && performance.now() < end) {
				viewport.scrollTop += 600;
				await new Promise((r) => setTimeout(r, 30));
			}
			document.querySelector(sel)?.scrollIntoView({ block: 'center' });
		}, `.headline[data-article-id="${articleId}"] a.link`);
		await page.locator(`.headline[data-article-id="${articleId}"] a.link`).waitFor();
		const ms = await page.evaluate(
			(sel) =>
				new Promise((resolve, reject) => {
					const link = document.querySelector(sel);
					if (!(link instanceof HTMLElement)) return reject(new Error('no row'));
					const t0 = performance.now();
					const done = () => {
						const body = document.querySelector('.article-content');
						if (body && (body.textContent ?? '').length > 50_000) {
							observer.disconnect();
							requestAnimationFrame(() => resolve(performance.now() - t0));
							return true;
						}
						return false;
					};
					const observer = new MutationObserver(done);
					observer.observe(document.body, { childList: true, subtree: true });
					link.click();
					setTimeout(() => reject(new Error('article did not render in 30 s')), 30_000);
				}),
			`.headline[data-article-id="${articleId}"] a.link`
		);
		times.push(/** @type {number} */ (ms));
	}
	await context.close();
	return { ms: median(times), runs: times };
}

/**
 * Item 7: "Make available offline" of 1,000 articles through the settings screen, when the app has
 * the button. Returns undefined when it does not.
 * @param {Browser} browser @param {string} origin
 */
export async function offlineDownload(browser, origin) {
	const { context, page } = await signedInApp(browser, origin, { offlineArticles: 1000 });
	await addProbe(context, { target: 'body' });
	await page.goto(`${origin}/settings`);
	await page.waitForLoadState('networkidle');
	const button = page.getByRole('button', { name: /available offline/ });
	if ((await button.count()) === 0) {
		await context.close();
		return undefined;
	}
	const counter = await countRequests(context, page);
	const t0 = Date.now();
	await button.first().click();
	await page.getByText(/\d+ articles available offline\./).waitFor({ timeout: 300_000 });
	const t1 = Date.now();
	await settle(500);
	const stats = summarize(counter.between(t0, t1));
	const blocking = await longTaskSum(page, t0, t1);
	const longest = await page.evaluate(
		(/** @type {[number, number]} */ [a, b]) =>
			Math.max(
				0,
				.../** @type {any} */ (window).__bench.longTasks
					.filter((/** @type {any} */ t) => t.start >= a && t.start <= b)
					.map((/** @type {any} */ t) => t.duration)
			),
		/** @type {[number, number]} */ ([t0, t1])
	);
	const text = await page.getByText(/\d+ articles available offline\./).textContent();
	await context.close();
	return { ms: t1 - t0, ...stats, longTaskMs: blocking, longestTask: longest, status: text };
}
