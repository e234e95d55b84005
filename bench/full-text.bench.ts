// Full text (issue 59), measured against the real server with the release archive's plugin:
// - the tap on "Full text" to the full text painted, over the 24 pages of testbed/fixtures/fulltext,
//   at 1× and 4× CPU (Chromium's throttling), p50 and p95; budget 1 s at p95;
// - the main thread's longest task between the tap and the paint ('longtask' entries); budget 50 ms;
// - a sync that keeps the full text of 200 articles (a feed of 200 teasers over the 24 pages):
//   the time from "Sync now" until all 200 are kept, the bytes they take (their records' full
//   text, and what the browser's storage estimate grew by), and the main thread's longest task
//   meanwhile (the extraction runs in the worker: budget 50 ms, as for the tap).
// Prints `[bench]` rows, each with its budget and MET or MISSED (— where the issue sets none);
// asserts nothing about speed. Run: `flock /tmp/e2e-run.lock npx playwright test --config
// bench/full-text.playwright.config.ts` (or `npm run bench -- --only fulltext`).
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { resetTestbed, testbed } from '../tests/support/testbed';
import { playwrightPage } from '../tests/support/playwright-page';
import { signInWithForm } from '../tests/support/sign-in';
import { serverClient } from '../tests/e2e/reader-support';
import {
	canInstallPlugin,
	pluginAppUrl,
	withReaderPlugin
} from '../tests/e2e/support/ttrss-plugin';
import { test } from '../tests/e2e/support/fixtures';

const TAP_BUDGET_MS = 1000;
const TASK_BUDGET_MS = 50;
const SYNC_ARTICLES = 200;
const FIXTURES = join(import.meta.dirname, '../testbed/fixtures');

let plugin: Awaited<ReturnType<typeof withReaderPlugin>> | undefined;
let feeds = new Map<string, number>();
let articles = new Map<string, number>();

