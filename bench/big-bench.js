// `npm run bench -- --only big`: the app and tt-rss's web UI on the big account (bench/big-setup.sh:
// 1,000 feeds in 50 categories, 100,000 articles, 20,000 unread), in the same Chromium, same run.
//   starts      cold and warm start (as items 1–2), at 1× and 4× CPU
//   tree        the feed tree's first paint on a warm start; a scroll through all 1,000 feeds
//               (DOM nodes, long tasks, frames)
//   category    opening "Topic 01" (5,000 unread) from the tree → its first headline
//   counters    one counters refresh (tt-rss: getAllCounters; the app: an idle sync's getCounters)
//   heap        JS heap after a forced GC (CDP) after 10,000 headlines, and over 200 articles
//               opened one after another (j); IndexedDB use per 1,000 cached articles
//   catchup     marking "Topic 01" read; the big database is put back afterwards
// BENCH_BIG_STEPS=tree,category runs only those (starts, tree, category, session, catchup).
// Each UI is measured on a copy of ttrss_big swapped in as the live database (bench/big-use-db.sh).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { addProbe, countRequests, median, percentile, testbed, waitPainted } from './browser.js';
import { APP_HEADLINE, TTRSS_HEADLINE, appStarts, signedInApp, ttrssCold } from './scenarios.js';
import { BIG } from './make-big-feeds.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIG_DB = `${testbed.dbName}_big`;

/** @typedef {import('@playwright/test').Browser} Browser */
/** @typedef {import('@playwright/test').Page} Page */
/** @typedef {import('@playwright/test').BrowserContext} BrowserContext */

/** @param {string} sql @param {string} [db] */
function sqlValues(sql, db = testbed.dbName) {
	return execFileSync(
		'runuser',
		['-u', 'postgres', '--', 'psql', '-X', '-A', '-t', '-d', db, '-c', sql],
		{
			encoding: 'utf8',
			cwd: '/tmp'
		}
	)
		.trim()
		.split('\n')
		.filter(Boolean);
}

/** Whether bench/big-setup.sh made the big database. */
export function bigAvailable() {
	return sqlValues(`select 1 from pg_database where datname = '${BIG_DB}'`, 'postgres').length > 0;
}

/** The big database as the live one (a fresh copy: sessions and marks of the last one are gone). */
function swapIn() {
	execFileSync('bash', ['bench/big-use-db.sh'], { cwd: ROOT, stdio: 'ignore' });
}

/** Ids the scenarios need, from the live (big) database. */
function bigIds() {
	const hotCat = Number(
		sqlValues(`select c.id from ttrss_feed_categories c join ttrss_users u on u.id = c.owner_uid
		  where u.login = '${testbed.user}' and c.title = '${BIG.hotCategory}'`)[0]
	);
	const hotArticles =
		sqlValues(`select e.ref_id from ttrss_user_entries e join ttrss_feeds f on f.id = e.feed_id
	  where f.cat_id = ${hotCat}`).map(Number);
	const feeds = Number(
		sqlValues(`select count(*) from ttrss_feeds f join ttrss_users u on u.id = f.owner_uid
		  where u.login = '${testbed.user}'`)[0]
	);
	return { hotCat, hotArticles, feeds };
}

/** @param {Page} page @param {number} t0 @param {number} t1 wall-clock ms */
function longTasks(page, t0, t1) {
	return page.evaluate((/** @type {[number, number]} */ [a, b]) => {
		const tasks = /** @type {any} */ (window).__bench.longTasks.filter(
			(/** @type {any} */ t) => t.start >= a && t.start <= b
		);
		return {
			count: tasks.length,
			sumMs: tasks.reduce((/** @type {number} */ s, /** @type {any} */ t) => s + t.duration, 0),
			longestMs: Math.max(0, ...tasks.map((/** @type {any} */ t) => t.duration))
		};
	}, /** @type {[number, number]} */ ([t0, t1]));
}

/**
 * tt-rss's own objects (App, Feeds, Headlines, xhrPost) are top-level bindings of its scripts, not
 * properties of window: read by name in the page.
 */
const TT_GLOBALS = `({ App, Feeds, Headlines, xhrPost })`;

