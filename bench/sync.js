// `npm run bench -- --only sync`: the sync engine (src/lib/sync) in the built app, in Chromium,
// against the bench database (bench/setup.sh: the seed + 10,000 short and 1,200 content articles,
// all unread). Three scenarios, one signed-in context:
//   1. the first full sync after sign-in, 1,000 unread articles kept (the article count setting):
//      time, requests, bytes, storage, long tasks on the page meanwhile;
//   2. an idle sync (nothing changed): requests and bytes (budget: 1 request, ≤ 5 KB);
//   3. the sync after 200 new articles arrived (a feed tt-rss really fetches with update.php):
//      requests, bytes, time, long tasks.
// Beside the first full sync, its floor: the same API requests (as the app sent them, from its
// first getHeadlines with bodies on) made back to back by this script, without the app: the
// server's own time for that work (bench/run.js runs it right after each sync).
// Syncs are timed by the app's own bookkeeping (IndexedDB store `sync`, `lastSyncAt`), which the
// engine writes as its last step; the page's interval is shortened through localStorage.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
	addProbe,
	api,
	countRequests,
	cpuSince,
	cpuTimes,
	median,
	summarize,
	testbed
} from './browser.js';
import { profiled } from './big-bench.js';
import { BENCH_PHOTO, benchPhoto } from './make-feeds.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FEED_NAME = 'bench-sync-200.xml';
const FEED_DIR = '/tmp/ttrss-bench-sync';
const LINK = `${ROOT}testbed/fixtures/feeds/${FEED_NAME}`;
export const SYNC_ARTICLES = 1000;
const ARRIVALS = 200;
const INTERVAL_MS = 3000;
const PHOTO_DIR = '/tmp/ttrss-bench-media';
const PHOTO_LINK = `${ROOT}testbed/fixtures/media/${BENCH_PHOTO}`;

/**
 * The content articles' photo (make-feeds.js), served by the feed host while the bench runs:
 * symlinked, as the test bed's seed hash counts regular files only. Returns the clean-up.
 */
function servePhoto() {
	mkdirSync(PHOTO_DIR, { recursive: true });
	chmodSync(PHOTO_DIR, 0o755);
	writeFileSync(`${PHOTO_DIR}/${BENCH_PHOTO}`, benchPhoto());
	chmodSync(`${PHOTO_DIR}/${BENCH_PHOTO}`, 0o644);
	rmSync(PHOTO_LINK, { force: true });
	symlinkSync(`${PHOTO_DIR}/${BENCH_PHOTO}`, PHOTO_LINK);
	return () => rmSync(PHOTO_LINK, { force: true });
}

/**
 * 200 new items of ~1.5 KB with an image each, in a feed subscribed now and fetched by tt-rss
 * (update.php, as bench/setup.sh does) when the returned function is called: the subscription's
 * own sync (a new feed in the tree) comes before the articles' sync, as when articles arrive in a
 * feed the reader already has.
 */
async function subscribeArrivals() {
	const items = Array.from({ length: ARRIVALS }, (_, i) => {
		const n = String(i + 1).padStart(3, '0');
		const text = `<p>Arrival ${n}. ${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(24)}</p>`;
		return `<item><title>Bench arrival ${n}</title><guid isPermaLink="false">bench-arrival-${n}</guid>
<pubDate>${new Date(Date.UTC(2026, 10, 20, 0, i)).toUTCString()}</pubDate>
<description><![CDATA[${text}<img src="http://${testbed.feedsHost}/media/gradient-320x200.png?n=${n}">]]></description></item>`;
	}).join('\n');
	mkdirSync(FEED_DIR, { recursive: true });
	writeFileSync(
		`${FEED_DIR}/${FEED_NAME}`,
		`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bench arrivals</title><link>http://${testbed.feedsHost}/</link><description>200 new items</description>\n${items}</channel></rss>`
	);
	chmodSync(FEED_DIR, 0o755);
	chmodSync(`${FEED_DIR}/${FEED_NAME}`, 0o644);
	// Symlinked only while tt-rss reads it (subscribing reads it too): the test bed's seed hash
	// counts regular files only.
	const link = () => {
		rmSync(LINK, { force: true });
		symlinkSync(`${FEED_DIR}/${FEED_NAME}`, LINK);
	};
	link();
	let id;
	try {
		const { session_id: sid } = await api('login', {
			user: testbed.user,
			password: testbed.password
		});
		const reply = await api('subscribeToFeed', {
			sid,
			feed_url: `http://${testbed.feedsHost}/feeds/${FEED_NAME}`
		});
		id = reply.status?.feed_id;
		if (!id) throw new Error(`subscribe: ${JSON.stringify(reply)}`);
	} finally {
		rmSync(LINK, { force: true });
	}
	return () => {
		link();
		try {
			execFileSync(
				'runuser',
				['-u', 'www-data', '--', 'php', 'update.php', '--update-feed', `${id}`],
				{
					cwd: '/usr/share/tt-rss/www',
					stdio: 'ignore'
				}
			);
		} finally {
			rmSync(LINK, { force: true });
		}
	};
}

