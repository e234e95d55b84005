// `npm run bench -- --only search`: the offline search over 10,000 cached articles, in Chromium.
// The articles are made from the test bed's real bodies (every article of the reader's account, as
// getHeadlines sends them, repeated with varied titles and words) and written to the app's own
// database schema; the app's own search code (src/lib/search/indexer.ts, bundled by Vite as the
// app bundles it) then builds the index, persists it, loads it again in a new page and answers
// queries. Measured: build time, long tasks while indexing, index size in IndexedDB, load time,
// query p50/p95 (search + the first 50 result rows read, what the reader waits for).
//
// The page is served from a throwaway origin of its own (no policy, no service worker), so the
// bench needs neither the app's build nor a signed-in session; the test bed is only read.
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { api, percentile, testbed } from './browser.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SEARCH_ARTICLES = 10_000;
const QUERY_RUNS = 5;

/** Queries of each kind the syntax has: common and rare words, prefixes, phrases, fields, exclusions. */
export const SEARCH_QUERIES = [
	'update',
	'databases',
	'news',
	'episode',
	'item',
	'paragraph text',
	'short paragraph bold',
	'big feed',
	'compil',
	'a',
	'"short paragraph"',
	'"tech news item"',
	'title:databases',
	'title:"big feed"',
	'author:desk',
	'tag:tech',
	'news -databases',
	'item -"big feed"',
	'международный',
	'国際',
	'zzzz nothing matches',
	'update -update'
];

/** Every article of the test bed's reader, with its body, as the server sends it. */
async function testbedArticles() {
	const { session_id: sid } = await api('login', {
		user: testbed.user,
		password: testbed.password
	});
	/** @type {any[]} */
	const all = [];
	for (let skip = 0; ; skip += 200) {
		const page = await api('getHeadlines', {
			sid,
			feed_id: -4,
			view_mode: 'all_articles',
			show_content: true,
			limit: 200,
			skip
		});
		all.push(...page);
		if (page.length < 200) break;
	}
	await api('logout', { sid });
	return all;
}

/**
 * 10,000 records in the app's `articles` shape: the real articles repeated, each copy with its
 * own id, a varied title and a sentence of words drawn from the real bodies (deterministic).
 * @param {any[]} real
 */
function makeArticles(real) {
	const vocabulary = [
		...new Set(
			real
				.flatMap((h) =>
					String(h.content)
						.replace(/<[^>]*>/g, ' ')
						.split(/[^\p{L}\p{N}]+/u)
				)
				.filter((w) => w.length > 3)
		)
	];
	let seed = 42;
	const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
	const pick = () => vocabulary[Math.floor(random() * vocabulary.length)];
	const now = Date.now();
	return Array.from({ length: SEARCH_ARTICLES }, (_, i) => {
		const h = real[i % real.length];
		const copy = Math.floor(i / real.length);
		const extra = Array.from({ length: 12 }, pick).join(' ');
		return {
			id: i + 1,
			guid: `${h.guid}#${copy}`,
			title: copy === 0 ? h.title : `${h.title} — ${pick()} ${copy}`,
			link: h.link,
			unread: h.unread,
			marked: h.marked,
			published: h.published,
			updated: Number(h.updated) - copy * 3600,
			feedId: Number(h.feed_id),
			feedTitle: h.feed_title,
			author: h.author ?? '',
			labels: [],
			attachments: [],
			score: 0,
			note: undefined,
			lang: undefined,
			content: `${h.content}<p>${extra}</p>`,
			flavorImage: undefined,
			flavorStream: undefined,
			siteUrl: undefined,
			isUpdated: false,
			tags: (h.tags ?? []).filter((/** @type {string} */ t) => t !== ''),
			excerpt: undefined,
			commentsCount: 0,
			commentsLink: '',
			alwaysDisplayAttachments: false,
			flavorKind: undefined,
			comments: '',
			hasContent: true,
			storedAt: now + i,
			offline: true
		};
	});
}