/** JS heap in use after a forced garbage collection (CDP), in bytes. @param {Page} page */
async function heapAfterGc(page) {
	const cdp = await page.context().newCDPSession(page);
	try {
		await cdp.send('HeapProfiler.enable');
		await cdp.send('HeapProfiler.collectGarbage');
		await cdp.send('HeapProfiler.collectGarbage');
		const { usedSize } = await cdp.send('Runtime.getHeapUsage');
		return usedSize;
	} finally {
		await cdp.detach();
	}
}

/**
 * With BENCH_PROFILE=1, runs `fn` under the V8 CPU profiler (CDP) and returns its result with the
 * ten functions of most self time: where a slow step's time went.
 * @template T @param {Page} page @param {() => Promise<T>} fn
 */
export async function profiled(page, fn) {
	// Off unless asked for: a profiler sampling every 0.2 ms slows the page's own code several times
	// over, and tt-rss's steps run without one.
	if (!process.env.BENCH_PROFILE) return { result: await fn(), top: [], busy: {} };
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Profiler.enable');
	await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
	await cdp.send('Profiler.start');
	const result = await fn();
	const { profile } = await cdp.send('Profiler.stop');
	await cdp.detach();
	/** @type {Map<number, any>} */
	const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
	/** @type {Map<string, number>} */
	const self = new Map();
	const deltas = profile.timeDeltas ?? [];
	(profile.samples ?? []).forEach((id, i) => {
		const f = nodes.get(id)?.callFrame;
		if (!f) return;
		const where = f.url
			? `${f.url.split('/').pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}`
			: '';
		const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
		self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
	});
	const top = [...self.entries()]
		.filter(([k]) => !/^\((idle|program)\)/.test(k))
		.sort((a, b) => b[1] - a[1])
		.slice(0, 10)
		.map(([k, ms]) => `${Math.round(ms)} ms ${k}`);
	// The whole window's time by kind: idle, V8's own (program, GC) and each function's self time
	// summed (`busy.js`), so a profile tells whether the main thread was the bottleneck at all.
	/** @type {Record<string, number>} */
	const busy = { idle: 0, program: 0, gc: 0, js: 0 };
	for (const [k, ms] of self) {
		const kind = k.startsWith('(idle)')
			? 'idle'
			: k.startsWith('(program)')
				? 'program'
				: k.startsWith('(garbage collector)')
					? 'gc'
					: 'js';
		busy[kind] += ms;
	}
	for (const k of Object.keys(busy)) busy[k] = Math.round(busy[k]);
	return { result, top, busy };
}

/**
 * Waits, in the page, for the frame in which a row whose id is in `ids` exists; returns ms from
 * `t0` (page clock). Installed before the click that starts it.
 * @param {Page} page @param {string} rowSelector @param {string} idAttr
 */
function armRowWait(page, rowSelector, idAttr, /** @type {number[]} */ ids) {
	return page.evaluate(
		({ sel, attr, list }) => {
			const want = new Set(list);
			const w = /** @type {any} */ (window);
			w.__rowSeen = new Promise((resolve) => {
				const found = () =>
					[...document.querySelectorAll(sel)].some((el) => {
						const v = attr === 'id' ? el.id.replace(/^RROW-/, '') : el.getAttribute(attr);
						return want.has(Number(v));
					});
				const obs = new MutationObserver(() => {
					if (!found()) return;
					obs.disconnect();
					requestAnimationFrame(() => resolve(performance.now()));
				});
				obs.observe(document.body, { childList: true, subtree: true });
			});
		},
		{ sel: rowSelector, attr: idAttr, list: ids }
	);
}

/** Scrolls the box around `selector` from top to bottom, 350 px a frame; DOM size sampled every
 * 10 frames. @param {Page} page @param {string} selector @param {string} rowSelector */