/** The app's last successful sync (ms), from its own database; 0 before the first.
 * @param {import('@playwright/test').Page} page */
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
						resolve(
							Math.max(
								0,
								...req.result.map((/** @type {any} */ r) =>
									r && typeof r === 'object' ? (r.lastSyncAt ?? 0) : 0
								)
							)
						);
					};
					req.onerror = () => resolve(0);
				};
			})
	);
}

/** Waits until the app's last sync is later than `after`; returns its time.
 * @param {import('@playwright/test').Page} page @param {number} after */
async function nextSync(page, after, timeout = 300_000) {
	const end = Date.now() + timeout;
	for (;;) {
		const at = /** @type {number} */ (await lastSyncAt(page));
		if (at > after) return at;
		if (Date.now() > end) throw new Error('no sync came');
		await new Promise((r) => setTimeout(r, 100));
	}
}

/** @param {import('@playwright/test').Page} page @param {number} t0 @param {number} t1 */
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

/** @param {any[]} reqs */
function apiOps(reqs) {
	return reqs
		.filter((r) => r.op && (r.source === 'network' || r.source === 'pending'))
		.map((r) => r.op);
}

/**
 * @param {import('@playwright/test').Browser} browser
 * @param {string} origin
 * @param {{ log?: (m: string) => void, articles?: number, freshDb?: () => void }} [opts]
 *   `articles`: the article count setting (the big account: 5,000, the largest the app allows);
 *   `freshDb`: puts a fresh copy of the database this run started on in place, for the floor on
 *   the server as the app met it (below)
 */
