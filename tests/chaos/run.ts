/**
 * `npm run chaos` (scripts/chaos.js builds the app and bundles this file): N seeded schedules in
 * Chromium against the real current tt-rss test bed, each on a freshly reset database and a fresh
 * browser profile. A schedule is reader operations through the real UI, faults on the wire (our
 * proxy between the app and tt-rss: tests/chaos/proxy.ts) and faults outside it (offline, reload in
 * the middle of a write, the service worker stopped). Then the network comes back clean, the app's
 * outbox is left to drain and tt-rss's state is checked against the model of what the reader did
 * (tests/chaos/model.ts). A failing schedule prints its seed and the history of the wire.
 *
 *   CHAOS_RUNS=20 CHAOS_SEED=1234 flock /tmp/suite.lock npm run chaos
 *
 * Schedule i uses seed CHAOS_SEED + i: `CHAOS_RUNS=1 CHAOS_SEED=<seed>` replays one;
 * `CHAOS_LIST=1` prints the seeds' operations instead of running them.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { TtrssClient } from '../../src/lib/api/client';
import { signInWithForm } from '../support/sign-in';
import { escapeRegExp, listAnsweredIn, openFeedIn } from '../support/open-feed';
import { resetTestbed, testbed, testbedCondition, testbedConditionAsync } from '../support/testbed';
import type { EngineBrowser } from '../engines/support/engines';
import { click, poll } from '../engines/support/ui';
import {
	CHAOS_ENGINES,
	errorToastsInPage,
	localItemInPage,
	openArticleInPage,
	readStoreInPage,
	selectedRowsInPage,
	shownRowsInPage,
	sideDrawnInPage,
	startEngine,
	toolbarPressedInPage,
	type ChaosBrowser,
	type ChaosEngine,
	type ChaosLauncher,
	type ShownRow
} from './driver';
import {
	FAULT_KINDS,
	startChaosServer,
	type ChaosServer,
	type FaultKind,
	type HistoryEntry
} from './proxy';
import {
	checkAccounts,
	checkCache,
	checkNotes,
	checkScreen,
	checkShares,
	checkServer,
	checkWire,
	labelField,
	ReaderModel,
	rng,
	sameStoryGroups,
	type AccountSpan,
	type Anomaly,
	type ArticleState,
	type CachedFlags,
	type Field,
	type StoryRow
} from './model';
import type { FailedItem, OutboxItem } from '../../src/lib/db/schema';
import { useCatalog } from '../../src/lib/i18n/m';
import { TOAST_MS } from '../../src/lib/state/toast-ms';
import { JOURNAL_KEY } from '../../src/lib/state/write-ahead-check';
import { STOP_WAIT_MS } from '../../src/lib/db/device';
import { messages as english } from '../../src/lib/i18n/generated/en';
import { messages as englishLater } from '../../src/lib/i18n/generated/en.later';
import { pageHeadlines } from '../../src/lib/api/paging';

// The app's modules the harness reads the server with say things in English, the source (as the
// service worker does): no locale is chosen outside a page.
useCatalog({ ...english, ...englishLater });

const RUNS = Number(process.env.CHAOS_RUNS ?? 20);
const SEED = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
/** CHAOS_SEEDS="2001 2014 2019": these seeds only (CI's fixed ones), instead of RUNS from SEED. */
const SEEDS = process.env.CHAOS_SEEDS
	? process.env.CHAOS_SEEDS.trim()
			.split(/[\s,]+/)
			.map(Number)
	: Array.from({ length: RUNS }, (_, i) => SEED + i);
/** CHAOS_ENGINE: chromium (the default), firefox or webkit. */
const ENGINE = (process.env.CHAOS_ENGINE ?? 'chromium') as ChaosEngine;
if (!CHAOS_ENGINES.includes(ENGINE))
	throw new Error(`CHAOS_ENGINE: one of ${CHAOS_ENGINES.join(', ')}`);
const BUILD_DIR = process.env.CHAOS_BUILD_DIR ?? '.svelte-kit/chaos-build';
/**
 * Self-checks: `1`, every updateArticle is answered OK and never forwarded (the checker must say
 * lost); `widen`, every mark read reaches tt-rss with one more article, unread and not in the
 * schedule's feed (the checker must say unseen-change: the reader never saw it).
 */
const SABOTAGE = process.env.CHAOS_SABOTAGE === '1';
const SABOTAGE_WIDEN = process.env.CHAOS_SABOTAGE === 'widen';
const LOG = process.env.CHAOS_LOG ?? 'chaos-results/log.jsonl';
/**
 * CHAOS_SHARED_POSTGRES=1: another suite uses this machine's PostgreSQL at the same time (the e2e
 * suite beside a long run, on test-bed servers of their own): the schedules keep their operations,
 * but a PostgreSQL restart is skipped, as it would take that suite's databases away too.
 */
const SHARED_POSTGRES = process.env.CHAOS_SHARED_POSTGRES === '1';
/** Each UI step's own limit: a step the faults keep from finishing is skipped, not fatal. */
const STEP_MS = 8_000;
/**
 * How long the outbox gets to drain once the network is clean: past a 502/504's first put-off
 * (30 s, then 60 s: replay.ts deferItem). After NUDGE_MS the page is reloaded, as a reader would.
 */
const DRAIN_MS = 100_000;
const NUDGE_MS = 20_000;

const FEEDS = ['Testbed Web Dev (Atom)', 'Testbed Tech News'] as const;

type OpKind =
	| 'open'
	| 'toggle-read'
	| 'star'
	| 'publish'
	| 'catchup'
	| 'catchup-undo'
	| 'network'
	| 'reload-mid-write'
	| 'stop-worker'
	| 'wait'
	// From seed V2_FROM on:
	| 'label'
	| 'mark-above'
	| 'mark-below'
	| 'bulk-read'
	| 'bulk-star'
	| 'session-end'
	| 'postgres-restart'
	// From seed V3_FROM on:
	| 'bulk-unread'
	| 'bulk-unstar'
	| 'bulk-undo'
	| 'beside-undo'
	| 'note'
	| 'tab-close-mid-write'
	| 'second-tab'
	// From seed V4_FROM on:
	| 'share'
	// From seed V5_FROM on:
	| 'browser-kill'
	| 'undo-edge'
	// From seed V6_FROM on:
	| 'storage-full'
	| 'bulk-label'
	| 'undo-late'
	| 'second-account';

const OP_WEIGHTS: readonly (readonly [OpKind, number])[] = [
	['open', 5],
	['toggle-read', 3],
	['star', 4],
	['publish', 3],
	['catchup', 1],
	['catchup-undo', 1],
	['network', 2],
	['reload-mid-write', 1],
	['stop-worker', 1.5],
	['wait', 2]
];

/**
 * Seeds from here on draw from OP_WEIGHTS_V2 (labels, mark above/below, bulk actions, the
 * session deleted on the server, PostgreSQL restarted); seeds below keep the schedules they had
 * when their anomalies were found (CI's regression seeds 2001 and 2014 among them).
 */
const V2_FROM = 6000;
const OP_WEIGHTS_V2: readonly (readonly [OpKind, number])[] = [
	...OP_WEIGHTS,
	['label', 2],
	['mark-above', 1],
	['mark-below', 1],
	['bulk-read', 1],
	['bulk-star', 1],
	['session-end', 1],
	['postgres-restart', 0.5]
];

/**
 * Seeds from here on draw from OP_WEIGHTS_V3 as well: the selection bar's other actions, Undo of
 * a bulk action and of mark above/below, notes, a tab closed in the middle of a write, a second
 * tab acting beside the first. Every seed run before (all below 3,500,000) keeps its schedule.
 */
const V3_FROM = 4_000_000;
const OP_WEIGHTS_V3: readonly (readonly [OpKind, number])[] = [
	...OP_WEIGHTS_V2,
	['bulk-unread', 0.7],
	['bulk-unstar', 0.7],
	['bulk-undo', 1],
	['beside-undo', 1],
	['note', 1.5],
	['tab-close-mid-write', 1],
	['second-tab', 1]
];

/**
 * Seeds from here on draw from OP_WEIGHTS_V4: V3's operations and a page shared to Published
 * (the checker: once on the server, never twice). V3's seeds keep their schedules.
 */
const V4_FROM = 4_500_000;
const OP_WEIGHTS_V4: readonly (readonly [OpKind, number])[] = [...OP_WEIGHTS_V3, ['share', 1.5]];

/**
 * Seeds from here on draw from OP_WEIGHTS_V5: V4's operations, the whole browser killed in the
 * middle of a write, and Undo pressed at the edge of its window. V4's seeds keep their schedules.
 */