function scrollThrough(page, selector, rowSelector) {
	return page.evaluate(
		async ({ sel, rowSel }) => {
			// The tree's scroll box: the nearest ancestor of its first row that scrolls (once the tree
			// has rows enough to scroll: tt-rss's fills in after its first row is shown).
			const scroller = () => {
				let el = document.querySelector(sel);
				while (
					el instanceof HTMLElement &&
					!(el.scrollHeight > el.clientHeight && /auto|scroll/.test(getComputedStyle(el).overflowY))
				)
					el = el.parentElement;
				return el instanceof HTMLElement ? el : undefined;
			};
			const waitedFrom = performance.now();
			let found = scroller();
			while (!found && performance.now() - waitedFrom < 10_000) {
				await new Promise((resolve) => setTimeout(resolve, 100));
				found = scroller();
			}
			if (!found) throw new Error(`nothing scrolls around ${sel}`);
			const box = found;
			box.scrollTop = 0;
			const rec = /** @type {any} */ (window).__bench;
			const lt = rec.longTasks.length;
			/** @type {number[]} */ const frames = [];
			/** @type {number[]} */ const nodes = [];
			/** @type {number[]} */ const rows = [];
			let last = performance.now();
			let frame = 0;
			const t0 = performance.now();
			await new Promise((resolve) => {
				const step = (/** @type {number} */ now) => {
					frames.push(now - last);
					last = now;
					if (frame++ % 10 === 0) {
						nodes.push(document.getElementsByTagName('*').length);
						rows.push(document.querySelectorAll(rowSel).length);
					}
					const before = box.scrollTop;
					box.scrollTop += 350;
					if (box.scrollTop === before || now - t0 > 60_000) return resolve(undefined);
					requestAnimationFrame(step);
				};
				requestAnimationFrame(step);
			});
			const tasks = rec.longTasks.slice(lt);
			return {
				ms: performance.now() - t0,
				frames: frames.slice(1),
				maxNodes: Math.max(...nodes),
				maxRows: Math.max(...rows),
				longTasks: tasks.length,
				longestTask: Math.max(0, ...tasks.map((/** @type {any} */ t) => t.duration))
			};
		},
		{ sel: selector, rowSel: rowSelector }
	);
}

/** @param {{ frames: number[] } & Record<string, any>} r */
function frameStats({ frames, ...rest }) {
	return {
		...rest,
		frameMedian: median(frames),
		frameP95: percentile(frames, 95),
		frameMax: Math.max(...frames)
	};
}

/** A tt-rss web UI context, signed in (form), with the probe for `target`. @param {Browser} browser */
async function ttrssSignedIn(browser, /** @type {string} */ target) {
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	await addProbe(context, { target, hash: '#f=-4&c=0', hashPath: new URL(testbed.url).pathname });
	const page = await context.newPage();
	page.on('dialog', (d) => void d.accept());
	await page.goto(testbed.url);
	await page.locator('input[name="login"]').fill(testbed.user);
	await page.locator('input[name="password"]').fill(testbed.password);
	// dijit keeps the real submit button off screen: clicked from inside the page, as ttrssCold does.
	await page.evaluate(() =>
		/** @type {HTMLElement} */ (document.querySelector('form input[type="submit"]')).click()
	);
	await page.locator(TTRSS_HEADLINE).first().waitFor({ timeout: 120_000 });
	await page.waitForLoadState('networkidle');
	return { context, page };
}

const TT_TREE = '#feedTree .dijitTreeRow';
/** tt-rss's tree nodes carry no ids in the DOM: its category by its label. */
const ttCategory = (/** @type {Page} */ page) =>
	page.locator('#feedTree .dijitTreeLabel').filter({ hasText: new RegExp(`^${BIG.hotCategory}$`) });
const APP_TREE_ROW = 'aside.side a.row';
const APP_CAT = (/** @type {number} */ id) => `aside.side a[href$="/cat/${id}"]`;

/** Tree first paint (warm start) and a scroll through it. @param {Browser} browser */
async function treeTtrss(browser, /** @type {number} */ hotCat) {
	// One probe per context: its target is the tree here (the sign-in page's is not measured).
	const { context } = await ttrssSignedIn(browser, TT_TREE);
	void hotCat;
	const page = await context.newPage();
	const counter = await countRequests(context, page);
	await page.goto(`${testbed.url}#f=-4&c=0`);
	const painted = await waitPainted(page, 120_000);
	const firstPaint = painted - (await page.evaluate(() => performance.timeOrigin));
	await page.waitForLoadState('networkidle');
	const tasks = await longTasks(page, painted - firstPaint, painted);
	const scroll = await scrollThrough(page, TT_TREE, TT_TREE);
	counter.stop();
	await context.close();
	return { firstPaint, startLongTasks: tasks, scroll: frameStats(scroll) };
}