export async function syncBench(
	browser,
	origin,
	{ log = () => {}, articles = SYNC_ARTICLES, freshDb } = {}
) {
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	await addProbe(context, { target: 'body' });
	const page = await context.newPage();
	const unservePhoto = servePhoto();
	try {
		await page.goto(`${origin}/login`);
		await page.evaluate(
			([interval, count]) => {
				localStorage.setItem('reader.settings', JSON.stringify({ offlineArticles: count }));
				localStorage.setItem('reader.syncIntervalMs', String(interval));
			},
			[INTERVAL_MS, articles]
		);
		await page.reload();
		const counter = await countRequests(context, page);
		// The sync's first request: the first getHeadlines with bodies (the lists ask for excerpts).
		let syncStart = 0;
		/** @type {Record<string, number>} */
		let cpuAtSyncStart = {};
		/** The sync's API requests from syncStart on, in the order sent (the floor replays them). */
		/** @type {{ at: number, body: Record<string, unknown> }[]} */
		const sent = [];
		page.on('request', (request) => {
			// The page's own requests (the worker passes them on: the same request seen twice).
			if (request.serviceWorker() || !request.url().includes('/tt-rss/api/')) return;
			const body = JSON.parse(request.postData() ?? '{}');
			if (!syncStart && body.op === 'getHeadlines' && body.show_content === true) {
				syncStart = Date.now();
				cpuAtSyncStart = cpuTimes();
			}
			if (syncStart) sent.push({ at: Date.now(), body });
		});

		// 1. The first full sync, from the sign-in click to the sync's last write.
		log(`sync: first full sync of ${articles} unread articles`);
		await page.getByLabel('User name', { exact: true }).fill(testbed.user);
		await page.getByLabel('Password', { exact: true }).fill(testbed.password);
		const t0 = Date.now();
		const cpuSyncStart = cpuTimes();
		// With BENCH_PROFILE=1 the page's CPU profile of it (big-bench.js's `profiled`): where the
		// main thread's time goes between the pages (it slows the page: not for the timed runs).
		const {
			result: first,
			top: profileTop,
			busy: profileBusy
		} = await profiled(page, async () => {
			await page.getByRole('button', { name: 'Sign in' }).click();
			return nextSync(page, 0);
		});
		const t1 = Date.now();
		const cpuEnd = cpuTimes();
		const cpuSync = {
			signIn: cpuSince(cpuSyncStart, cpuEnd),
			sync: cpuSince(cpuAtSyncStart, cpuEnd)
		};
		const firstReqs = counter.between(t0, t1);
		const storage = await page.evaluate(async () => {
			const estimate = await navigator.storage.estimate();
			const cache = await caches.open('images-v1');
			const keys = await cache.keys();
			let imageBytes = 0;
			for (const key of keys) {
				const response = await cache.match(key);
				// Opaque (no-CORS) answers have no readable body: counted by the estimate only.
				if (response && response.type !== 'opaque') imageBytes += (await response.blob()).size;
			}
			return { usage: estimate.usage ?? 0, images: keys.length, imageBytes };
		});
		// Images kept for offline come after the text (their own step): when the last one is in.
		const imagesDone = await imagesSettled(page);
		const floorBodies = sent.filter((r) => r.at <= t1).map((r) => r.body);
		const full = {
			ms: t1 - t0,
			...summarize(firstReqs),
			ops: countOps(apiOps(firstReqs)),
			usageBytes: storage.usage,
			images: storage.images,
			imageBytes: storage.imageBytes,
			// Sign-in and the first screen's render are in the window; the sync's own part is this:
			syncMs: t1 - syncStart,
			imagesMs: imagesDone.at - syncStart,
			imagesKept: imagesDone.count,
			// The same requests again at once, the server's caches warm from the app's reads
			// (the floor on a fresh copy, as the app met the server, comes at the run's end).
			floor: await floor(floorBodies),
			/** @type {Awaited<ReturnType<typeof floor>> | undefined} */
			floorFresh: undefined,
			/** @type {Awaited<ReturnType<typeof floor>> | undefined} */
			floorFreshPaired: undefined,
			// The same through the app's own path minus the browser: `vite preview`'s proxy, as
			// the page asks (gzip accepted): what the proxy adds to the server's time.
			floorProxy: await floor(floorBodies, `${origin}/tt-rss/api/`),
			// CPU ms by process kind from the sign-in click to the sync's end, and in its floors:
			// the server's share of the same work with and without the browser beside it.
			cpu: cpuSync,
			...(profileTop.length > 0 ? { profile: { top: profileTop, busy: profileBusy } } : {}),
			// The sync's API requests as the page saw them (ms from its start): gaps between one's
			// end and the next's start are the app's own time, overlaps the pipelining.
			apiTimeline: firstReqs
				.filter((r) => r.op && r.start >= syncStart)
				.map((r) => [
					r.op,
					Math.round(r.start - syncStart),
					r.end === undefined ? -1 : Math.round(r.end - syncStart),
					r.bytes,
					// CDP's timing: in the worker before the send, send to headers, headers to end.
					Math.round(r.timing?.swMs ?? -1),
					Math.round(r.timing?.waitMs ?? -1),
					Math.round(r.timing?.bodyMs ?? -1)
				]),
			longTasks: await longTasks(page, t0, t1),
			longTasksDuringSync: await longTasks(page, syncStart, t1)
		};

		// 2. Idle: the syncs after it (each every INTERVAL_MS) find nothing moved.
		log('sync: idle syncs');
		const a = await nextSync(page, first);
		const b = await nextSync(page, a);
		const idleReqs = counter.between(a, b);
		const idle = { ...summarize(idleReqs), ops: apiOps(idleReqs) };

		// 3. 200 new articles arrive on the server; the next sync brings them. The feed is
		// subscribed first and its own sync (the tree read again) awaited; then tt-rss fetches the
		// 200 while the browser is offline, so that no sync sees them half written (update.php
		// inserts them one by one over seconds, beside syncs every 3 s), and the browser comes back:
		// the sync its return starts is the one timed, from its first request to its end.
		log(`sync: ${ARRIVALS} new articles arrive (update.php, the browser offline meanwhile)`);
		const fetchArrivals = await subscribeArrivals();
		const subscribed = await nextSync(page, await nextSync(page, await lastSyncAt(page)));
		await context.setOffline(true);
		fetchArrivals();
		const online = Date.now();
		await context.setOffline(false);
		let after = Math.max(online, /** @type {number} */ (subscribed));
		let reqs = [];
		for (let i = 0; i < 5; i++) {
			const at = await nextSync(page, after);
			const window = counter.between(online, at);
			after = at;
			if (apiOps(window).includes('getHeadlines')) {
				reqs = window;
				break;
			}
		}
		const started = Math.min(...reqs.map((r) => r.start));
		const arrivals = {
			ms: after - started,
			...summarize(reqs),
			ops: countOps(apiOps(reqs)),
			longTasks: await longTasks(page, started, after),
			// Each request of the window: what it was, how it ended, its bytes and time.
			requestList: reqs.map((r) => ({
				op: r.op ?? r.url.slice(0, 60),
				source: r.source,
				from: r.from,
				bytes: r.bytes,
				startMs: Math.round(r.start - started),
				endMs: r.end === undefined ? undefined : Math.round(r.end - started)
			})),
			// The sync's own rows (the app's database): how many of the 200 it kept.
			kept: await page.evaluate(
				() =>
					new Promise((resolve) => {
						const open = indexedDB.open('ttrss-reader');
						open.onsuccess = () => {
							const req = open.result.transaction('articles').objectStore('articles').count();
							req.onsuccess = () => resolve(req.result);
						};
					})
			)
		};
		counter.stop();
		// The floor on the server as the app met it: a fresh copy of the database, whose articles
		// nobody has read yet. Right after a sync the same requests take half the time (content
		// pages ~360 against ~700 ms each on the bench data, 2026-11-27): the first reads of a
		// fresh copy are the slow ones, so a floor measured after the app's sync was a warm one.
		if (freshDb) {
			freshDb();
			full.floorFresh = await floor(floorBodies);
			// Two at a time, as the app asks for its pages: on another fresh copy.
			freshDb();
			full.floorFreshPaired = await floor(floorBodies, testbed.apiUrl, 2);
		}
		return { articles, arrivals: ARRIVALS, full, idle, afterArrivals: arrivals };
	} finally {
		unservePhoto();
		await context.close();
	}
}