/** The app's search code and its database opener, bundled into one ES module. */
async function bundleSearch() {
	const dir = mkdtempSync(join(tmpdir(), 'search-bench-'));
	try {
		const entry = join(dir, 'entry.js');
		writeFileSync(
			entry,
			`export * from '${ROOT}src/lib/search/indexer.ts';\n` +
				`export { openReaderDb } from '${ROOT}src/lib/db/open.ts';\n`
		);
		const out = await build({
			configFile: false,
			logLevel: 'warn',
			root: ROOT,
			resolve: { alias: { $lib: `${ROOT}src/lib` } },
			build: {
				write: false,
				lib: { entry, formats: ['es'], fileName: 'search' },
				rolldownOptions: { output: { codeSplitting: false } }
			}
		});
		const output = /** @type {any} */ (Array.isArray(out) ? out[0] : out).output;
		return /** @type {string} */ (output[0].code);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** @param {string} code */
function serve(code) {
	const html =
		'<!doctype html><meta charset="utf-8"><title>search bench</title>' +
		'<script type="module">import * as m from "/search.js"; window.__search = m;</script>';
	const server = createServer((req, res) => {
		if (req.url === '/search.js') {
			res.writeHead(200, { 'Content-Type': 'text/javascript' });
			res.end(code);
		} else {
			res.writeHead(200, { 'Content-Type': 'text/html' });
			res.end(html);
		}
	});
	return new Promise((resolve) => {
		// Port 0: the system picks a free one.
		server.listen(0, '127.0.0.1', () => resolve(server));
	});
}

/**
 * @param {import('@playwright/test').Browser} browser
 * @param {{ log?: (msg: string) => void }} [options]
 */
export async function offlineSearch(browser, { log = () => {} } = {}) {
	log('search: reading the test bed articles');
	const real = await testbedArticles();
	const articles = makeArticles(real);
	log(`search: ${real.length} real articles → ${articles.length}; bundling the search code`);
	const server = /** @type {import('node:http').Server} */ (await serve(await bundleSearch()));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	const origin = `http://127.0.0.1:${address.port}/`;
	const context = await browser.newContext();
	try {
		const page = await context.newPage();
		await page.goto(origin);
		await page.waitForFunction(() => /** @type {any} */ (window).__search !== undefined);
		log('search: writing 10,000 articles to IndexedDB');
		const usageBefore = await page.evaluate(async (rows) => {
			const m = /** @type {any} */ (window).__search;
			const db = await m.openReaderDb();
			for (let i = 0; i < rows.length; i += 500) {
				const tx = db.transaction('articles', 'readwrite');
				for (const row of rows.slice(i, i + 500)) tx.store.put(row);
				await tx.done;
			}
			return (await navigator.storage.estimate()).usage ?? 0;
		}, articles);

		log('search: building the index');
		const built = await page.evaluate(async () => {
			const m = /** @type {any} */ (window).__search;
			/** @type {number[]} */
			const longTasks = [];
			const observer = new PerformanceObserver((list) => {
				for (const e of list.getEntries()) longTasks.push(e.duration);
			});
			observer.observe({ type: 'longtask' });
			const t0 = performance.now();
			await m.readyIndex();
			const ms = performance.now() - t0;
			// Entries are delivered asynchronously: one more task lets the last ones arrive.
			await new Promise((r) => setTimeout(r, 0));
			observer.disconnect();
			const footprint = await m.indexFootprint();
			return { ms, longTasks, footprint, usage: (await navigator.storage.estimate()).usage ?? 0 };
		});

		log('search: loading the persisted index in a new page, then the queries');
		await page.reload();
		await page.waitForFunction(() => /** @type {any} */ (window).__search !== undefined);
		const measured = await page.evaluate(
			async ({ queries, runs }) => {
				const m = /** @type {any} */ (window).__search;
				/** @type {number[]} */
				const longTasks = [];
				const observer = new PerformanceObserver((list) => {
					for (const e of list.getEntries()) longTasks.push(e.duration);
				});
				observer.observe({ type: 'longtask' });
				const t0 = performance.now();
				await m.readyIndex();
				const loadMs = performance.now() - t0;
				/** @type {{ query: string, ms: number, results: number }[]} */
				const times = [];
				for (let run = 0; run < runs; run++) {
					for (const query of queries) {
						const t = performance.now();
						const results = await m.searchLocal({ query });
						const rows = await results.next(50);
						times.push({ query, ms: performance.now() - t, results: rows.length });
					}
				}
				await new Promise((r) => setTimeout(r, 0));
				observer.disconnect();
				return { loadMs, times, longTasks };
			},
			{ queries: SEARCH_QUERIES, runs: QUERY_RUNS }
		);
		const ms = measured.times.map((t) => t.ms);
		/** @type {Record<string, number>} */
		const slowest = {};
		for (const t of measured.times) slowest[t.query] = Math.max(slowest[t.query] ?? 0, t.ms);
		return {
			articles: articles.length,
			realArticles: real.length,
			buildMs: built.ms,
			buildLongTasks: built.longTasks.length,
			buildLongestTaskMs: Math.max(0, ...built.longTasks),
			indexRecords: built.footprint.docs,
			indexBytes: built.footprint.bytes,
			storageGrowthBytes: built.usage - usageBefore,
			loadMs: measured.loadMs,
			loadLongTasks: measured.longTasks.length,
			queries: SEARCH_QUERIES.length,
			queryRuns: QUERY_RUNS,
			queryP50Ms: percentile(ms, 50),
			queryP95Ms: percentile(ms, 95),
			queryMaxMs: Math.max(...ms),
			slowest
		};
	} finally {
		await context.close();
		server.close();
	}
}

/**
 * Lines for run.js's table.
 * @param {any} s results.offlineSearch
 * @returns {string[][]}
 */
export function searchRows(s) {
	if (!s) return [];
	if (s.error) return [['offline search', '', s.error, '', '']];
	const ms = (/** @type {number} */ n) => `${Math.round(n)} ms`;
	const mb = (/** @type {number} */ n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
	return [
		[
			`offline search: index ${s.articles} articles`,
			'',
			`${ms(s.buildMs)}, ${s.buildLongTasks} long tasks`,
			'',
			'no long task'
		],
		[
			'   index size (records / IndexedDB growth)',
			'',
			`${mb(s.indexBytes)} / ${mb(s.storageGrowthBytes)}`,
			'',
			''
		],
		['   load persisted index', '', ms(s.loadMs), '', ''],
		[
			`   query p50 / p95 (${s.queries} queries × ${s.queryRuns})`,
			'',
			`${s.queryP50Ms.toFixed(1)} / ${s.queryP95Ms.toFixed(1)} ms`,
			'',
			'p95 ≤ 50 ms'
		]
	];
}