/** @param {Browser} browser @param {string} origin */
async function treeApp(browser, origin, /** @type {number} */ hotCat) {
	const { context, page: first } = await signedInApp(browser, origin, {});
	await first.locator(APP_CAT(hotCat)).waitFor({ timeout: 120_000 });
	await first.close();
	await addProbe(context, { target: APP_CAT(hotCat) });
	const page = await context.newPage();
	const counter = await countRequests(context, page);
	await page.goto(`${origin}/feed/-4`);
	const painted = await waitPainted(page, 120_000);
	const firstPaint = painted - (await page.evaluate(() => performance.timeOrigin));
	await page.waitForLoadState('networkidle');
	const tasks = await longTasks(page, painted - firstPaint, painted);
	const { result: scroll, top } = await profiled(page, () =>
		scrollThrough(page, APP_TREE_ROW, APP_TREE_ROW)
	);
	counter.stop();
	await context.close();
	return {
		firstPaint,
		startLongTasks: tasks,
		scroll: frameStats(scroll),
		scrollProfile: top
	};
}

/** Click on the category in the tree → the frame with its first headline. */
async function categoryTtrss(browser, /** @type {ReturnType<typeof bigIds>} */ ids) {
	const { context, page } = await ttrssSignedIn(browser, TTRSS_HEADLINE);
	await armRowWait(page, TTRSS_HEADLINE, 'id', ids.hotArticles);
	const label = ttCategory(page);
	await label.scrollIntoViewIfNeeded();
	const t0 = await page.evaluate(() => performance.now());
	const w0 = Date.now();
	await label.click();
	const t1 = /** @type {number} */ (
		await page.evaluate(() => /** @type {any} */ (window).__rowSeen)
	);
	const tasks = await longTasks(page, w0 - 50, Date.now());
	await context.close();
	return { ms: t1 - t0, longTasks: tasks };
}

/** @param {Browser} browser @param {string} origin */
async function categoryApp(browser, origin, /** @type {ReturnType<typeof bigIds>} */ ids) {
	const { context, page: first } = await signedInApp(browser, origin, {});
	await first.close();
	await addProbe(context, { target: APP_HEADLINE });
	const page = await context.newPage();
	await page.goto(`${origin}/feed/-4`);
	await page.locator(APP_CAT(ids.hotCat)).waitFor({ timeout: 120_000 });
	await page.waitForLoadState('networkidle');
	await armRowWait(page, APP_HEADLINE, 'data-article-id', ids.hotArticles);
	const link = page.locator(APP_CAT(ids.hotCat));
	await link.scrollIntoViewIfNeeded();
	const t0 = await page.evaluate(() => performance.now());
	const w0 = Date.now();
	const { result: t1, top } = await profiled(page, async () => {
		await page.evaluate(
			(sel) => /** @type {HTMLElement} */ (document.querySelector(sel)).click(),
			APP_CAT(ids.hotCat)
		);
		const seen = /** @type {number} */ (
			await page.evaluate(() => /** @type {any} */ (window).__rowSeen)
		);
		await page.waitForLoadState('networkidle');
		return seen;
	});
	const tasks = await longTasks(page, w0 - 50, Date.now());
	await context.close();
	return { ms: t1 - t0, longTasks: tasks, profile: top };
}

/** tt-rss: one getAllCounters round, applied to its tree. */
async function countersTtrss(browser) {
	const { context, page } = await ttrssSignedIn(browser, TTRSS_HEADLINE);
	/** @type {number[]} */
	const times = [];
	const w0 = Date.now();
	for (let i = 0; i < 5; i++) {
		times.push(
			await page.evaluate(
				(globals) =>
					new Promise((resolve) => {
						const w = /** @type {any} */ (globalThis.eval(globals));
						const t = performance.now();
						w.xhrPost(
							'backend.php',
							{ op: 'rpc', method: 'getAllCounters', seq: w.App.next_seq() },
							(/** @type {any} */ tr) => {
								w.App.handleRpcJson(tr);
								requestAnimationFrame(() => resolve(performance.now() - t));
							}
						);
					}),
				TT_GLOBALS
			)
		);
	}
	const tasks = await longTasks(page, w0, Date.now());
	await context.close();
	return { ms: median(times), runs: times, longTasks: tasks };
}