/**
 * The floor: `bodies` (the app's API requests, in order) made back to back from Node straight to
 * the server, in a session of their own; the time of all of them, and how many. With `url`
 * (the preview's proxy), through that instead. With `inFlight`, that many at a time, in order (the
 * app's first sync asks for its pages two at a time: the server's own time for that).
 * @param {Record<string, unknown>[]} bodies @param {string} [url] @param {number} [inFlight]
 */
async function floor(bodies, url = testbed.apiUrl, inFlight = 1) {
	const { session_id: sid } = await api('login', {
		user: testbed.user,
		password: testbed.password
	});
	const cpu0 = cpuTimes();
	const t0 = performance.now();
	let bytes = 0;
	let next = 0;
	const sender = async () => {
		while (next < bodies.length) {
			const body = bodies[next++];
			const r = await fetch(url, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ ...body, ...('sid' in body ? { sid } : {}) })
			});
			bytes += (await r.arrayBuffer()).byteLength;
		}
	};
	await Promise.all(Array.from({ length: inFlight }, sender));
	const ms = performance.now() - t0;
	const cpu = cpuSince(cpu0, cpuTimes());
	await api('logout', { sid }).catch(() => {});
	// What was replayed, one line a request (the sync's; the screen's own reads, if any, show too).
	const sig = (/** @type {Record<string, unknown>} */ b) =>
		[b.op, b.feed_id, b.view_mode, b.skip, b.limit, b.show_content ? 'content' : '']
			.filter((x) => x !== undefined && x !== '')
			.join(' ');
	return {
		ms,
		cpu,
		requests: bodies.length,
		bytes,
		ops: countOps(bodies.map((b) => String(b.op))),
		sent: bodies.map(sig)
	};
}

/**
 * Waits until the images kept for offline stop arriving (no new cache entry for 2 s, or 60 s in
 * all); the time (ms) the last one was seen and how many there are.
 * @param {import('@playwright/test').Page} page
 */
async function imagesSettled(page) {
	const count = () =>
		page.evaluate(async () => (await (await caches.open('images-v1')).keys()).length);
	let last = await count();
	let at = Date.now();
	const end = at + 60_000;
	while (Date.now() < end && Date.now() - at < 2000) {
		await new Promise((r) => setTimeout(r, 100));
		const n = await count();
		if (n !== last) {
			last = n;
			at = Date.now();
		}
	}
	return { at, count: last };
}

/** @param {string[]} ops */
function countOps(ops) {
	/** @type {Record<string, number>} */
	const out = {};
	for (const op of ops) out[op] = (out[op] ?? 0) + 1;
	return out;
}

/**
 * Lines for run.js's table: medians over the runs (each run's figure in brackets).
 * @param {any} s results.sync: { runs: syncBench results[] } (or one result, older files)
 * @param {string} [tag] before each row's name (the big account's: 'big: ')
 * @returns {string[][]}
 */