const V5_FROM = 4_800_000;
const OP_WEIGHTS_V5: readonly (readonly [OpKind, number])[] = [
	...OP_WEIGHTS_V4,
	['browser-kill', 1],
	['undo-edge', 1]
];

/**
 * Seeds from here on draw from OP_WEIGHTS_V6: V5's operations, the device's storage full while
 * the reader acts, the selection bar's Labels, Undo pressed seconds after its window, and a
 * second account signing in and out in between (the first signs out, confirming the loss of what
 * it had not sent, and in again). V5's seeds keep their schedules.
 */
const V6_FROM = 5_000_000;
const OP_WEIGHTS_V6: readonly (readonly [OpKind, number])[] = [
	...OP_WEIGHTS_V5,
	['storage-full', 1.2],
	['bulk-label', 1],
	['undo-late', 0.8],
	['second-account', 0.7]
];

/** Each schedule version from its first seed, newest first: a seed draws from the first it reaches. */
const WEIGHTS_FROM: readonly (readonly [number, readonly (readonly [OpKind, number])[]])[] = [
	[V6_FROM, OP_WEIGHTS_V6],
	[V5_FROM, OP_WEIGHTS_V5],
	[V4_FROM, OP_WEIGHTS_V4],
	[V3_FROM, OP_WEIGHTS_V3],
	[V2_FROM, OP_WEIGHTS_V2],
	[0, OP_WEIGHTS]
];

function weightsOf(seed: number): readonly (readonly [OpKind, number])[] {
	return WEIGHTS_FROM.find(([from]) => seed >= from)?.[1] ?? OP_WEIGHTS;
}

const FAULT_WEIGHTS: readonly (readonly [Exclude<FaultKind, 'none'>, number])[] = [
	['refuse', 2],
	['hang', 0.5],
	['delay', 3],
	['cut', 2],
	['502', 1],
	['504', 1],
	['lost', 3]
];

interface Op {
	kind: OpKind;
	/** Which row (modulo the rows shown) or how long to wait. */
	arg: number;
}

interface ScheduleResult {
	seed: number;
	feed: string;
	ops: { kind: OpKind; done: boolean; note?: string }[];
	faults: Record<string, number>;
	anomalies: Anomaly[];
	failedShown: number;
	/** The outbox had not drained in NUDGE_MS on a clean network: the page was reloaded. */
	nudged: boolean;
	/**
	 * Changes still only written ahead when the page was reloaded (their outbox write never
	 * committed and no page had recovered them): the reload's start queues them, so this counts
	 * what would otherwise have waited for the next start (WebKit seed 4700006, unexplained).
	 */
	strandedAhead?: number;
	ms: number;
}

function schedule(seed: number): { feed: string; faultRate: number; ops: Op[] } {
	const r = rng(seed);
	const feed = r.pick(FEEDS);
	const faultRate = 0.15 + r.next() * 0.45;
	const ops = Array.from({ length: 8 + r.int(7) }, () => ({
		kind: r.weighted(weightsOf(seed)),
		arg: r.int(1000)
	}));
	return { feed, faultRate, ops };
}

/** Waits (polling the page) until `fn` returns a truthy value, at most `timeout`. */
async function until<R, A extends unknown[]>(
	page: EngineBrowser,
	what: string,
	fn: (...args: A) => R | Promise<R>,
	args: A,
	timeout = STEP_MS
): Promise<NonNullable<R>> {
	return poll(what, () => page.evaluate(fn, ...args), undefined, timeout);
}

const rowCss = (id: number): string => `[aria-label^="Headlines of"] [data-article-id="${id}"]`;

/**
 * Whoever watches what the screen shows (the schedule's model: the rows the reader saw, and the
 * copies each row named). Every look at the rows goes through `shownRows`.
 */
let watcher: ((rows: readonly ShownRow[]) => void) | undefined;

/** The rows on screen (`shownRowsInPage`), told to the watcher: the reader saw them. */
async function shownRows(page: EngineBrowser): Promise<ShownRow[]> {
	const rows = await page.evaluate(shownRowsInPage);
	watcher?.(rows);
	return rows;
}

/** Opens the feed from the tree (the shared routine, tests/support/open-feed.ts) and waits for its rows. */
async function openFeed(page: EngineBrowser, feed: string): Promise<void> {
	await openFeedIn(page, new RegExp(`^${escapeRegExp(feed)}`), {
		timeoutMs: STEP_MS,
		// The page's state with a time-out, when asked (it may read a page cut off mid-fault).
		report: !!process.env.CHAOS_DEBUG
	});
}

async function listAnswered(page: EngineBrowser): Promise<void> {
	await listAnsweredIn(page, { timeoutMs: STEP_MS, report: false });
}

/** The rows at these positions (each modulo the rows shown), each row once, in that order. */
function rowsAt(shown: readonly ShownRow[], positions: readonly number[]): ShownRow[] {
	const rows = positions
		.map((p) => shown[p % Math.max(1, shown.length)])
		.filter((r): r is ShownRow => r !== undefined);
	return rows.filter((r, i) => rows.findIndex((x) => x.id === r.id) === i);
}

/** The row `arg` picks (modulo the rows shown), with its shown unread and starred state. */
async function rowAt(page: EngineBrowser, arg: number): Promise<ShownRow> {
	const shown = await shownRows(page);
	// Taken by id from here on: the list may reorder when the server's answer arrives (equal
	// dates), and a row taken by position would then be another article than the model records.
	const row = shown[arg % Math.max(1, shown.length)];
	if (!row) throw new Error('no rows');
	return row;
}

async function openArticleId(page: EngineBrowser): Promise<number | undefined> {
	return (await page.evaluate(openArticleInPage)) ?? undefined;
}

async function waitToolbarPressed(
	page: EngineBrowser,
	source: string,
	pressed: boolean
): Promise<void> {
	await until(
		page,
		`${source} pressed ${pressed}`,
		(s: string, p: boolean) => {
			const pattern = new RegExp(s);
			return [
				...document.querySelectorAll('[role="toolbar"][aria-label="Article actions"] button')
			].some(
				(b) =>
					pattern.test((b.getAttribute('aria-label') ?? b.textContent ?? '').trim()) &&
					(b.getAttribute('aria-pressed') === 'true') === p
			);
		},
		[source, pressed]
	);
}

async function waitRowStarred(page: EngineBrowser, id: number, marked: boolean): Promise<void> {
	await until(
		page,
		`row ${id} starred ${marked}`,
		(css: string, m: boolean) =>
			(document
				.querySelector(`${css} button[aria-label^="Star “"]`)
				?.getAttribute('aria-pressed') ===
				'true') ===
			m,
		[rowCss(id), marked]
	);
}

/**
 * Stars (or unstars) the row `arg` picks from its list's star and records the reader's intent
 * once the row shows it; returns the row as it was.
 */
async function starRow(
	page: EngineBrowser,
	model: ReaderModel,
	index: number,
	arg: number
): Promise<ShownRow> {
	const row = await rowAt(page, arg);
	const before = await shownRows(page);
	await page.click(`${rowCss(row.id)} button[aria-label^="Star “"]`);
	try {
		await waitRowStarred(page, row.id, !row.marked);
	} catch (e) {
		await recordStarsShown(page, model, index, before, row.id, !row.marked);
		throw e;
	}
	model.record(index, row.id, 'marked', !row.marked);
	return row;
}

/**
 * A star tap whose row never showed the change within the step's limit: the model takes what the
 * screen shows instead. The list may move between finding the button and the pointer's click (an
 * answer redraws it, a reload settles), so the tap can land on another row's star: Firefox seed
 * 11011 starred article 18 for a tap aimed at 16, and the checker called 16 lost and 18 spurious.
 * Rows whose star changed since `before` are the reader's intents as seen (only the reader stars
 * here); when none changed, the aimed one is a tap with no outcome shown (either state passes).
 */
async function recordStarsShown(
	page: EngineBrowser,
	model: ReaderModel,
	index: number,
	before: readonly ShownRow[],
	aimed: number,
	want: boolean
): Promise<void> {
	const changed = await changedSince(page, before, 'marked');
	for (const row of changed) model.record(index, row.id, 'marked', !row.marked);
	if (changed.length === 0) model.recordUnseen(index, aimed, 'marked', want);
}

/** The rows of `before` still shown whose `field` the screen now shows the other way (as they were). */
async function changedSince(
	page: EngineBrowser,
	before: readonly ShownRow[],
	field: 'unread' | 'marked'
): Promise<ShownRow[]> {
	const now = new Map((await shownRows(page)).map((r) => [r.id, r[field]]));
	return before.filter((r) => now.has(r.id) && now.get(r.id) !== r[field]);
}