/** The app's last sync (ms) from its database. @param {Page} page */
function lastSyncAt(page) {
	return page.evaluate(
		() =>
			new Promise((resolve) => {
				const open = indexedDB.open('ttrss-reader');
				open.onerror = () => resolve(0);
				open.onsuccess = () => {
					const db = open.result;
					if (!db.objectStoreNames.contains('sync')) return resolve(0);
					const req = db.transaction('sync').objectStore('sync').getAll();
					req.onsuccess = () => {
						db.close();
						resolve(Math.max(0, ...req.result.map((/** @type {any} */ r) => r?.lastSyncAt ?? 0)));
					};
					req.onerror = () => resolve(0);
				};
			})
	);
}

/** @param {Page} page @param {number} after */
export async function nextSync(page, after, timeout = 600_000) {
	const end = Date.now() + timeout;
	for (;;) {
		const at = /** @type {number} */ (await lastSyncAt(page));
		if (at > after) return at;
		if (Date.now() > end) throw new Error('no sync came');
		await new Promise((r) => setTimeout(r, 200));
	}
}

/**
 * The app, signed in with a sync every few seconds: the first full sync (500 articles kept), its
 * IndexedDB use, then idle syncs (one getCounters, the tree's counters applied) with their long
 * tasks; then the heap after 10,000 headlines and over 200 articles.
 * @param {Browser} browser @param {string} origin @param {(m: string) => void} log
 */