function percentile(xs: number[], p: number): number {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

/** One figure: its budget and whether it met it (undefined: the issue sets no budget). */
function row(name: string, value: string, budget: string, ok: boolean | undefined): void {
	const verdict = ok === undefined ? '—' : ok ? 'MET' : 'MISSED';
	// ` | ` between the fields: bench/run.js reads them back for its table.
	console.log(`[bench] ${name.padEnd(62)} | ${value.padStart(22)} | budget ${budget} | ${verdict}`);
}

/** 200 teasers linking to the 24 pages (a query makes each address its own). */
function writeSyncFeed(names: string[]): void {
	const items = Array.from({ length: SYNC_ARTICLES }, (_, i) => {
		const name = names[i % names.length] ?? '';
		const day = new Date(Date.UTC(2026, 8, 1, 0, i)).toUTCString();
		return `<item><title>Bench teaser ${String(i + 1)}</title><link>http://${testbed.feedsHost}/fulltext/${name}/source.html?n=${String(i)}</link><guid isPermaLink="false">bench-fulltext-${String(i)}</guid><pubDate>${day}</pubDate><description>A teaser.</description></item>`;
	});
	writeFileSync(
		join(FIXTURES, 'feeds/bench-fulltext.xml'),
		`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bench teasers</title><link>http://${testbed.feedsHost}/</link><description>200 teasers</description>${items.join('')}</channel></rss>\n`
	);
}

test.beforeAll(async () => {
	test.skip(!canInstallPlugin(), 'needs root and the test bed tt-rss on this machine');
	test.setTimeout(300_000);
	resetTestbed();
	const names = readdirSync(join(FIXTURES, 'fulltext'))
		.filter((n) => statSync(join(FIXTURES, 'fulltext', n)).isDirectory())
		.sort();
	writeSyncFeed(names);
	plugin = await withReaderPlugin(
		'0.0.1-bench.fulltext',
		['fulltext.xml', 'bench-fulltext.xml'],
		await serverClient()
	);
	({ feeds, articles } = plugin);
});

test.afterAll(() => {
	plugin?.undo();
	rmSync(join(FIXTURES, 'feeds/bench-fulltext.xml'), { force: true });
	resetTestbed();
});

/**
 * In the page: `benchFrames.start()` watches long animation frames (Chromium's LoAF, which names
 * the scripts of a long frame: what called them, their function and file); `blame()` says the
 * longest frame's two longest scripts since the start, as `invoker fn@file ms`.
 */
const WATCH_FRAMES = `(() => {
	if (window.benchFrames) return;
	let frames = [];
	new PerformanceObserver((list) => { frames.push(...list.getEntries()); })
		.observe({ type: 'long-animation-frame' });
	window.benchFrames = {
		start() { frames = []; },
		blame() {
			const worst = frames.reduce((a, f) => (!a || f.duration > a.duration ? f : a), undefined);
			if (!worst) return '';
			return [...worst.scripts].sort((a, b) => b.duration - a.duration).slice(0, 2)
				.map((x) => x.invoker + ' ' + (x.sourceFunctionName || '?') + '@' +
					String(x.sourceURL).split('/').pop() + ' ' + Math.round(x.duration) + ' ms')
				.join(', ') + ' (frame ' + Math.round(worst.duration) + ' ms)';
		}
	};
})()`;

/** Taps "Full text" and waits for its paint; the tap-to-paint time and the longest task in it. */
async function tapToPaint(page: Page): Promise<{ ms: number; longest: number; blame: string }> {
	await page.evaluate(WATCH_FRAMES);
	return page.evaluate(
		() =>
			new Promise<{ ms: number; longest: number; blame: string }>((resolve, reject) => {
				const tasks: number[] = [];
				const observer = new PerformanceObserver((list) => {
					for (const e of list.getEntries()) tasks.push(e.duration);
				});
				observer.observe({ type: 'longtask' });
				const frames = (window as unknown as { benchFrames: { start(): void; blame(): string } })
					.benchFrames;
				frames.start();
				const button = document.querySelector<HTMLButtonElement>('button.full-text');
				if (!button) return reject(new Error('no Full text button'));
				const start = performance.now();
				const done = (): void => {
					// The paint after the text is in: the next frame, then its end.
					requestAnimationFrame(() =>
						setTimeout(() => {
							const ms = performance.now() - start;
							// Entries of tasks that ended but were not yet delivered count too.
							for (const e of observer.takeRecords()) tasks.push(e.duration);
							observer.disconnect();
							resolve({ ms, longest: Math.max(0, ...tasks), blame: frames.blame() });
						}, 0)
					);
				};
				const check = (): boolean => {
					const body = document.querySelector('.full-text-body .article-content');
					if (body && body.childNodes.length > 0) {
						mutations.disconnect();
						done();
						return true;
					}
					if (document.querySelector('.full-text-notice[data-status="failed"]')) {
						mutations.disconnect();
						reject(new Error(document.querySelector('.full-text-notice')?.textContent ?? 'failed'));
						return true;
					}
					return false;
				};
				const mutations = new MutationObserver(() => void check());
				mutations.observe(document.body, { childList: true, subtree: true, attributes: true });
				button.click();
			})
	);
}

test('tap to full text painted, 24 pages at 1× and 4× CPU; a sync keeping 200', async ({
	page,
	context
}) => {
	test.setTimeout(900_000);
	await signInWithForm(playwrightPage(page), pluginAppUrl, {
		staySignedIn: true,
		waitForWorker: true
	});
	const cdp = await context.newCDPSession(page);
	const feedId = feeds.get('fulltext.xml') ?? 0;
	const pages = [...articles].filter(([title]) => /^Full text \d\d: /.test(title));
	for (const rate of [1, 4]) {
		await cdp.send('Emulation.setCPUThrottlingRate', { rate });
		const times: number[] = [];
		const longest: number[] = [];
		for (const [title, id] of pages) {
			await page.goto(`${pluginAppUrl}feed/${String(feedId)}/${String(id)}`);
			await page.locator('.article-content').first().waitFor();
			// The worker is made on the first tap of a page load: each tap here is a first one.
			const measured = await tapToPaint(page).catch((e: unknown) => {
				console.log(`[bench] ${title}: ${String(e)}`);
				return undefined;
			});
			if (!measured) continue;
			times.push(measured.ms);
			longest.push(measured.longest);
			console.log(
				`[bench]   ${rate}× ${title.slice(0, 40).padEnd(40)} ${measured.ms.toFixed(0).padStart(6)} ms, longest task ${measured.longest.toFixed(0)} ms; ${measured.blame}`
			);
		}
		const p50 = percentile(times, 50);
		const p95 = percentile(times, 95);
		// A page that gave no full text misses the budget: it was never painted.
		const all = times.length === pages.length;
		row(
			`full text: tap → painted, ${String(times.length)}/${String(pages.length)} pages, ${String(rate)}× CPU`,
			`p50 ${p50.toFixed(0)} / p95 ${p95.toFixed(0)} ms`,
			`p95 ≤ ${String(TAP_BUDGET_MS)} ms`,
			all && p95 <= TAP_BUDGET_MS
		);
		const worst = Math.max(0, ...longest);
		row(
			`full text: longest main-thread task in a tap, ${String(rate)}× CPU`,
			`${worst.toFixed(0)} ms`,
			`≤ ${String(TASK_BUDGET_MS)} ms`,
			worst <= TASK_BUDGET_MS
		);
	}
	await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

	// A sync keeping 200 full texts: the bench feed set to "Always show full text".
	const syncFeed = feeds.get('bench-fulltext.xml') ?? 0;
	await page.goto(`${pluginAppUrl}feed/${String(syncFeed)}`);
	await page.locator('summary[aria-label="More feed actions"]').click();
	await page.getByRole('button', { name: 'Feed settings…' }).click();
	const sheet = page.getByRole('dialog', { name: 'Feed settings' });
	await sheet.getByRole('checkbox', { name: 'Always show full text' }).check();
	await sheet.getByRole('button', { name: 'Done' }).click();
	const ids = [...articles].filter(([t]) => t.startsWith('Bench teaser ')).map(([, id]) => id);
	if (ids.length !== SYNC_ARTICLES) throw new Error(`${String(ids.length)} bench teasers`);
	const usage = (): Promise<number> =>
		page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
	const before = await usage();
	await page.getByRole('link', { name: 'Settings' }).click();
	// The main thread's long tasks from "Sync now" on (the page stays: Settings is a client route).
	await page.evaluate(WATCH_FRAMES);
	await page.evaluate(() => {
		(window as unknown as { benchFrames: { start(): void } }).benchFrames.start();
		const w = window as unknown as { benchTasks: number[] };
		w.benchTasks = [];
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) w.benchTasks.push(e.duration);
		}).observe({ type: 'longtask' });
	});
	const started = Date.now();
	await page.getByRole('button', { name: 'Sync now' }).click();
	// Done when no sync runs (its Web Lock free) and all 200 are kept. The records are read only
	// while no sync runs: reading 7 MB of them is the bench's own main-thread work, not the app's.
	const syncing = (): Promise<boolean> =>
		page.evaluate(async () => {
			const { held = [], pending = [] } = await navigator.locks.query();
			return [...held, ...pending].some((lock) => lock.name === 'ttrss-sync');
		});
	/** The sync's longest task and frame so far (read before the records: see above). */
	const syncTasks = (): Promise<{ longest: number; blame: string }> =>
		page.evaluate(() => {
			const w = window as unknown as { benchTasks: number[]; benchFrames: { blame(): string } };
			return { longest: Math.max(0, ...w.benchTasks), blame: w.benchFrames.blame() };
		});
	// First the sync taking its lock (the click starts it a moment later).
	while (!(await syncing()) && Date.now() - started < 10_000) await page.waitForTimeout(50);
	let kept = { count: 0, bytes: 0 };
	let seconds = NaN;
	let tasks = { longest: NaN, blame: '' };
	while (Date.now() - started < 600_000) {
		if (!(await syncing())) {
			seconds = (Date.now() - started) / 1000;
			tasks = await syncTasks();
			kept = await keptFullTexts(page, ids);
			if (kept.count >= ids.length) break;
		}
		await page.waitForTimeout(250);
	}
	const { longest: longestInSync, blame: syncBlame } = tasks;
	console.log(`[bench]   sync: the longest frame's scripts: ${syncBlame || 'none'}`);
	const added = (await usage()) - before;
	const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
	row(
		`sync keeping full text of ${String(SYNC_ARTICLES)}: time (${String(kept.count)} kept)`,
		`${seconds.toFixed(1)} s`,
		'none set',
		kept.count >= ids.length ? undefined : false
	);
	row(
		`sync keeping ${String(kept.count)} full texts: their bytes (records)`,
		`${mb(kept.bytes)}, ${(kept.bytes / Math.max(1, kept.count) / 1024).toFixed(1)} KB each`,
		'none set',
		undefined
	);
	row(
		`sync keeping ${String(kept.count)} full texts: storage estimate grew`,
		mb(added),
		'none set',
		undefined
	);
	row(
		`sync keeping ${String(kept.count)} full texts: longest main-thread task`,
		`${longestInSync.toFixed(0)} ms`,
		`≤ ${String(TASK_BUDGET_MS)} ms`,
		longestInSync <= TASK_BUDGET_MS
	);
});

/** How many of `ids` have their full text kept, and its bytes (UTF-8 of the kept record's field). */
function keptFullTexts(page: Page, ids: number[]): Promise<{ count: number; bytes: number }> {
	return page.evaluate(
		(wanted) =>
			new Promise<{ count: number; bytes: number }>((resolve, reject) => {
				const open = indexedDB.open('ttrss-reader');
				open.onerror = () => reject(open.error ?? new Error('open failed'));
				open.onsuccess = () => {
					const db = open.result;
					const store = db.transaction('articles', 'readonly').objectStore('articles');
					let count = 0;
					let bytes = 0;
					let left = wanted.length;
					for (const id of wanted) {
						const get = store.get(id);
						get.onsuccess = () => {
							const fullText = (get.result as { fullText?: unknown } | undefined)?.fullText;
							if (fullText !== undefined) {
								count += 1;
								bytes += new Blob([JSON.stringify(fullText)]).size;
							}
							if (--left === 0) {
								db.close();
								resolve({ count, bytes });
							}
						};
						get.onerror = () => reject(get.error ?? new Error('get failed'));
					}
				};
			}),
		ids
	);
}