/** tt-rss's state of every article of the account (flags and labels), and its labels' ids. */
async function serverState(): Promise<{
	articles: Map<number, ArticleState>;
	labels: Map<string, number>;
	/** Each feed's articles (their addresses: the harness's own standard of a story), by feed title. */
	rows: Map<string, StoryRow[]>;
}> {
	const client = new TtrssClient({ apiUrl: testbed.apiUrl });
	await client.login({ user: testbed.user, password: testbed.password });
	const articles = new Map<number, ArticleState>();
	const rows = new Map<string, StoryRow[]>();
	for await (const page of pageHeadlines(client, { feedId: -4, viewMode: 'all_articles' })) {
		for (const h of page) {
			const feed = h.feedTitle ?? '';
			rows.set(feed, [...(rows.get(feed) ?? []), { id: h.id, feedId: h.feedId, link: h.link }]);
			articles.set(h.id, {
				unread: h.unread,
				marked: h.marked,
				published: h.published,
				labels: h.labels.map((l) => l.id).sort((a, b) => a - b),
				note: h.note ?? ''
			});
		}
	}
	const labels = new Map((await client.getLabels()).map((l) => [l.caption, l.id]));
	await client.logout().catch(() => undefined);
	return { articles, labels, rows };
}

/** The server's Published feed: how many articles it holds of each title. */
async function publishedTitles(): Promise<Map<string, number>> {
	const client = new TtrssClient({ apiUrl: testbed.apiUrl });
	await client.login({ user: testbed.user, password: testbed.password });
	const titles = new Map<string, number>();
	for await (const page of pageHeadlines(client, { feedId: -2, viewMode: 'all_articles' })) {
		for (const h of page) titles.set(h.title, (titles.get(h.title) ?? 0) + 1);
	}
	await client.logout().catch(() => undefined);
	return titles;
}