async function appSession(browser, origin, log) {
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	await addProbe(context, { target: APP_HEADLINE });
	const page = await context.newPage();
	await page.goto(`${origin}/login`);
	await page.evaluate(() => {
		localStorage.setItem('reader.settings', JSON.stringify({ viewMode: 'all_articles' }));
		localStorage.setItem('reader.syncIntervalMs', '4000');
	});
	await page.reload();
	const counter = await countRequests(context, page);
	await page.getByLabel('User name', { exact: true }).fill(testbed.user);
	await page.getByLabel('Password', { exact: true }).fill(testbed.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	log("big: the app's first full sync");
	const firstSync = await nextSync(page, 0);
	const idb = await page.evaluate(async () => {
		const usage = (await navigator.storage.estimate()).usage ?? 0;
		const count = await new Promise((resolve) => {
			const open = indexedDB.open('ttrss-reader');
			open.onsuccess = () => {
				const req = open.result.transaction('articles').objectStore('articles').count();
				req.onsuccess = () => {
					open.result.close();
					resolve(req.result);
				};
			};
		});
		return { usage, articles: /** @type {number} */ (count) };
	});
	// Idle syncs: each is one getCounters whose reply the tree takes.
	log('big: idle syncs (counters refresh)');
	const a = await nextSync(page, firstSync);
	/** @type {number[]} */
	const syncMs = [];
	let prev = a;
	for (let i = 0; i < 3; i++) {
		const at = await nextSync(page, prev);
		const reqs = counter.between(prev, at).filter((r) => r.op === 'getCounters');
		if (reqs[0]) syncMs.push(at - reqs[0].start);
		prev = at;
	}
	const counters = { ms: median(syncMs), runs: syncMs, longTasks: await longTasks(page, a, prev) };
	// Syncs no more while the heap is measured.
	await page.evaluate(() => localStorage.setItem('reader.syncIntervalMs', '3600000'));
	counter.stop();

	log('big: heap after 10,000 headlines');
	const list = await context.newPage();
	await page.close();
	await list.goto(`${origin}/feed/-4`);
	await list.locator(APP_HEADLINE).first().waitFor({ timeout: 60_000 });
	await list.waitForLoadState('networkidle');
	const heapStart = await heapAfterGc(list);
	const loaded = await list.evaluate(async () => {
		const viewport = document.querySelector('.viewport');
		if (!(viewport instanceof HTMLElement)) throw new Error('no .viewport');
		const count = () => Number(viewport.querySelector('[data-count]')?.getAttribute('data-count'));
		const t0 = performance.now();
		while (count() < 10_000 && performance.now() - t0 < 300_000) {
			viewport.scrollTop += 2000;
			await new Promise((r) => requestAnimationFrame(r));
		}
		return count();
	});
	const heap10k = await heapAfterGc(list);

	log('big: heap over 200 articles');
	await list.evaluate(() => {
		const viewport = /** @type {HTMLElement} */ (document.querySelector('.viewport'));
		viewport.scrollTop = 0;
	});
	await list.locator(`${APP_HEADLINE} a.link`).first().click();
	await list.locator('.article-content').waitFor();
	/** @param {number} n */
	const openNext = async (n) => {
		for (let i = 0; i < n; i++) {
			const before = list.url();
			await list.locator('.article-content').first().waitFor();
			await list.keyboard.press('j');
			await list.waitForURL((u) => u.href !== before, { timeout: 30_000 });
			await list.locator('.article-content').first().waitFor();
		}
	};
	await openNext(10);
	const heap10 = await heapAfterGc(list);
	const w0 = Date.now();
	const { top: articleProfile } = await profiled(list, () => openNext(190));
	const heap200 = await heapAfterGc(list);
	const articleTasks = await longTasks(list, w0, Date.now());
	await context.close();
	return {
		idb: { ...idb, perThousand: idb.articles ? (idb.usage / idb.articles) * 1000 : NaN },
		counters,
		heap: {
			start: heapStart,
			loaded,
			after10k: heap10k,
			after10Articles: heap10,
			after200Articles: heap200,
			articleLongTasks: articleTasks,
			articleProfile
		}
	};
}

/** tt-rss's heap after its start, and after opening 200 articles one after another (n). */
async function heapTtrss(browser) {
	const { context, page } = await ttrssSignedIn(browser, TTRSS_HEADLINE);
	const start = await heapAfterGc(page);
	await page.locator(TTRSS_HEADLINE).first().click();
	for (let i = 0; i < 200; i++) {
		await page.evaluate((globals) => globalThis.eval(globals).Headlines.move('next'), TT_GLOBALS);
		if (i === 9) await page.waitForLoadState('networkidle');
	}
	await page.waitForLoadState('networkidle');
	const after200 = await heapAfterGc(page);
	await context.close();
	return { start, after200Articles: after200 };
}

/** Mark "Topic 01" read from its list. */
async function catchupTtrss(browser, /** @type {number} */ hotCat) {
	const { context, page } = await ttrssSignedIn(browser, TTRSS_HEADLINE);
	await ttCategory(page).click();
	await page.waitForLoadState('networkidle');
	const w0 = Date.now();
	const ms = await page.evaluate(
		([cat, globals]) =>
			new Promise((resolve) => {
				const w = /** @type {any} */ (globalThis.eval(String(globals)));
				const t = performance.now();
				w.Feeds.catchupFeed(cat, true);
				// Never waits for ever (the lock is shared): NaN after 60 s without a zero.
				const poll = () => {
					const left = Number(w.Feeds.getUnread(cat, true));
					if (left === 0) resolve(performance.now() - t);
					else if (performance.now() - t > 60_000) resolve(NaN);
					else setTimeout(poll, 5);
				};
				poll();
			}),
		[hotCat, TT_GLOBALS]
	);
	const tasks = await longTasks(page, w0, Date.now());
	await context.close();
	return { ms, longTasks: tasks };
}

/** @param {Browser} browser @param {string} origin */
async function catchupApp(browser, origin, /** @type {number} */ hotCat) {
	const { context, page: first } = await signedInApp(browser, origin, {});
	await first.close();
	await addProbe(context, { target: APP_HEADLINE });
	const page = await context.newPage();
	await page.goto(`${origin}/cat/${hotCat}`);
	await page.locator(APP_HEADLINE).first().waitFor({ timeout: 60_000 });
	await page.locator(APP_CAT(hotCat)).waitFor({ timeout: 60_000 });
	await page.waitForLoadState('networkidle');
	await page.locator('summary', { hasText: 'Mark read' }).click();
	const w0 = Date.now();
	const t0 = await page.evaluate(() => performance.now());
	await page.getByRole('button', { name: 'All articles', exact: true }).click();
	await page.locator(`${APP_CAT(hotCat)} .count`).waitFor({ state: 'detached', timeout: 60_000 });
	const t1 = await page.evaluate(() => performance.now());
	await page.waitForLoadState('networkidle');
	const tasks = await longTasks(page, w0, Date.now());
	await context.close();
	return { ms: t1 - t0, longTasks: tasks };
}

/**
 * @param {Browser} browser @param {string} origin
 * @param {{ runs: number, log: (m: string) => void }} opts
 */
export async function bigBench(browser, origin, { runs, log }) {
	// BENCH_BIG_STEPS=tree,category: only those steps (starts, tree, category, session, catchup).
	const only = process.env.BENCH_BIG_STEPS?.split(',');
	const want = (/** @type {string} */ s) => !only || only.includes(s);
	/** @type {any} */
	const out = {};
	swapIn();
	const ids = bigIds();
	out.ids = { hotCat: ids.hotCat, hotArticles: ids.hotArticles.length, feeds: ids.feeds };
	/** @param {string} name @param {() => Promise<any>} fn */
	const step = async (name, fn) => {
		try {
			return await fn();
		} catch (e) {
			log(`big: ${name} failed: ${e}`);
			return { error: String(e) };
		}
	};
	for (const cpu of want('starts') ? [1, 4] : []) {
		const tt = [];
		const app = [];
		for (let i = 0; i < runs; i++) {
			log(`big: starts, CPU ${cpu}×, run ${i + 1}/${runs}`);
			tt.push(await step('tt-rss start', () => ttrssCold(browser, { cpu })));
			app.push(await step('app start', () => appStarts(browser, { cpu, origin })));
		}
		out[`cpu${cpu}`] = { ttrss: tt, app };
	}
	if (want('tree')) {
		log('big: the feed tree');
		out.tree = {
			ttrss: await step('tt-rss tree', () => treeTtrss(browser, ids.hotCat)),
			app: await step('app tree', () => treeApp(browser, origin, ids.hotCat))
		};
	}
	if (want('category')) {
		log('big: opening a category with 5,000 unread');
		const cat = { ttrss: /** @type {any[]} */ ([]), app: /** @type {any[]} */ ([]) };
		for (let i = 0; i < runs; i++) {
			cat.ttrss.push(await step('tt-rss category', () => categoryTtrss(browser, ids)));
			cat.app.push(await step('app category', () => categoryApp(browser, origin, ids)));
		}
		out.category = cat;
	}
	if (want('session')) {
		log('big: counters, heap and storage');
		out.countersTtrss = await step('tt-rss counters', () => countersTtrss(browser));
		out.appSession = await step('app session', () => appSession(browser, origin, log));
		out.heapTtrss = await step('tt-rss heap', () => heapTtrss(browser));
	}
	if (want('catchup')) {
		log('big: marking a category read');
		out.catchup = { ttrss: await step('tt-rss catchup', () => catchupTtrss(browser, ids.hotCat)) };
		swapIn();
		out.catchup.app = await step('app catchup', () => catchupApp(browser, origin, ids.hotCat));
	}
	return out;
}

/**
 * Lines for run.js's table; `small` is the same run's small-account starts when measured.
 * @param {any} b results.big @param {any} [small] results.cpu1 / cpu4 by key
 * @returns {string[][]}
 */
export function bigRows(b, small) {
	if (!b) return [];
	if (b.skipped) return [['big account', '', b.skipped, '', '']];
	if (b.error) return [['big account', '', `error: ${b.error.slice(0, 90)}`, '', '']];
	const ms = (/** @type {number} */ n) => (Number.isFinite(n) ? `${Math.round(n)} ms` : '—');
	const mb = (/** @type {number} */ n) =>
		Number.isFinite(n) ? `${(n / 2 ** 20).toFixed(1)} MB` : '—';
	const tasks = (/** @type {any} */ t) =>
		t ? `${t.count} long tasks${t.count ? `, longest ${Math.round(t.longestMs)} ms` : ''}` : '—';
	/** @param {any[]} rs @param {string} path */
	const med = (rs, path) =>
		median((rs ?? []).map((r) => path.split('.').reduce((o, k) => o?.[k], r)));
	/** @type {string[][]} */
	const rows = [];
	for (const cpu of [1, 4]) {
		const d = b[`cpu${cpu}`];
		if (!d) continue;
		const tag = cpu === 1 ? '' : ', CPU 4×';
		for (const kind of ['cold', 'warm']) {
			const tt = med(d.ttrss, `${kind}.ms`);
			const app = med(d.app, `${kind}.ms`);
			const base = small?.[`cpu${cpu}`] ? med(small[`cpu${cpu}`].app, `${kind}.ms`) : NaN;
			rows.push([
				`big: ${kind} start${tag}`,
				ms(tt),
				`${ms(app)}${Number.isFinite(base) ? ` (small account ${ms(base)}, ${app > base ? '+' : ''}${Math.round((app / base - 1) * 100)} %)` : ''}`,
				`${(tt / app).toFixed(1)}×`,
				'≤ small +20 %'
			]);
		}
	}
	const T = b.tree;
	if (T) {
		rows.push([
			'big: feed tree first paint (warm start)',
			T.ttrss?.error ? 'error' : `${ms(T.ttrss.firstPaint)}, ${tasks(T.ttrss.startLongTasks)}`,
			T.app?.error
				? `error: ${T.app.error.slice(0, 60)}`
				: `${ms(T.app.firstPaint)}, ${tasks(T.app.startLongTasks)}`,
			'',
			''
		]);
		const sc = (/** @type {any} */ s) =>
			s?.error || !s?.scroll
				? 'error'
				: `${s.scroll.maxNodes} nodes (${s.scroll.maxRows} rows), ${s.scroll.longTasks} long tasks${s.scroll.longTasks ? ` (longest ${ms(s.scroll.longestTask)})` : ''}, frames ${s.scroll.frameMedian.toFixed(1)} / ${s.scroll.frameMax.toFixed(1)} ms`;
		rows.push(['big: scroll through 1,000 feeds', sc(T.ttrss), sc(T.app), '', 'no task > 50 ms']);
	}
	const C = b.category;
	if (C) {
		const tt = med(C.ttrss, 'ms');
		const app = med(C.app, 'ms');
		const longest = (/** @type {any[]} */ rs) =>
			Math.max(0, ...rs.map((r) => r.longTasks?.longestMs ?? 0));
		rows.push([
			'big: open a category with 5,000 unread',
			`${ms(tt)} (longest task ${ms(longest(C.ttrss))})`,
			`${ms(app)} (longest task ${ms(longest(C.app))})`,
			`${(tt / app).toFixed(1)}×`,
			'no task > 50 ms'
		]);
	}
	const S = b.appSession;
	if (b.countersTtrss || S) {
		rows.push([
			'big: counters refresh',
			b.countersTtrss?.error
				? 'error'
				: `${ms(b.countersTtrss?.ms)}, ${tasks(b.countersTtrss?.longTasks)}`,
			S?.error
				? `error: ${S.error.slice(0, 60)}`
				: `${ms(S?.counters.ms)} (idle sync), ${tasks(S?.counters.longTasks)}`,
			'',
			'no task > 50 ms'
		]);
	}
	if (b.catchup) {
		const c = (/** @type {any} */ x) =>
			x?.error ? `error: ${x.error.slice(0, 50)}` : `${ms(x?.ms)}, ${tasks(x?.longTasks)}`;
		rows.push([
			'big: mark the category read',
			c(b.catchup.ttrss),
			c(b.catchup.app),
			'',
			'no task > 50 ms'
		]);
	}
	if (S && !S.error) {
		const h = S.heap;
		rows.push([
			'big: JS heap after 10,000 headlines (GC)',
			'',
			`${mb(h.after10k)} (${h.loaded} loaded; ${mb(h.start)} at the first screen)`,
			'',
			'≤ 30 MB'
		]);
		rows.push([
			'big: JS heap over 200 articles (GC)',
			b.heapTtrss?.error
				? 'error'
				: `${mb(b.heapTtrss?.start)} → ${mb(b.heapTtrss?.after200Articles)}`,
			`${mb(h.after10Articles)} → ${mb(h.after200Articles)}, ${tasks(h.articleLongTasks)}`,
			'',
			'no growth'
		]);
		rows.push([
			'big: IndexedDB per 1,000 cached articles',
			'',
			`${mb(S.idb.perThousand)} (${mb(S.idb.usage)} for ${S.idb.articles})`,
			'',
			''
		]);
	}
	return rows;
}