export function syncRows(s, tag = '') {
	if (!s) return [];
	/** @type {any[]} */
	const runs = s.runs ?? (s.full ? [s] : []);
	if (runs.length === 0) return [[`${tag}sync`, '', s.error ?? 'no run', '', '']];
	const at = (/** @type {string} */ path) =>
		runs.map((r) => path.split('.').reduce((o, k) => o?.[k], r));
	const med = (/** @type {string} */ path) => median(at(path));
	const each = (/** @type {string} */ path, /** @type {(n: number) => string} */ f) =>
		runs.length > 1 ? ` [${at(path).map(f).join(', ')}]` : '';
	const sec = (/** @type {number} */ n) => (n / 1000).toFixed(1);
	const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} KB`;
	const mb = (/** @type {number} */ n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
	const tasks = (/** @type {string} */ path) =>
		`${med(`${path}.count`)} long tasks, longest ${Math.round(med(`${path}.longestMs`))} ms` +
		each(`${path}.longestMs`, (n) => String(Math.round(n)));
	const first = runs[0];
	// The budget's floor: on a fresh copy of the database, as the app met the server, when the run
	// measured it; before 2026-11-27 only the warm one (the same requests right after the sync).
	const fresh = runs.every((r) => r.full.floorFresh);
	const ratio = med('full.syncMs') / med(fresh ? 'full.floorFresh.ms' : 'full.floor.ms');
	const rows = [
		[
			'sync: idle (nothing changed)',
			'',
			`${med('idle.requests')} req, ${kb(med('idle.bytes'))}`,
			'',
			'1 req, ≤ 5 KB'
		],
		[
			`sync: after ${first.arrivals} new articles`,
			'',
			`${med('afterArrivals.requests')} req, ${kb(med('afterArrivals.bytes'))}, ${Math.round(med('afterArrivals.ms'))} ms` +
				each('afterArrivals.ms', (n) => String(Math.round(n))),
			'',
			'≤ 1 s'
		],
		['   long tasks', '', tasks('afterArrivals.longTasks'), '', 'none > 50 ms'],
		[
			`sync: first full, ${first.articles} unread (sign-in to done)${s.cpusSplit ? ', server on CPU 0, browser on the others' : ''}`,
			'',
			`${sec(med('full.ms'))} s, ${med('full.requests')} req, ${mb(med('full.bytes'))}`,
			'',
			''
		],
		[
			'   storage used / images kept',
			'',
			`${mb(med('full.usageBytes'))} / ${med('full.images')} at the text's end, ${med('full.imagesKept')} in all`,
			'',
			''
		],
		['   long tasks, sign-in to done', '', tasks('full.longTasks'), '', ''],
		[
			`   the sync's own part: text (first getHeadlines with bodies to the last write)`,
			'',
			`${sec(med('full.syncMs'))} s` +
				each('full.syncMs', sec) +
				`, ${Math.round(first.articles / (med('full.syncMs') / 1000))} articles/s; ${tasks('full.longTasksDuringSync')}`,
			'',
			'none > 50 ms'
		],
		...(fresh
			? [
					[
						`   floor: the same ${med('full.floorFresh.requests')} API requests back to back, no app, on a fresh copy of the database (as the app met it)`,
						'',
						`${sec(med('full.floorFresh.ms'))} s` +
							each('full.floorFresh.ms', sec) +
							`; app/floor ${ratio.toFixed(2)}×`,
						'',
						'app ≤ 1.5× floor'
					],
					...(runs.every((r) => r.full.floorFreshPaired)
						? [
								[
									'   the same, two at a time as the app asks for its pages, on another fresh copy',
									'',
									`${sec(med('full.floorFreshPaired.ms'))} s` +
										each('full.floorFreshPaired.ms', sec) +
										`; app/this ${(med('full.syncMs') / med('full.floorFreshPaired.ms')).toFixed(2)}×`,
									'',
									''
								]
							]
						: [])
				]
			: []),
		[
			fresh
				? '   the same requests again right after the sync (the server warm from its reads)'
				: `   floor: the same ${med('full.floor.requests')} API requests back to back, no app`,
			'',
			`${sec(med('full.floor.ms'))} s` +
				each('full.floor.ms', sec) +
				(fresh ? '' : `; app/floor ${ratio.toFixed(2)}×`),
			'',
			fresh ? '' : 'app ≤ 1.5× floor'
		],
		[
			"   floor through the preview's proxy (the app's path without the browser)",
			'',
			runs.every((r) => r.full.floorProxy)
				? `${sec(med('full.floorProxy.ms'))} s` + each('full.floorProxy.ms', sec)
				: 'not measured',
			'',
			''
		],
		[
			'   images kept for offline, all in (from the same start)',
			'',
			`${sec(med('full.imagesMs'))} s` + each('full.imagesMs', sec),
			'',
			'after the text'
		]
	];
	return rows.map(([name = '', ...rest]) => [
		name.startsWith(' ') ? name : `${tag}${name}`,
		...rest
	]);
}