/** Runs one step of the reader; returns a note on it ("skipped: …" when it could not be done). */
async function step(
	op: Op,
	index: number,
	ctx: {
		browser: ChaosBrowser;
		feed: string;
		model: ReaderModel;
		offline: { on: boolean };
		server: ChaosServer;
		/** The account's labels by caption (the picker shows captions). */
		labels: ReadonlyMap<string, number>;
		/** Faults of the server still under way (a PostgreSQL restart): awaited before the check. */
		background: Promise<unknown>[];
		/** Changes the reader was told will not be made (signed out over them): either state passes. */
		told: (items: readonly (OutboxItem | FailedItem)[]) => void;
		/** Where the reader was signed out (the wire's history by index): checkAccounts. */
		spans: AccountSpan[];
		/** What a step saw go wrong on the screen or in the device's storage. */
		anomalies: Anomaly[];
	}
): Promise<string | undefined> {
	const { model } = ctx;
	const page = ctx.browser.page;
	switch (op.kind) {
		case 'open': {
			const { id, unread } = await rowAt(page, op.arg);
			// The article already open: its title leads where the reader is, and marks nothing (it is
			// marked read once per opening, so a "mark unread" sticks).
			const already = (await openArticleId(page)) === id;
			const before = await shownRows(page);
			await page.click(`${rowCss(id)} .title`);
			if (already) return `article ${id}, already open`;
			// This article, not the one open before (its toolbar would answer the checks below).
			try {
				await poll(
					`article ${id} open`,
					async () => (await openArticleId(page)) === id,
					undefined,
					STEP_MS
				);
			} catch (e) {
				// The article did not open within the step's limit (WebKit seed 12004, on a machine
				// at load 14: tt-rss never heard of it). Rows shown read since the tap are the
				// reader's intents as seen (the tap may have landed on another row, as a star's did:
				// recordStarsShown); none, the app may still act on the tap, or never.
				const read = (await changedSince(page, before, 'unread')).filter((r) => r.unread);
				for (const row of read) model.record(index, row.id, 'unread', false);
				if (read.length === 0 && unread) model.recordUnseen(index, id, 'unread', false);
				throw e;
			}
			// Opening marks read: the reader's intent when the row showed unread.
			if (unread) model.record(index, id, 'unread', false);
			if (unread) await waitToolbarPressed(page, READ_BUTTON, true);
			// Said, so a history tells why no read was recorded (WebKit seed 3411779: an article
			// opened from a row the harness read as read, and tt-rss then got a mark read).
			return `article ${id}${unread ? '' : ' (its row showed it read)'}`;
		}
		case 'toggle-read':
		case 'publish': {
			// The reader opens one first when none is open.
			const opened = await openFirst(op, index, ctx);
			const id = await openArticleId(page);
			if (id === undefined) return `${opened}skipped: no article open`;
			const source = op.kind === 'publish' ? '^(Publish|Published)$' : READ_BUTTON;
			const pressed = await page.evaluate(toolbarPressedInPage, source);
			if (pressed === null) return `${opened}skipped: no toolbar`;
			await click(page, { css: TOOLBAR_BUTTONS, name: new RegExp(source) });
			// The reader asked once the click landed. Mark read/unread's button is pressed when read.
			if (op.kind === 'publish') model.record(index, id, 'published', !pressed);
			else model.record(index, id, 'unread', pressed);
			await waitToolbarPressed(page, source, !pressed);
			return `${opened}article ${id}`;
		}
		case 'star':
		case 'reload-mid-write':
		case 'tab-close-mid-write':
		case 'browser-kill': {
			const { id } = await starRow(page, model, index, op.arg);
			if (op.kind === 'reload-mid-write') await reload(page);
			if (op.kind === 'tab-close-mid-write' || op.kind === 'browser-kill') {
				const said = await (op.kind === 'browser-kill'
					? ctx.browser.killBrowser()
					: ctx.browser.reopenTab());
				if (!said.includes('skipped:')) await waitRows(ctx.browser.page);
				return `article ${id}; ${said}`;
			}
			return `article ${id}`;
		}
		case 'catchup':
		case 'catchup-undo': {
			const before = await shownRows(page);
			await click(page, { css: 'summary', name: 'Mark read' });
			await click(page, {
				css: '[role="group"][aria-label="Mark as read"] button',
				name: 'All articles'
			});
			// A catch-up covers what the reader saw then.
			for (const row of before) model.record(index, row.id, 'unread', false);
			await until(
				page,
				'no unread row',
				() =>
					document.querySelector('[aria-label^="Headlines of"] [data-article-id].unread') === null,
				[]
			);
			if (op.kind === 'catchup') return `${before.length} rows`;
			await click(page, {
				css: '[role="status"][aria-label="Notifications"] button',
				name: 'Undo'
			});
			// Undone when the rows it marked read show unread again (an earlier Undo's "Undone." may
			// still show, so that toast says nothing; the next step must see the rows put back).
			const wereUnread = before.filter((r) => r.unread).map((r) => r.id);
			await until(
				page,
				'the rows put back',
				(css: string, ids: number[]) =>
					ids.every((id) => {
						const row = document.querySelector(`${css} [data-article-id="${id}"]`);
						return row === null || row.classList.contains('unread');
					}),
				['[aria-label^="Headlines of"]', wereUnread]
			);
			model.undo(index);
			return `${before.length} rows, undone`;
		}
		case 'network':
			// Offline (pages and worker) until the next `network` step, or the schedule's end.
			ctx.offline.on = !ctx.offline.on;
			await ctx.browser.setOffline(ctx.offline.on);
			// The device has no network: the service worker's requests fail too (Playwright's
			// setOffline and routes do not reach a worker's own fetches in every case).
			ctx.server.offline = ctx.offline.on;
			return ctx.offline.on ? 'offline' : 'online';
		case 'stop-worker':
			return ctx.browser.stopWorker();
		case 'wait':
			await new Promise((r) => setTimeout(r, 100 + (op.arg % 20) * 100));
			return undefined;
		case 'label':
			return assignLabel(op, index, ctx);
		case 'mark-above':
		case 'mark-below':
		case 'beside-undo': {
			const { id } = await rowAt(page, op.arg);
			const shown = await shownRows(page);
			const at = shown.findIndex((r) => r.id === id);
			const above = op.kind === 'mark-above' || (op.kind === 'beside-undo' && op.arg % 2 === 0);
			// Rows of that side the list has loaded but not drawn would be covered too, unseen by
			// the harness (Firefox seed 5300006: row 19 below the drawn rows, marked read, called
			// widened): the step is left out then.
			if (!(await page.evaluate(sideDrawnInPage, id, above)))
				return `skipped: article ${id}: rows ${above ? 'above' : 'below'} not all drawn`;
			const side = above ? shown.slice(0, at) : shown.slice(at + 1);
			// The rows the reader saw on that side showing unread: exactly those, nothing wider.
			const scope = side.filter((r) => r.unread).map((r) => r.id);
			await page.click(`${rowCss(id)} button[aria-label^="More actions for “"]`);
			await click(page, {
				css: `${rowCss(id)} [role="group"] button`,
				name: above ? 'Mark above read' : 'Mark below read'
			});
			model.catchup(index, scope);
			// Rows the list gained on that side between the harness's look and the tap (a list
			// refreshed after a sign-in; Firefox seed 5300006: row 19 came in, the app marked it, the
			// harness had not seen it): the reader may have seen them, so either state passes.
			const now = await shownRows(page);
			const seen = new Set(shown.map((r) => r.id));
			const pivot = now.findIndex((r) => r.id === id);
			const late = now
				.filter((r, i) => !seen.has(r.id) && (above ? i < pivot : i > pivot))
				.map((r) => r.id);
			for (const lateId of late) model.recordUnseen(index, lateId, 'unread', false);
			await waitRowsRead(page, scope);
			if (op.kind === 'beside-undo') {
				if (scope.length === 0) return `article ${id}: no unread rows ${above ? 'above' : 'below'}`;
				await undoLast(page);
				await waitRowsUnread(page, scope);
				model.undo(index);
				return `article ${id}: ${scope.length} rows ${above ? 'above' : 'below'} (${scope.join(',')}), undone`;
			}
			// A row that left the list also passes the wait: named, so a history tells it from a
			// row shown read (Chromium seed 3411754: 5 rows aimed at, 4 ids sent).
			const still = new Set((await shownRows(page)).map((r) => r.id));
			const gone = scope.filter((r) => !still.has(r));
			const readShown = side.filter((r) => !r.unread).map((r) => r.id);
			return `article ${id}: ${scope.length} rows ${above ? 'above' : 'below'} (${scope.join(',')})${readShown.length ? `, ${readShown.join(',')} shown read` : ''}${gone.length ? `, ${gone.join(',')} no longer shown` : ''}${late.length ? `, ${late.join(',')} came in meanwhile` : ''}`;
		}
		case 'bulk-read':
		case 'bulk-star':
		case 'bulk-unread':
		case 'bulk-unstar':
		case 'bulk-undo': {
			// Two or three rows picked, then one of the selection bar's actions (bulkAction).
			const shown = await shownRows(page);
			if (shown.length < 2) return 'skipped: too few rows';
			const picked = rowsAt(
				shown,
				[0, 1, 2].slice(0, 2 + (op.arg % 2)).map((k) => op.arg + k * 3)
			);
			const { ticked, rows: tickedRows } = await pickRows(page, picked);
			const action = bulkAction(op, tickedRows);
			// An action that changes none of the rows changes nothing: no toast, nothing to undo.
			if (op.kind === 'bulk-undo' && !tickedRows.some((r) => r[action.field] !== action.value))
				return `skipped: ${action.button} would change none of ${ticked.join(',')}`;
			await click(page, {
				css: SELECTION_BUTTONS,
				name: action.button
			});
			for (const id of ticked) model.record(index, id, action.field, action.value);
			await waitRowsShow(page, ticked, action.field, action.value);
			const aimed = picked.map((r) => r.id).sort((a, b) => a - b);
			const same = aimed.join() === [...ticked].sort((a, b) => a - b).join();
			const said = `${action.button}: articles ${ticked.join(',')}${same ? '' : ` (aimed at ${aimed.join(',')})`}`;
			if (op.kind !== 'bulk-undo') return said;
			// Undo puts back what each row showed before.
			await undoLast(page);
			for (const row of tickedRows)
				await waitRowsShow(page, [row.id], action.field, row[action.field]);
			model.undo(index);
			return `${said}, undone`;
		}
		case 'note': {
			const opened = await openFirst(op, index, ctx);
			const id = await openArticleId(page);
			if (id === undefined) return `${opened}skipped: no article open`;
			await click(page, { css: TOOLBAR_BUTTONS, name: /^(Add|Edit) note$/ });
			await until(page, 'the note field', () => document.querySelector('#note-field') !== null, []);
			// Unique in the schedule, so a note the server holds tells which save it came from.
			const text = `chaos note ${index}.${op.arg}`;
			await page.fill('#note-field', text);
			await click(page, { css: '.note-form button', name: 'Save note' });
			model.recordNote(index, id, text);
			await until(
				page,
				'the note shown',
				(t: string) => document.querySelector('aside.note p')?.textContent === t,
				[text]
			);
			return `${opened}article ${id}: ${text}`;
		}
		case 'second-tab': {
			// A second tab of the app on the same list stars (or unstars) a row while the first
			// goes on; then it is closed. The first tab learns of it from the server (its next sync).
			const at = await page.evaluate(() => location.href);
			const other = await ctx.browser.secondTab(at);
			if (!other) return 'skipped: one window only in this engine';
			try {
				await waitRows(other);
				const { id, marked } = await starRow(other, model, index, op.arg);
				return `article ${id} ${marked ? 'unstarred' : 'starred'} in a second tab`;
			} finally {
				await other.close().catch(() => undefined);
			}
		}
		case 'undo-edge':
			// 0.4 s before to 0.4 s after the window's end.
			return undoAtTheEdge(op, index, ctx, TOAST_MS - 400 + (op.arg % 9) * 100);
		case 'undo-late': {
			// One to four seconds after the window: too late, the change stays (the toast is gone).
			const said = await undoAtTheEdge(op, index, ctx, TOAST_MS + 1_000 + (op.arg % 4) * 1_000);
			return said.endsWith(': undone') ? `${said} AFTER ITS WINDOW` : said;
		}
		case 'storage-full': {
			// The device's storage full while the reader stars a row or opens one; room again after.
			const full = await ctx.browser.fillStorage(true);
			if (full.includes('skipped:')) return full;
			try {
				const acted =
					op.arg % 2 === 0
						? `article ${(await starRow(page, model, index, op.arg)).id} starred or unstarred`
						: await step({ kind: 'open', arg: op.arg }, index, ctx);
				// What the app does with a write that cannot be stored shows meanwhile (an error toast
				// and the change taken back, or the change kept somewhere and sent).
				await new Promise((r) => setTimeout(r, 1_000 + (op.arg % 3) * 700));
				return `${full}; ${acted ?? ''}`;
			} finally {
				// Room again whatever the step met (a page between two loads answers a moment later).
				await poll(
					'room again',
					() =>
						ctx.browser.fillStorage(false).then(
							() => true,
							() => false
						),
					undefined,
					STEP_MS
				);
			}
		}
		case 'bulk-label':
			return bulkLabel(op, index, ctx);
		case 'second-account':
			return secondAccount(index, ctx);
		case 'share': {
			// The share page as the installed app's share target opens it (title and address
			// filled in), then Share to Published; then back to the list. The address is only
			// stored by tt-rss, never fetched.
			const title = `chaos share ${index}.${op.arg}`;
			const back = await page.evaluate(() => location.href);
			const params = new URLSearchParams({
				title,
				url: `http://${testbed.feedsHost}/chaos-share/${index}-${op.arg}`
			});
			await page.goto(`${ctx.server.url}/share?${params.toString()}`);
			await click(page, { css: 'form button[type="submit"]', name: 'Share to Published' });
			let said: string;
			try {
				said = await until(
					page,
					'the share answered',
					() =>
						document.querySelector('[role="status"] .ok')?.textContent?.trim() ||
						(document.querySelector('[role="alert"] .toast.error') ? 'an error' : undefined),
					[]
				);
			} catch (e) {
				model.recordShare(index, title, false);
				throw e;
			}
			model.recordShare(index, title, said !== 'an error');
			await page.goto(back);
			await waitRows(page);
			return `${title}: ${said.slice(0, 40)}`;
		}
		case 'session-end':
			// The account's tt-rss session deleted on the server: the next call answers
			// NOT_LOGGED_IN and the app must sign in again by itself, losing nothing.
			testbedCondition('sessions-end', testbed.user);
			return 'session deleted';
		case 'postgres-restart': {
			if (SHARED_POSTGRES) return 'skipped: PostgreSQL is shared (CHAOS_SHARED_POSTGRES)';
			// tt-rss's database goes away for a moment while the reader goes on; awaited (and so
			// over) before the schedule settles.
			ctx.background.push(testbedConditionAsync('postgres-restart'));
			return 'restarting';
		}
	}
}

/**
 * Labels from the open article's toolbar: the picker's `arg`-th label switched. Labels are
 * absolute per article: the model records the box's new state.
 */
/**
 * Opens the step's article when none is open, as the reader would before acting on it; what the
 * opening said, as the start of the step's note ("opened article 9 (its row showed it read); "),
 * or nothing. The opening's note is the step's only record of whether it recorded a read (WebKit
 * seed 3411779: a label step opened article 9, and its note said only that the labels did not load).
 */
async function openFirst(op: Op, index: number, ctx: Parameters<typeof step>[2]): Promise<string> {
	if ((await openArticleId(ctx.browser.page)) !== undefined) return '';
	const said = await step({ kind: 'open', arg: op.arg }, index, ctx);
	return `opened ${said ?? 'an article'}; `;
}

async function assignLabel(
	op: Op,
	index: number,
	ctx: Parameters<typeof step>[2]
): Promise<string> {
	const page = ctx.browser.page;
	const opened = await openFirst(op, index, ctx);
	const id = await openArticleId(page);
	if (id === undefined) return `${opened}skipped: no article open`;
	const menu = '[role="toolbar"][aria-label="Article actions"] details';
	const switched = await switchLabel(page, menu, 'Labels', op.arg, ctx.labels, (labelId, value) =>
		ctx.model.record(index, id, labelField(labelId), value)
	);
	await click(page, { css: `${menu}[open] summary`, name: 'Labels' }).catch(() => undefined);
	if (!switched) return `${opened}skipped: the labels did not load`;
	return `${opened}article ${id} ${switched.value ? 'with' : 'without'} ${switched.caption}`;
}

/**
 * A label switched in a label picker (the article toolbar's, or the selection bar's): the picker
 * opened from its summary (named `name`), its labels awaited — the picker asks tt-rss, and under
 * faults it may say it cannot: undefined then —, the `arg`-th one's box clicked; `record` gets
 * the label and its new state as soon as the click landed, and the box is awaited in that state.
 * The picker is left open.
 */
async function switchLabel(
	page: EngineBrowser,
	menu: string,
	name: string,
	arg: number,
	labels: ReadonlyMap<string, number>,
	record: (labelId: number, value: boolean) => void
): Promise<{ caption: string; value: boolean } | undefined> {
	await click(page, { css: `${menu} summary`, name });
	const boxes = `${menu}[open] fieldset label`;
	const choices = await until(
		page,
		'the labels',
		(css: string) => {
			const shown = [...document.querySelectorAll(css)];
			return shown.length > 0
				? shown.map((l) => ({
						caption: l.textContent?.trim() ?? '',
						checked: l.querySelector('input')?.checked ?? false
					}))
				: document.querySelector(`${css.replace(' fieldset label', '')} [role="alert"]`)
					? []
					: undefined;
		},
		[boxes]
	);
	if (choices.length === 0) return undefined;
	const k = arg % choices.length;
	const choice = choices[k];
	const labelId = choice ? labels.get(choice.caption) : undefined;
	if (!choice || labelId === undefined) throw new Error(`unknown label ${choice?.caption}`);
	const box = `${boxes}:nth-of-type(${k + 1}) input`;
	await page.click(box);
	record(labelId, !choice.checked);
	await until(
		page,
		`label ${choice.caption} ${!choice.checked}`,
		(css: string, want: boolean) => document.querySelector<HTMLInputElement>(css)?.checked === want,
		[box, !choice.checked]
	);
	return { caption: choice.caption, value: !choice.checked };
}

/** Waits until each of these rows (where still shown) shows read. */
async function waitRowsRead(page: EngineBrowser, ids: readonly number[]): Promise<void> {
	await waitRowsShow(page, ids, 'unread', false);
}

/**
 * Ticks each row's box, one after another, as the reader picks rows for the selection bar; returns
 * the rows ticked, which may not be the rows aimed at (selectedRowsInPage), with their shown state.
 * Where the box is hidden until picking starts (a browser that says it cannot hover: headless
 * Firefox), the row's link is focused and `x` pressed, as such a browser's reader with a keyboard
 * does.
 */
async function pickRows(
	page: EngineBrowser,
	picked: readonly ShownRow[]
): Promise<{ ticked: number[]; rows: ShownRow[] }> {
	for (const [n, row] of picked.entries()) {
		const box = `${rowCss(row.id)} input[aria-label^="Select “"]`;
		const shown = await page.evaluate(
			(css: string) => (document.querySelector(css)?.getClientRects().length ?? 0) > 0,
			box
		);
		if (shown) await page.click(box);
		else {
			await page.evaluate(
				(css: string) => document.querySelector<HTMLElement>(`${css} a.link`)?.focus(),
				rowCss(row.id)
			);
			await page.press('x');
		}
		await until(
			page,
			`${n + 1} selected`,
			(count: string) =>
				document.querySelector('[role="group"][aria-label="Selected articles"] [role="status"]')
					?.textContent === count,
			[`${n + 1} selected`]
		);
	}
	const ticked = await page.evaluate(selectedRowsInPage);
	const rows = (await shownRows(page)).filter((r) => ticked.includes(r.id));
	return { ticked, rows };
}

/**
 * Undo at the edge of its window, or after it: two or three rows starred (or unstarred) from the
 * selection bar, then `z` (the Undo key) pressed `at` ms after the click (undo-edge: 0.4 s before
 * to 0.4 s after the window ends, `TOAST_MS`; undo-late: seconds after). Either outcome is right
 * — the rows back as they were (undone) or the change kept (too late) — as long as the server
 * ends as the screen says: the model follows the screen.
 */
async function undoAtTheEdge(
	op: Op,
	index: number,
	ctx: Parameters<typeof step>[2],
	at: number
): Promise<string> {
	const page = ctx.browser.page;
	const shown = await shownRows(page);
	if (shown.length < 2) return 'skipped: too few rows';
	const { ticked, rows } = await pickRows(page, rowsAt(shown, [op.arg, op.arg + 3]));
	// Star them, or unstar when they all show starred: a change the bar offers to undo.
	const star = !rows.every((r) => r.marked);
	await click(page, {
		css: SELECTION_BUTTONS,
		name: star ? 'Star' : 'Unstar'
	});
	const clicked = Date.now();
	for (const id of ticked) ctx.model.record(index, id, 'marked', star);
	await waitRowsShow(page, ticked, 'marked', star);
	await new Promise((r) => setTimeout(r, Math.max(0, clicked + at - Date.now())));
	await page.press('z');
	// What the screen settles on within a second and a half: every row back (undone), or every
	// row as starred by the step (kept). Anything else: the reader cannot tell, neither can we.
	const deadline = Date.now() + 1_500;
	let outcome: 'undone' | 'kept' | 'mixed' = 'mixed';
	while (Date.now() < deadline) {
		const now = new Map((await shownRows(page)).map((r) => [r.id, r.marked]));
		const back = rows.every((r) => !now.has(r.id) || now.get(r.id) === r.marked);
		const kept = rows.every((r) => !now.has(r.id) || now.get(r.id) === star);
		outcome = back ? 'undone' : kept ? 'kept' : 'mixed';
		if (outcome === 'undone') break;
		await new Promise((r) => setTimeout(r, 100));
	}
	if (outcome === 'undone') ctx.model.undo(index);
	if (outcome === 'mixed') ctx.model.markUnseen(index);
	return `${star ? 'Star' : 'Unstar'}: articles ${ticked.join(',')}, z at ${at} ms: ${outcome}`;
}

/**
 * The selection bar's Labels: two or three rows picked, one label switched for all of them (its
 * box is ticked when every picked row has it; a tick gives it to all, an untick takes it from all).
 * The picker stays open for more: the reader closes it and leaves the selection.
 */
async function bulkLabel(op: Op, index: number, ctx: Parameters<typeof step>[2]): Promise<string> {
	const page = ctx.browser.page;
	const shown = await shownRows(page);
	if (shown.length < 2) return 'skipped: too few rows';
	const { ticked } = await pickRows(page, rowsAt(shown, [op.arg, op.arg + 2]));
	const menu = '[role="group"][aria-label="Selected articles"] details';
	try {
		const switched = await switchLabel(
			page,
			menu,
			'Label…',
			op.arg,
			ctx.labels,
			(labelId, value) => {
				for (const id of ticked) ctx.model.record(index, id, labelField(labelId), value);
			}
		);
		if (!switched) return 'skipped: the labels did not load';
		return `articles ${ticked.join(',')} ${switched.value ? 'with' : 'without'} ${switched.caption}`;
	} finally {
		// The picker closed, the selection left (Cancel), whatever happened above.
		await click(page, { css: `${menu}[open] summary`, name: 'Label…' }).catch(() => undefined);
		await click(page, { css: SELECTION_BUTTONS, name: 'Cancel' }).catch(() => undefined);
	}
}

/**
 * A second account on this device: the reader signs out (from Settings; asked about changes not
 * sent yet, they confirm: those are the reader's word to drop them, so either state passes), the
 * test bed's second user signs in, looks, and signs out; the first signs in again and opens the
 * schedule's feed. The wire is clean meanwhile (sign-in under faults is other steps' matter) and the
 * device online. Checked here: the second account sees nothing of the first (its tree, its cache,
 * its queue), and nothing asks it about changes; on the wire (checkAccounts): nothing of the first
 * sent with the second's session, no login of the first while signed out.
 */
async function secondAccount(index: number, ctx: Parameters<typeof step>[2]): Promise<string> {
	const notes: string[] = [];
	if (ctx.offline.on) {
		ctx.offline.on = false;
		await ctx.browser.setOffline(false);
		ctx.server.offline = false;
		notes.push('online again');
	}
	const plan = ctx.server.plan;
	ctx.server.plan = undefined;
	const page = ctx.browser.page;
	let span: AccountSpan | undefined;
	try {
		const asked = await signOutConfirming(page, ctx);
		if (asked) notes.push(`asked about ${asked} unsent`);
		span = { signedOut: ctx.server.history.length, back: Number.POSITIVE_INFINITY };
		ctx.spans.push(span);
		const second = { user: testbed.secondUser, password: testbed.secondPassword };
		await signInWithForm(page, `${ctx.server.url}/login`, { account: second, timeoutMs: 20_000 });
		ctx.anomalies.push(...(await firstAccountLeftovers(page)));
		const secondAsked = await signOutConfirming(page, ctx);
		if (secondAsked) {
			ctx.anomalies.push({
				kind: 'misdirected',
				detail: `signing the second account out asked about ${secondAsked} changes it never made`
			});
		}
		span.back = ctx.server.history.length;
		await signInWithForm(page, `${ctx.server.url}/login`, { timeoutMs: 20_000 });
		await openFeed(page, ctx.feed);
		return [...notes, `${testbed.secondUser} signed in and out; ${testbed.user} back`].join('; ');
	} catch (e) {
		// The step did not finish: the reader signs in again as themself, whatever showed, so the
		// schedule goes on with its own account (its steps after this one, the check).
		if (span && span.back === Number.POSITIVE_INFINITY) span.back = ctx.server.history.length;
		await waitSignInPage(page).catch(() => undefined);
		await signInWithForm(page, `${ctx.server.url}/login`, { timeoutMs: 20_000 })
			.then(() => openFeed(page, ctx.feed))
			.catch(() => undefined);
		throw e;
	} finally {
		ctx.server.plan = plan;
	}
}

/**
 * How long a sign-out may take: it waits for a running replay or sync to stop, at most
 * STOP_WAIT_MS (db/device.ts: 10 s, a hung request's sync), then wipes.
 */
const SIGN_OUT_MS = STOP_WAIT_MS + 8_000;

/** Waits, as long as a sign-out may take, for the sign-in page. */
async function waitSignInPage(page: EngineBrowser): Promise<void> {
	await poll(
		'the sign-in page',
		() => page.evaluate(() => location.pathname.endsWith('/login')),
		undefined,
		SIGN_OUT_MS
	);
}

/**
 * Signs out from Settings; the question about unsent changes (a `confirm`) answered yes. The
 * changes queued or failed just before are the reader's to drop: `ctx.told`. Returns how many
 * the question named (0: not asked). Waits for the sign-in page.
 */
async function signOutConfirming(
	page: EngineBrowser,
	ctx: Parameters<typeof step>[2]
): Promise<number> {
	const queued = [
		...(((await page.evaluate(readStoreInPage, 'outbox')) ?? []) as OutboxItem[]),
		...(((await page.evaluate(readStoreInPage, 'failed')) ?? []) as FailedItem[])
	];
	await page.evaluate(() => {
		const w = window as unknown as { confirm: (m: string) => boolean; chaosAsked?: string };
		w.chaosAsked = undefined;
		w.confirm = (message: string) => {
			w.chaosAsked = message;
			return true;
		};
	});
	await page.click('a[href="/settings"]');
	await click(page, { css: 'button', name: 'Sign out' });
	// Asked, the reader said yes: from here those changes are theirs to lose, however it ends.
	ctx.told(queued);
	await waitSignInPage(page);
	// The question's lines start with "•": one per change (ten at most, then "… more").
	const asked = await page
		.evaluate(() => (window as unknown as { chaosAsked?: string }).chaosAsked)
		.catch(() => undefined);
	return asked ? Math.max(1, asked.split('•').length - 1) : 0;
}

/**
 * What a second account's first screen must not hold of the first: its feeds in the tree, its
 * articles in the cache (the second user subscribes to none of the schedule's feeds), its
 * changes in the queue or the failed list.
 */
async function firstAccountLeftovers(page: EngineBrowser): Promise<Anomaly[]> {
	const anomalies: Anomaly[] = [];
	const tree: string[] = await page.evaluate(() =>
		[...document.querySelectorAll('nav[aria-label="Feeds"] a')].map(
			(a) => a.textContent?.trim() ?? ''
		)
	);
	for (const feed of FEEDS) {
		if (tree.some((t) => t.startsWith(feed)))
			anomalies.push({ kind: 'misdirected', detail: `the second account's tree shows ${feed}` });
	}
	const cached = ((await page.evaluate(readStoreInPage, 'articles')) ?? []) as {
		id: number;
		feedTitle?: string;
	}[];
	const theirs = cached.filter((a) => FEEDS.some((f) => a.feedTitle === f));
	if (theirs.length > 0) {
		anomalies.push({
			kind: 'misdirected',
			detail: `the second account's cache holds ${theirs.length} articles of the first's feeds (${theirs
				.slice(0, 5)
				.map((a) => a.id)
				.join(',')})`
		});
	}
	for (const store of ['outbox', 'failed'] as const) {
		const left = ((await page.evaluate(readStoreInPage, store)) ?? []) as unknown[];
		if (left.length > 0) {
			anomalies.push({
				kind: 'misdirected',
				detail: `${left.length} changes in the ${store} after the first account signed out: ${JSON.stringify(left).slice(0, 200)}`
			});
		}
	}
	return anomalies;
}

const FIELD_OF: Record<string, Field> = {
	unread: 'unread',
	starred: 'marked',
	published: 'published'
};

/**
 * What the reader was told of changes that will not be made (listed as failed, or dropped by
 * signing out after the question): each item's fields (`articleId:field`), notes and shares, for
 * the checker to let either state pass. A catch-up's covers every article of the account.
 */
function toldOf(
	items: readonly (OutboxItem | FailedItem)[],
	everyArticle: Iterable<number>,
	into: { fields: Set<string>; notes: Set<number>; shares: Set<string> }
): void {
	const all = [...everyArticle];
	for (const { intent } of items) {
		if (intent.type === 'flag') {
			for (const id of intent.articleIds) into.fields.add(`${id}:${FIELD_OF[intent.field]}`);
		} else if (intent.type === 'label') {
			for (const id of intent.articleIds) into.fields.add(`${id}:${labelField(intent.labelId)}`);
		} else if (intent.type === 'catchup') {
			for (const id of all) into.fields.add(`${id}:unread`);
		} else if (intent.type === 'note') {
			into.notes.add(intent.articleId);
		} else if (intent.type === 'share') {
			into.shares.add(intent.title);
		}
	}
}

/** Waits until each of these rows (where still shown) shows unread. */
async function waitRowsUnread(page: EngineBrowser, ids: readonly number[]): Promise<void> {
	await waitRowsShow(page, ids, 'unread', true);
}

/** Waits until each of these rows (where still shown) shows `field` (unread or starred) as `value`. */
async function waitRowsShow(
	page: EngineBrowser,
	ids: readonly number[],
	field: 'unread' | 'marked',
	value: boolean
): Promise<void> {
	await until(
		page,
		`rows ${ids.join(',')} ${field} ${value}`,
		(css: string, list: number[], f: string, v: boolean) =>
			list.every((id) => {
				const row = document.querySelector(`${css} [data-article-id="${id}"]`);
				if (!row) return true;
				const shown =
					f === 'unread'
						? row.classList.contains('unread')
						: row.querySelector('button[aria-label^="Star “"]')?.getAttribute('aria-pressed') ===
							'true';
				return shown === v;
			}),
		['[aria-label^="Headlines of"]', [...ids], field, value]
	);
}

/** The selection bar's four actions. */
const BULK_ACTIONS = [
	{ button: 'Mark read', field: 'unread', value: false },
	{ button: 'Star', field: 'marked', value: true },
	{ button: 'Mark unread', field: 'unread', value: true },
	{ button: 'Unstar', field: 'marked', value: false }
] as const;

/** The action each bulk step takes (bulk-undo picks one: bulkAction). */
const BULK_ACTION_OF: Partial<Record<OpKind, 0 | 1 | 2 | 3>> = {
	'bulk-read': 0,
	'bulk-star': 1,
	'bulk-unread': 2,
	'bulk-unstar': 3
};

/**
 * The selection bar's action a bulk step takes; bulk-undo: one of the four that changes one of
 * the ticked rows at least (picked from `arg`), then Undo.
 */
function bulkAction(
	op: Op,
	rows: readonly ShownRow[]
): { button: string; field: 'unread' | 'marked'; value: boolean } {
	const fixed = BULK_ACTION_OF[op.kind];
	if (fixed !== undefined) return BULK_ACTIONS[fixed];
	const changing = BULK_ACTIONS.filter((a) => rows.some((r) => r[a.field] !== a.value));
	return (
		changing[op.arg % Math.max(1, changing.length)] ?? BULK_ACTIONS[op.arg % 4] ?? BULK_ACTIONS[0]
	);
}

/**
 * Clicks Undo on the newest notification (the step's own; an earlier one may still show). The
 * caller takes the step's intents out of the model once the screen shows them undone.
 */
async function undoLast(page: EngineBrowser): Promise<void> {
	await click(page, {
		css: '[role="status"][aria-label="Notifications"] .toast:last-child button',
		name: 'Undo'
	});
}

const READ_BUTTON = '^Mark (read|unread)$';
const TOOLBAR_BUTTONS = '[role="toolbar"][aria-label="Article actions"] button';
const SELECTION_BUTTONS = '[role="group"][aria-label="Selected articles"] button';

/**
 * Reloads the page. The article open before comes back open, and is not marked read again: the
 * start going back to it is not the reader opening it (state/resume.ts `takeReopened`; seeds 2014
 * and 2019 found a reload overturning the reader's "Mark unread"). The model records nothing.
 */
async function reload(page: EngineBrowser): Promise<void> {
	await page.reload();
	await waitRows(page);
}

async function waitRows(page: EngineBrowser, timeout = STEP_MS * 2): Promise<void> {
	await until(
		page,
		'headline rows',
		() => document.querySelector('[aria-label^="Headlines of"] [data-article-id]') !== null,
		[],
		timeout
	);
}

/**
 * Changes the device still holds unsent: the outbox's items and the write-ahead journal's entries
 * (a change the screen showed whose outbox write has not committed: state/write-ahead.ts). An
 * entry left by a page that went is queued only by another page's recovery: counted, so a change
 * stranded there is not taken for drained (WebKit seed 4700006 drained with the catch-up shown
 * and never sent; the journal was not looked at).
 */
async function unsentCount(page: EngineBrowser): Promise<number> {
	const queued = ((await page.evaluate(readStoreInPage, 'outbox')) as unknown[]).length;
	return queued + entryCount(await journalIn(page));
}

/** The write-ahead journal's local storage item as the page holds it (state/write-ahead.ts). */
function journalIn(page: EngineBrowser): Promise<string | null> {
	return page.evaluate(localItemInPage, JOURNAL_KEY);
}

/** How many entries a journal item holds (0 for none, or for garbage). */
function entryCount(raw: string | null): number {
	try {
		const entries: unknown = JSON.parse(raw ?? '[]');
		return Array.isArray(entries) ? entries.length : 0;
	} catch {
		return 0;
	}
}

async function waitDrained(page: EngineBrowser, deadline: number): Promise<boolean> {
	while (Date.now() < deadline) {
		const pending = await unsentCount(page).catch(() => -1);
		if (pending === 0) return true;
		await new Promise((r) => setTimeout(r, 500));
	}
	return false;
}

async function runSchedule(
	launcher: ChaosLauncher,
	server: ChaosServer,
	seed: number
): Promise<ScheduleResult & { history: HistoryEntry[] }> {
	const started = Date.now();
	const plan = schedule(seed);
	const faultRng = rng(seed ^ 0x5eed);
	resetTestbed();
	const { articles: initial, labels, rows } = await serverState();
	server.reset();
	const browser = await launcher.open(`${server.url}/login`);
	const model = new ReaderModel();
	// The same story's copies, by the harness's own standard (never the app's grouping: issue 55,
	// whose grouping joined different stories and read them with the row shown). Read set on a
	// row may take one along only when the row named its feed ("Also in …"): the reader saw it.
	const copies = sameStoryGroups([...rows.values()].flat());
	model.setCopies(copies);
	const feedOf = new Map(
		[...rows].flatMap(([title, list]) => list.map((r) => [r.id, title] as const))
	);
	const copiesOf = new Map(copies.flatMap((g) => g.map((id) => [id, g] as const)));
	watcher = (shown) => {
		model.saw(shown.map((r) => r.id));
		for (const row of shown) {
			const named = (copiesOf.get(row.id) ?? []).filter((id) => {
				const feed = feedOf.get(id);
				return id !== row.id && feed !== undefined && row.text.includes(feed);
			});
			if (named.length > 0) model.sawCopies(row.id, named);
		}
	};
	const ops: ScheduleResult['ops'] = [];
	const anomalies: Anomaly[] = [];
	let failedShown: number;
	const toldFields = new Set<string>();
	const toldNotes = new Set<number>();
	const toldShares = new Set<string>();
	let nudged = false;
	let strandedAhead = 0;
	const background: Promise<unknown>[] = [];
	const spans: AccountSpan[] = [];
	// Changes the app listed as failed, or the reader dropped: what each told of.
	const told = (items: readonly (OutboxItem | FailedItem)[]): void =>
		toldOf(items, initial.keys(), { fields: toldFields, notes: toldNotes, shares: toldShares });
	try {
		await signInWithForm(browser.page, `${server.url}/login`);
		await openFeed(browser.page, plan.feed);
		await listAnswered(browser.page);
		const offline = { on: false };
		const seen = new Set((await shownRows(browser.page)).map((r) => r.id));
		const extraId = [...initial].find(([id, a]) => a.unread && !seen.has(id))?.[0];
		server.plan = {
			next: (op) => {
				if (SABOTAGE && op === 'updateArticle') return { kind: 'fake-ok', delayMs: 0 };
				if (SABOTAGE_WIDEN && op === 'updateArticle') return { kind: 'widen', delayMs: 0, extraId };
				if (faultRng.next() >= plan.faultRate) return { kind: 'none', delayMs: 0 };
				return { kind: faultRng.weighted(FAULT_WEIGHTS), delayMs: 200 + faultRng.int(2800) };
			}
		};
		for (const [index, op] of plan.ops.entries()) {
			try {
				const note = await step(op, index, {
					browser,
					feed: plan.feed,
					model,
					offline,
					server,
					labels,
					background,
					told,
					spans,
					anomalies
				});
				ops.push({ kind: op.kind, done: !note?.includes('skipped:'), note });
				if (process.env.CHAOS_DEBUG) console.log(`  op ${op.kind}: ${note ?? ''}`);
			} catch (e) {
				ops.push({ kind: op.kind, done: false, note: `not done: ${String(e).split('\n')[0]}` });
			} finally {
				// An error toast during the step: the reader was told this step's change did not hold.
				const page = browser.page;
				const told = await page.evaluate(errorToastsInPage).catch(() => []);
				if (told.length > 0) {
					for (const i of model.intents)
						if (i.op === index) toldFields.add(`${i.articleId}:${i.field}`);
					for (const n of model.notes) if (n.op === index) toldNotes.add(n.articleId);
					for (const n of model.shares) if (n.op === index) toldShares.add(n.title);
					const last = ops[ops.length - 1];
					if (last) last.note = `${last.note ?? ''} [told: ${told.join(' | ')}]`;
					for (let n = 0; n < told.length; n++) {
						await page.click('[role="alert"] .toast.error button').catch(() => undefined);
					}
				}
			}
			// The list may be gone (a failed reload): bring it back for the next step.
			const page = browser.page;
			if (
				!(await waitRows(page, 1_000).then(
					() => true,
					() => false
				))
			) {
				await openFeed(page, plan.feed).catch(() => undefined);
			}
			// What the step left on screen, the reader saw.
			await shownRows(page).catch(() => undefined);
		}

		// Settle: the wire clean, the network back; the outbox must drain (or its items be listed
		// as failed). Halfway the page is reloaded, as a reader would open the app again.
		server.plan = undefined;
		// A PostgreSQL restart still under way ends first: the check needs its server.
		await Promise.all(background);
		if (offline.on) await browser.setOffline(false);
		server.offline = false;
		const page = browser.page;
		const deadline = Date.now() + DRAIN_MS;
		let drained = await waitDrained(page, Date.now() + NUDGE_MS);
		if (!drained) {
			nudged = true;
			strandedAhead = entryCount(await journalIn(page).catch(() => null));
			await reload(page).catch(() => undefined);
			drained = await waitDrained(page, deadline);
		}
		const failedItems = ((await page.evaluate(readStoreInPage, 'failed').catch(() => [])) ??
			[]) as FailedItem[];
		failedShown = failedItems.length;
		told(failedItems);
		const failed = toldFields;
		// A note the reader was told did not save (an error toast during its step, or listed).
		const failedNotes = toldNotes;
		const pending = (await page.evaluate(readStoreInPage, 'outbox').catch(() => undefined)) as
			unknown[] | undefined;
		const journal = await journalIn(page).catch(() => 'unreadable');
		// Drained just after the deadline (the last read raced it) is not stuck.
		if (!drained && (pending === undefined || pending.length > 0 || journal !== null)) {
			anomalies.push({
				kind: 'stuck',
				detail: `${pending?.length ?? 'unreadable:'} changes still queued after ${DRAIN_MS / 1000}s on a clean network: ${String(JSON.stringify(pending)).slice(0, 400)}; written ahead: ${String(journal).slice(0, 300)}`
			});
		}
		const { articles: final } = await serverState();
		if (process.env.CHAOS_DEBUG) {
			console.log('intents', JSON.stringify(model.intents));
			for (const [id, a] of final) {
				const b = initial.get(id);
				if (JSON.stringify(a) !== JSON.stringify(b)) console.log('changed', id, b, a);
			}
		}
		anomalies.push(...checkServer(model, initial, final, failed));
		anomalies.push(...checkNotes(model, initial, final, failedNotes));
		if (model.shares.length > 0)
			anomalies.push(...checkShares(model, await publishedTitles(), toldShares));
		anomalies.push(...checkWire(model, server.history));
		anomalies.push(...checkAccounts(server.history, testbed.user, testbed.secondUser, spans));

		// The screen after the next sync: the feed opened again, as the server answered it.
		await openFeed(page, plan.feed === FEEDS[0] ? FEEDS[1] : FEEDS[0]);
		await openFeed(page, plan.feed);
		await listAnswered(page);
		anomalies.push(...checkScreen(await shownRows(page), final));
		// The device's cache: nothing in it that nobody asked for (a sync's shifted page set).
		const cached = ((await page.evaluate(readStoreInPage, 'articles').catch(() => [])) ??
			[]) as CachedFlags[];
		anomalies.push(...checkCache(model, initial, final, cached));
	} finally {
		watcher = undefined;
		server.plan = undefined;
		server.offline = false;
		await Promise.allSettled(background);
		await browser.close().catch(() => undefined);
	}
	const faults: Record<string, number> = {};
	for (const e of server.history)
		if (e.fault !== 'none') faults[e.fault] = (faults[e.fault] ?? 0) + 1;
	return {
		seed,
		feed: plan.feed,
		ops,
		faults,
		anomalies,
		failedShown,
		nudged,
		...(strandedAhead > 0 ? { strandedAhead } : {}),
		ms: Date.now() - started,
		history: [...server.history]
	};
}

async function main(): Promise<void> {
	if (process.env.CHAOS_LIST === '1') {
		// The seeds' schedules only (to find one with a given operation), nothing run.
		for (const seed of SEEDS) {
			const plan = schedule(seed);
			console.log(`${seed}: ${plan.feed}; ${plan.ops.map((o) => o.kind).join(' ')}`);
		}
		return;
	}
	const server = await startChaosServer({ buildDir: BUILD_DIR, ttrssUrl: testbed.url });
	const launcher = await startEngine(ENGINE);
	mkdirSync(LOG.replace(/\/[^/]*$/, ''), { recursive: true });
	console.log(
		`chaos: ${SEEDS.length} schedules in ${ENGINE}, seeds ${SEEDS.length > 3 ? `${SEEDS[0]}…${SEEDS[SEEDS.length - 1]}` : SEEDS.join(' ')}, ${server.url}`
	);
	const totals = {
		schedules: 0,
		operations: 0,
		done: 0,
		requests: 0,
		faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<string, number>,
		anomalies: {} as Record<string, number>,
		nudged: 0,
		failing: [] as number[],
		errors: [] as number[]
	};
	try {
		for (const seed of SEEDS) {
			let result;
			try {
				result = await runSchedule(launcher, server, seed);
			} catch (e) {
				// Its first line, and what a failed command said on stderr (a test-bed script's reason).
				const stderr = (e as { stderr?: unknown }).stderr;
				const said =
					typeof stderr === 'string' && stderr.trim()
						? `\n  stderr: ${stderr.trim().slice(-2000)}`
						: '';
				console.log(`seed ${seed}: harness error ${String(e).split('\n')[0]}${said}`);
				// What reached the server (the sign-in's requests, if any) tells a harness error apart.
				console.log(
					`  requests: ${server.history.map((h) => `${h.op}${h.fault === 'none' ? '' : `:${h.fault}`}${h.forwarded ? '' : '(not forwarded)'}`).join(' ')}`
				);
				if (process.env.CHAOS_DEBUG) console.log(e);
				totals.errors.push(seed);
				continue;
			}
			totals.schedules++;
			totals.operations += result.ops.length;
			totals.done += result.ops.filter((o) => o.done).length;
			totals.requests += result.history.length;
			if (result.nudged) totals.nudged++;
			for (const [k, n] of Object.entries(result.faults))
				totals.faults[k] = (totals.faults[k] ?? 0) + n;
			for (const a of result.anomalies)
				totals.anomalies[a.kind] = (totals.anomalies[a.kind] ?? 0) + 1;
			const line = `seed ${seed}: ${result.feed}, ${result.ops.filter((o) => o.done).length}/${result.ops.length} ops, ${result.history.length} requests, faults ${JSON.stringify(result.faults)}, failed shown ${result.failedShown}, ${result.nudged ? 'drained after a reload, ' : ''}${result.strandedAhead ? `${result.strandedAhead} changes only written ahead before it, ` : ''}${(result.ms / 1000).toFixed(1)}s`;
			console.log(line);
			const { history, ...rest } = result;
			appendFileSync(
				LOG,
				`${JSON.stringify({ at: new Date().toISOString(), engine: ENGINE, server: testbed.server, requests: history.length, ...rest })}\n`
			);
			if (result.anomalies.length > 0) totals.failing.push(seed);
			if (result.anomalies.length > 0 || process.env.CHAOS_DEBUG) {
				console.log(`  ANOMALIES (replay: CHAOS_RUNS=1 CHAOS_SEED=${seed} npm run chaos)`);
				for (const a of result.anomalies) console.log(`  - ${a.kind}: ${a.detail}`);
				console.log('  operations:');
				for (const o of result.ops) console.log(`    ${o.kind}${o.note ? ` (${o.note})` : ''}`);
				console.log('  history (t ms, op, fault, forwarded → tt-rss answer):');
				for (const h of history) {
					console.log(
						`    ${h.t} ${h.op} ${JSON.stringify(h.params).slice(0, 160)} ${h.fault}${h.forwarded ? ` → ${h.status} ${h.reply ?? ''}`.slice(0, 200) : ' (not forwarded)'}`
					);
				}
			}
		}
	} finally {
		await launcher.close();
		await server.close();
	}
	console.log(
		`\nchaos: ${totals.schedules} schedules, ${totals.operations} operations (${totals.done} done), ${totals.requests} API requests`
	);
	console.log(`faults: ${JSON.stringify(totals.faults)}`);
	console.log(`outbox drained only after a reload: ${totals.nudged} schedules`);
	console.log(`anomalies: ${JSON.stringify(totals.anomalies)}`);
	if (totals.failing.length) console.log(`failing seeds: ${totals.failing.join(' ')}`);
	if (totals.errors.length) console.log(`harness errors (seeds): ${totals.errors.join(' ')}`);
	process.exitCode = totals.failing.length || totals.errors.length ? 1 : 0;
}

await main();
