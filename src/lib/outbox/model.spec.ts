/**
 * Proof by random fault schedules (issue 11): fast-check drives the real outbox, replay, cache and
 * session code through schedules of reader actions, reloads, a second tab and the worker replaying
 * at the same time, faults on the wire, lost replies, session expiry, full storage and sign-ins as
 * other accounts, the sync engine's writes with their read time while changes are confirmed (and
 * syncs longer than the sent log), slow requests with articles arriving meanwhile, undo holds,
 * bulk (mark above) actions and catch-ups of Starred ($support/model-schedule.ts), and checks after each
 * drain that the server holds exactly what the reader meant, in the right account, each share
 * once, that the failed list explains the rest, and that the cache shows what the server has. CI runs a few hundred schedules; `npm run soak` runs 100,000 (SOAK_RUNS) and prints
 * the figures.
 */
import { IDBFactory } from 'fake-indexeddb';
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { installWebLocks, type FakeLocks } from '$support/fake-locks';
import { MemoryStorage } from '$support/memory-storage';
import { installQuotaFaults } from '$support/quota-faults';
import { installTimeoutControl } from '$support/timeout-control';
import { DEFAULT_TIMEOUT_MS } from '$lib/api/transport';
import { recordedLevels } from '$support/fake-fetch';
import {
	actionsArbitrary,
	emptyFigures,
	FAULTS,
	runSchedule,
	type Action,
	type Instance,
	type Instances,
	type ReaderAction,
	type World,
	type DuringStep
} from '$support/model-schedule';

const SOAK_RUNS = Number(process.env.SOAK_RUNS ?? 0);
const RUNS = SOAK_RUNS > 0 ? SOAK_RUNS : 300;
/** The reader's world (issue 55) is slower (the real sync, 70 articles): a fifth as many. */
const READER_RUNS = Math.max(1, Math.ceil(RUNS / 5));
// CI explores the same schedules every run (a red run must be about the change, not the dice);
// elsewhere, and in the soak, each run draws new ones.
const SEED =
	process.env.SOAK_SEED !== undefined
		? Number(process.env.SOAK_SEED)
		: process.env.CI
			? 20_261_123
			: undefined;

/** A fresh copy of every module: what a separate page, tab or worker holds in memory. */
async function loadInstance(): Promise<Instance> {
	vi.resetModules();
	const [
		outbox,
		replay,
		sessionClient,
		open,
		device,
		cache,
		account,
		hold,
		ahead,
		recover,
		budget,
		enqueue,
		kept,
		journalDb,
		notListed,
		sync,
		rules,
		dedupe
	] = await Promise.all([
		import('./outbox'),
		import('./replay'),
		import('./session-client'),
		import('$lib/db/open'),
		import('$lib/db/device'),
		import('$lib/cache/write'),
		import('$lib/db/account'),
		import('./hold'),
		import('$lib/state/write-ahead'),
		import('$lib/state/write-ahead-recover'),
		import('$lib/offline/budget'),
		import('./enqueue'),
		import('$lib/cache/kept'),
		import('$lib/db/journal-db'),
		import('./unread-not-listed'),
		import('$lib/sync/run-sync'),
		import('$lib/rules/store'),
		import('$lib/dedupe/dedupe')
	]);
	return {
		enqueueIntent: enqueue.enqueueIntent,
		replayOutbox: replay.replayOutbox,
		clientFromStoredSession: sessionClient.clientFromStoredSession,
		// The reader's database and the journal's (db/journal-db.ts): a fresh device has neither.
		resetReaderDbForTests: () => {
			open.resetReaderDbForTests();
			journalDb.resetJournalDbForTests();
		},
		openReaderDb: open.openReaderDb,
		storeSessionFor: device.storeSessionFor,
		setShownAccount: account.setShownAccount,
		retryFailed: enqueue.retryFailed,
		cancelHold: hold.cancelHold,
		releaseHold: hold.releaseHold,
		endSignIn: device.endSignIn,
		wipeAccount: device.wipeAccount,
		discardChangesNotOf: device.discardChangesNotOf,
		storeList: cache.storeList,
		storeTree: cache.storeTree,
		storeOfflineHeadlines: kept.storeOfflineHeadlines,
		clearFlagOutside: kept.clearFlagOutside,
		journal: ahead.journal,
		readJournal: ahead.readJournal,
		recoverLeftChanges: recover.recoverLeftChanges,
		enforceBudget: budget.enforceBudget,
		withQueuedChanges: outbox.withQueuedChanges,
		unreadNotListed: notListed.unreadNotListed,
		runSync: sync.runSync,
		saveRules: rules.saveRules,
		groupDuplicates: dedupe.groupDuplicates
	};
}

let instances: Instances;
const figures = emptyFigures();

let locks: FakeLocks;

beforeAll(async () => {
	locks = installWebLocks();
	// Data Saver on: the sync reads pages of 50 (offline/policy.ts batchSize), so the big feed of
	// the reader's world (schedule.ts BIG_FEED_ARTICLES) takes two.
	(navigator as { connection?: object }).connection = { saveData: true };
	// The journal's local storage, one per device (two tabs share it).
	vi.stubGlobal('localStorage', new MemoryStorage());
	installQuotaFaults();
	installTimeoutControl(DEFAULT_TIMEOUT_MS);
	instances = {
		page: await loadInstance(),
		tab2: await loadInstance(),
		worker: await loadInstance()
	};
}, 120_000); // loading three copies of the modules takes long on a loaded machine (the soak)

function freshDatabase(): void {
	globalThis.indexedDB = new IDBFactory();
	localStorage.clear();
	for (const instance of [instances.page, instances.tab2, instances.worker]) {
		instance.resetReaderDbForTests();
	}
}

/** Everything the issue lists. */
const FULL_WORLD: World = {
	arrivals: true,
	accountSwitches: true,
	staleTabCatchups: true,
	faults: FAULTS,
	quota: true,
	lostRepliesOnFullDisk: true,
	shares: true,
	poison: true,
	strictCatchups: false,
	disjointIds: false,
	maxActions: 25,
	holds: true,
	syncWrites: true,
	cacheCheck: true,
	flagScopes: true,
	pageDeaths: true,
	deadSenders: true,
	eviction: true,
	screenCheck: true,
	// Issue 55's parts of the world: READER_WORLD below.
	readerSees: false,
	lookalikes: false,
	engineSync: false,
	rules: false,
	elsewhere: false
};

/**
 * The reader's contract (issue 55): the reader sees rows (look-alike articles the app's grouping
 * may join), the real sync and its rules, another device reading articles. Sign-ins as other
 * accounts are left out (the rules' memory is the one account's).
 */
const READER_WORLD: World = {
	...FULL_WORLD,
	accountSwitches: false,
	staleTabCatchups: false,
	// Waiting for its fix: a full sync re-reading Starred marks an article read in the cache when a
	// catch-up of Starred and a later star of it are both queued ("a catch-up of Starred queued
	// before a star" below).
	flagScopes: false,
	readerSees: true,
	lookalikes: true,
	engineSync: true,
	rules: true,
	elsewhere: true
};

/** Parts of the world that still break a property, each waiting for its fix: none today. */
const WAITING: Partial<World> = {};

/** MODEL_WORLD (JSON) overrides parts of the world, e.g. '{"shares":true}' to try one fix. */
const WORLD: World = {
	...FULL_WORLD,
	...WAITING,
	...(JSON.parse(process.env.MODEL_WORLD ?? '{}') as Partial<World>)
};

async function check(world: World, runs: number): Promise<void> {
	await fc.assert(
		// Each schedule meets one of the test bed's servers, in the headline shape recorded from it.
		fc.asyncProperty(
			actionsArbitrary(world),
			fc.constantFrom(...recordedLevels),
			async (actions, level) => {
				const { violations } = await runSchedule(actions, world, {
					instances,
					freshDatabase,
					figures,
					level,
					newInstance: loadInstance,
					locks
				});
				expect(violations).toEqual([]);
			}
		),
		{
			numRuns: runs,
			...(SEED !== undefined ? { seed: SEED } : {}),
			// MODEL_PATH (with SOAK_SEED): replays one schedule a run printed, as fast-check names it.
			...(process.env.MODEL_PATH ? { path: process.env.MODEL_PATH } : {}),
			// MODEL_RUN_MS: a schedule still running after that long fails with its seed and path
			// (a hang in a long soak), without shrinking.
			...(process.env.MODEL_RUN_MS
				? { timeout: Number(process.env.MODEL_RUN_MS), endOnFailure: true }
				: {})
		}
	);
}

afterAll(() => {
	const faults = Object.entries(figures.faults)
		.map(([k, n]) => `${k} ${n}`)
		.join(', ');
	const lines = [
		`schedules ${figures.schedules}, actions ${figures.actions}, reader changes ${figures.readerChanges}`,
		`requests ${figures.requests}; faults injected: ${faults}; storage-full writes ${figures.quotaWriteFailures}`,
		`changes refused by full storage (reader told) ${figures.refusedByStorage}, stale tabs' catch-ups refused ${figures.refusedStaleTab}, sign-outs during a request ${figures.leftInFlight}; replays that threw ${figures.replayErrors} (${JSON.stringify(figures.replayErrorKinds)})`,
		`failed items (explained) ${figures.failedItems}`,
		`changes lost ${figures.lost}, leaked/widened ${figures.leaked}, shares duplicated ${figures.duplicates}, stuck ${figures.stuck}`,
		`cached articles compared with the server ${figures.cacheCompared}, cache mismatches ${figures.cacheMismatches}`,
		`pages that died mid-write ${figures.pageDeaths} (browser killed ${figures.kills}), changes their next start queued ${figures.recovered}`,
		`workers stopped with a request on its way ${figures.deadSenders}, such requests that landed later ${figures.lateLandings}`,
		`articles evicted ${figures.evicted}, of them named by a queued or failed change ${figures.evictedNamed}`,
		`list rows compared with the reader's changes ${figures.screenRowsCompared}, showing an older state ${figures.screenMismatches}`,
		`issue 55: schedules of the reader's world ${figures.readerSchedules}, real syncs ${figures.engineSyncs} (their lists moved up between pages ${figures.shifts}), articles read elsewhere ${figures.elsewhere}, rules made ${figures.rulesMade} (changes of theirs expected ${figures.ruleActs}), copies a read took along ${figures.copiesTaken}; unseen changes ${figures.unseenChanges}`
	];
	console.log(`outbox model figures:\n  ${lines.join('\n  ')}`);
	// The soak runner (scripts/soak.js) sums the figures of its workers.
	if (process.env.SOAK_FIGURES) writeFileSync(process.env.SOAK_FIGURES, JSON.stringify(figures));
});

describe('the checks themselves', () => {
	const world: World = { ...WORLD, disjointIds: false, faults: [] };
	const quiet = emptyFigures();

	it('find a change the server dropped', async () => {
		const { violations } = await runSchedule(
			[
				{ kind: 'label', tab: 'page', ids: [2], label: -1025, assign: true, quota: 0 },
				{ kind: 'flag', tab: 'tab2', field: 'starred', ids: [3], value: true, quota: 0 }
			],
			world,
			{
				instances,
				freshDatabase,
				figures: quiet,
				sabotage: (r) => (r.body.op === 'setArticleLabel' ? 'drop' : undefined)
			}
		);
		expect(violations).toEqual([
			expect.stringMatching(/^lost: label:2:-1025 of reader@http:\/\/tt\.example\//),
			// The cache shows the change the server does not have.
			expect.stringMatching(/^cache: label:2:-1025 of reader@.*cached true, server false/)
		]);
	});

	it('find a share published twice', async () => {
		const { violations } = await runSchedule([{ kind: 'share', tab: 'page', quota: 0 }], world, {
			instances,
			freshDatabase,
			figures: quiet,
			sabotage: (r) => (r.body.op === 'shareToPublished' ? 'twice' : undefined)
		});
		expect(violations).toEqual([expect.stringMatching(/^duplicate: .* published 2 times/)]);
	});

	it('find a change applied in another account', async () => {
		const { violations } = await runSchedule(
			[{ kind: 'flag', tab: 'page', field: 'starred', ids: [1], value: true, quota: 0 }],
			world,
			{
				instances,
				freshDatabase,
				figures: quiet,
				sabotage: (r) => (r.body.op === 'updateArticle' ? 'elsewhere' : undefined)
			}
		);
		expect(violations).toEqual([
			expect.stringMatching(/^lost: flag:starred:1 of reader@/),
			expect.stringMatching(/^leaked or widened: flag:starred:1 of second@/),
			expect.stringMatching(/^cache: flag:starred:1 of reader@.*cached true, server false/)
		]);
	});
});

describe('the checks of the screen and of eviction', () => {
	const world: World = { ...WORLD, faults: [], arrivals: false, accountSwitches: false };
	/** Runs with the page's (or the worker's) code replaced in part: the checks must notice. */
	async function sabotaged(
		actions: Action[],
		who: 'page' | 'worker',
		part: Partial<Instance>
	): Promise<string[]> {
		const real = instances[who];
		instances[who] = { ...real, ...part };
		try {
			const { violations } = await runSchedule(actions, world, {
				instances,
				freshDatabase,
				figures: emptyFigures(),
				newInstance: loadInstance,
				locks
			});
			return violations;
		} finally {
			instances[who] = real;
		}
	}
	const star: Action = {
		kind: 'flag',
		tab: 'page',
		field: 'starred',
		ids: [1],
		value: true,
		quota: 0
	};
	const refresh: Action = {
		kind: 'refresh',
		tab: 'page',
		scope: { feedId: -4, isCat: false },
		quota: 0
	};

	it('find a list that shows the server over a change still queued', async () => {
		const violations = await sabotaged([star, refresh], 'page', {
			withQueuedChanges: (rows) => Promise.resolve([...rows])
		});
		expect(violations).toContainEqual(
			expect.stringMatching(
				/^screen: flag:starred:1 of reader@.* shows false, the reader made it true/
			)
		);
	});

	it('find an eviction that drops an article a queued change names', async () => {
		const violations = await sabotaged([star, { kind: 'evict', budget: 0 }], 'worker', {
			enforceBudget: async (db) => {
				await db?.clear('articles');
				return { articles: [], images: 0, media: 0, before: 0, after: 0, budget: 0, met: true };
			}
		});
		expect(violations).toContain('evicted: article 1, which a queued or failed change names');
	});
});

describe('undo (held changes)', () => {
	const world: World = { ...WORLD, faults: [], arrivals: false, accountSwitches: false };
	const quiet = emptyFigures();
	const run = (actions: Action[], sabotage?: Parameters<typeof runSchedule>[2]['sabotage']) =>
		runSchedule(actions, world, {
			instances,
			freshDatabase,
			figures: quiet,
			newInstance: loadInstance,
			locks,
			...(sabotage ? { sabotage } : {})
		});
	const heldRead: Action = {
		kind: 'flag',
		tab: 'page',
		field: 'unread',
		ids: [1, 2],
		value: false,
		hold: true,
		quota: 0
	};
	const replay: Action = {
		kind: 'replay',
		who: ['page', 'worker'],
		faults: [],
		during: [],
		quota: 0
	};
	const writes = (ops: string[]) =>
		ops.filter((op) => op === 'updateArticle' || op === 'catchupFeed');

	it('held then undone: nothing is sent, and the server keeps what it had', async () => {
		const { violations, ops } = await run([heldRead, replay, { kind: 'undo', tab: 'page' }]);
		expect(violations).toEqual([]);
		expect(writes(ops)).toEqual([]);
	});

	it('held then expired (the page died): sent exactly once, by whichever replay comes', async () => {
		const { violations, ops } = await run([
			heldRead,
			replay,
			{ kind: 'wait', ms: 7_000 },
			replay,
			replay,
			{ kind: 'undo', tab: 'page' }
		]);
		expect(violations).toEqual([]);
		expect(writes(ops)).toEqual(['updateArticle']);
	});

	it('a held catch-up keeps a later read change behind it, sent or undone', async () => {
		const catchup: Action = {
			kind: 'catchup',
			tab: 'page',
			scope: { feedId: 1, isCat: false },
			mode: 'all',
			hold: true,
			quota: 0
		};
		const unread: Action = {
			kind: 'flag',
			tab: 'tab2',
			field: 'unread',
			ids: [1],
			value: true,
			quota: 0
		};
		for (const end of [
			{ kind: 'undo', tab: 'page' },
			{ kind: 'wait', ms: 7_000 }
		] as Action[]) {
			const { violations } = await run([catchup, unread, replay, end, replay]);
			expect(violations).toEqual([]);
		}
	});

	it('a catch-up from a list read before a queued mark unread spares it (WebKit chaos seed 4700120)', async () => {
		const mark = (value: boolean): Action => ({
			kind: 'flag',
			tab: 'page',
			field: 'unread',
			ids: [1],
			value,
			quota: 0
		});
		const catchup: Action = {
			kind: 'catchup',
			tab: 'page',
			scope: { feedId: 1, isCat: false },
			mode: 'all',
			listLags: true,
			quota: 0
		};
		const { violations, ops } = await run([mark(false), replay, mark(true), catchup, replay]);
		expect(violations).toEqual([]);
		// Sent by ids, never as one catchupFeed (which would mark article 1 read again).
		expect(ops).not.toContain('catchupFeed');
		expect(ops.filter((op) => op === 'updateArticle').length).toBeGreaterThanOrEqual(3);
	});

	it('a catch-up waiting behind a held one keeps a later star behind it (Starred)', async () => {
		const { violations } = await run([
			{
				kind: 'catchup',
				tab: 'page',
				scope: { feedId: 1, isCat: false },
				mode: 'all',
				hold: true,
				quota: 0
			},
			{ kind: 'catchup', tab: 'tab2', scope: { feedId: -1, isCat: false }, mode: 'all', quota: 0 },
			{ kind: 'flag', tab: 'tab2', field: 'starred', ids: [5], value: true, quota: 0 },
			replay,
			{ kind: 'wait', ms: 7_000 },
			replay
		]);
		expect(violations).toEqual([]);
	});

	it('undo of a held unstar after a catch-up of Starred: the catch-up covers what the reader saw', async () => {
		// The reader saw Starred without article 1 (tab2's unstar, held); undoing it must not let
		// the catch-up, sent after the undo, mark 1 read.
		for (const end of [
			[{ kind: 'undo', tab: 'tab2' }, replay],
			[replay, { kind: 'undo', tab: 'tab2' }, replay]
		] as Action[][]) {
			const { violations } = await run([
				{ kind: 'flag', tab: 'page', field: 'starred', ids: [1], value: true, quota: 0 },
				replay,
				{
					kind: 'flag',
					tab: 'tab2',
					field: 'starred',
					ids: [1],
					value: false,
					hold: true,
					quota: 0
				},
				{
					kind: 'catchup',
					tab: 'page',
					scope: { feedId: -1, isCat: false },
					mode: 'all',
					quota: 0
				},
				...end
			]);
			expect(violations).toEqual([]);
		}
	});

	it('a star that replaces an unstar queued before a catch-up of Starred stays behind it', async () => {
		// Coalescing moves a change to the queue's end: past the catch-up, the unstar would be gone
		// and the catch-up would mark read an article the reader saw outside Starred.
		const star = (value: boolean): Action => ({
			kind: 'flag',
			tab: 'page',
			field: 'starred',
			ids: [1],
			value,
			quota: 0
		});
		const { violations } = await run([
			star(true),
			replay,
			star(false),
			{ kind: 'catchup', tab: 'page', scope: { feedId: -1, isCat: false }, mode: 'all', quota: 0 },
			star(true),
			replay
		]);
		expect(violations).toEqual([]);
	});

	/** A catch-up of Starred made (and an unstar of article 1 after it) while a replay runs. */
	const catchUpStarred: DuringStep = {
		at: 0,
		action: { kind: 'catchup', tab: 'page', scope: { feedId: -1, isCat: false }, mode: 'all' }
	};
	const catchUpStarredThenUnstar: Action = {
		...replay,
		during: [
			catchUpStarred,
			{ at: 0, action: { kind: 'flag', tab: 'page', field: 'starred', ids: [1], value: false } }
		]
	};

	it('a sync answer that shows a star made after a catch-up of Starred keeps it unread (soak)', async () => {
		// Found by the soak (seed 7301): the sent log put the catch-up back on the answer's row,
		// which already showed the later star, and the cache marked it read.
		const { violations } = await run([
			{ ...replay, during: [catchUpStarred] },
			{ kind: 'flag', tab: 'page', field: 'starred', ids: [4], value: true, quota: 0 },
			{ ...replay, quota: 1 },
			{ kind: 'sync', steps: [] }
		]);
		expect(violations).toEqual([]);
	});

	it('a queued catch-up of Starred is judged on the answer, not on a later unstar still queued (soak)', async () => {
		// Found by the soak (seed 7301, after the fix above): an unstar of an article that was not
		// starred, queued after the catch-up, made the cache judge the article starred then.
		const { violations } = await run([catchUpStarredThenUnstar, { kind: 'sync', steps: [] }]);
		expect(violations).toEqual([]);
	});

	it('a confirmed unstar of an article that was not starred does not widen a Starred catch-up in the cache (soak)', async () => {
		// Found by the soak (seed 7301): the sync read, a replay sent the catch-up and then the
		// unstar (a no-op on the server), and the sync's write took the article as starred then.
		const { violations } = await run([
			catchUpStarredThenUnstar,
			{ kind: 'sync', steps: [{ do: 'replay', who: ['page'] }] }
		]);
		expect(violations).toEqual([]);
	});

	it('undo puts back, in the cache, an article a list page stored during the hold', async () => {
		const { violations } = await run([
			{ kind: 'arrive', feedId: 1, ageDays: 0 },
			{ kind: 'arrive', feedId: 2, ageDays: 0 },
			{ kind: 'refresh', tab: 'page', scope: { feedId: 2, isCat: false }, quota: 0 },
			{
				kind: 'catchup',
				tab: 'page',
				scope: { feedId: 1, isCat: true },
				mode: 'all',
				hold: true,
				quota: 0
			},
			{ kind: 'refresh', tab: 'page', scope: { feedId: 1, isCat: false }, quota: 0 },
			{ kind: 'undo', tab: 'page' }
		]);
		expect(violations).toEqual([]);
	});

	it('undo of a read change a later catch-up covers leaves the cache as the server ends (soak)', async () => {
		// The soak's counterexample, as found (seed 631194303).
		const { violations } = await run(
			JSON.parse(
				'[{"kind":"replay","who":["page"],"faults":[],"during":[{"at":0,"action":{"kind":"label","tab":"tab2","ids":[1],"label":-1025,"assign":false,"hold":true}},{"at":0,"action":{"kind":"flag","tab":"page","field":"unread","ids":[1],"value":false,"hold":true}}],"quota":0},{"kind":"catchup","tab":"tab2","scope":{"feedId":1,"isCat":false},"mode":"all","hold":true,"quota":1},{"kind":"undo","tab":"page"},{"kind":"flag","tab":"page","field":"published","ids":[1],"value":false,"hold":false,"quota":0},{"kind":"wait","ms":60000}]'
			) as Action[]
		);
		expect(violations).toEqual([]);
	});

	it('a late catch-up checks again for newer articles after a re-login (soak)', async () => {
		// The soak's counterexample (seed 631548110): checked, session ended, an article arrived.
		const { violations } = await run(
			JSON.parse(
				'[{"kind":"catchup","tab":"page","scope":{"feedId":1,"isCat":false},"mode":"all","hold":false,"quota":0},{"kind":"wait","ms":60000},{"kind":"replay","who":["page"],"faults":["expire"],"during":[],"slow":{"at":1,"ms":2000,"arrive":1},"quota":0}]'
			) as Action[]
		);
		expect(violations).toEqual([]);
	});

	it('undo brings back, in the cache, the change it replaced on an article a sync stored during the hold (soak)', async () => {
		// Soak seed 7301: label 7 (not cached), then a held unlabel of 1–7, both while a sync's
		// request is out; the sync stores 7 with the held unlabel over it; undo puts the label
		// change back in the outbox, and the cache must show it too.
		const { violations } = await run([
			{ kind: 'arrive', feedId: 1, ageDays: 0 },
			{
				kind: 'sync',
				steps: [
					{
						do: 'act',
						action: { kind: 'label', tab: 'page', ids: [7, 1], label: -1025, assign: true }
					},
					{
						do: 'act',
						action: {
							kind: 'label',
							tab: 'page',
							ids: [1, 2, 3, 4, 5, 6, 7],
							label: -1025,
							assign: false,
							hold: true
						}
					}
				]
			},
			{ kind: 'undo', tab: 'page' }
		]);
		expect(violations).toEqual([]);
	});

	it('the checks find an undone change that reached the server', async () => {
		// An outbox that says "undone" but keeps the change queued: the drain sends it.
		const real = instances.page.cancelHold;
		instances.page.cancelHold = () =>
			Promise.resolve({ keys: new Set<string>(), changedSince: new Set<string>() });
		try {
			const { violations } = await run([heldRead, { kind: 'undo', tab: 'page' }]);
			expect(violations).toContainEqual(
				expect.stringMatching(/^leaked or widened: flag:unread:[12] of reader@/)
			);
		} finally {
			instances.page.cancelHold = real;
		}
	});
});

/** A quiet world for fixed schedules: no faults on the wire, no arrivals, no account switches. */
const QUIET_WORLD: World = { ...WORLD, faults: [], arrivals: false, accountSwitches: false };

/** A fixed schedule in the quiet world. */
function runQuiet(actions: Action[]): ReturnType<typeof runSchedule> {
	return runSchedule(actions, QUIET_WORLD, {
		instances,
		freshDatabase,
		figures: emptyFigures(),
		newInstance: loadInstance,
		locks
	});
}

describe('a page that dies in the middle of a change (the write-ahead journal)', () => {
	const run = runQuiet;
	const catchup: ReaderAction = {
		kind: 'catchup',
		tab: 'page',
		scope: { feedId: 1, isCat: false },
		mode: 'all',
		hold: false
	};
	const star: ReaderAction = {
		kind: 'flag',
		tab: 'page',
		field: 'starred',
		ids: [2],
		value: true,
		hold: true
	};

	it.each([
		['before its outbox write commits: the next start queues it', 'beforeCommit'],
		['after the write committed: the next start does not queue it again', 'afterCommit']
	] as const)('%s', async (_, phase) => {
		for (const action of [catchup, star]) {
			const { violations } = await run([
				{ kind: 'dieWriting', action, phase, syncFirst: false },
				{ kind: 'wait', ms: 60_000 }
			]);
			expect(violations).toEqual([]);
		}
	});

	it.each([
		[
			'before its outbox write commits: the durable copy has it, the next start queues it once',
			'beforeCommit'
		],
		['after the write committed: the next start does not queue it again', 'afterCommit']
	] as const)('the whole browser killed (local storage lost) %s', async (_, phase) => {
		for (const action of [catchup, star]) {
			const { violations } = await run([
				{ kind: 'dieWriting', action, phase, syncFirst: false, killed: true },
				{ kind: 'wait', ms: 60_000 }
			]);
			expect(violations).toEqual([]);
		}
	});

	it('two catch-ups queued by two starts in the same millisecond both stand (found by the model)', async () => {
		// Each start queues its dead page's catch-up with the time the reader made it; their outbox
		// keys were `catchup:<time>:<counter>` with a counter per module copy, so the second start's
		// key equalled the first's and replaced it: the wider catch-up was lost.
		const { violations } = await run([
			{ kind: 'dieWriting', action: catchup, phase: 'beforeCommit', syncFirst: false },
			{
				kind: 'dieWriting',
				action: { ...catchup, mode: '2week' },
				phase: 'beforeCommit',
				syncFirst: false
			}
		]);
		expect(violations).toEqual([]);
	});

	it('the checks find a start that queues nothing for a page that died before its write', async () => {
		const { violations } = await runSchedule(
			[{ kind: 'dieWriting', action: star, phase: 'beforeCommit', syncFirst: false }],
			QUIET_WORLD,
			// Without the dead page's locks let go, its entry looks like a live tab's: left alone.
			{ instances, freshDatabase, figures: emptyFigures(), newInstance: loadInstance }
		);
		expect(violations).toContain(
			'journal: a start queued 0 change(s) a dead page left, expected 1'
		);
	});
});

describe('the outbox under random fault schedules', () => {
	it(
		'ends with the server in the state the reader meant',
		async () => {
			await check(WORLD, RUNS);
		},
		SOAK_RUNS > 0 ? 0 : 60_000
	);
});

describe('the reader sees rows (issue 55)', () => {
	// The reader's world without faults: ids 1–6 are feeds 1 and 2's, 7–62 the big feed's, then
	// the look-alikes (model-server.ts LOOKALIKES): 63 and 64 two feeds' "Daily digest", 65 and 66
	// feed 1's items linking to its site's root, 67 and 68 one page's #fragments, 69 and 70 one
	// article in both feeds. An arrival is 71.
	const world: World = { ...READER_WORLD, faults: [], quota: false };
	async function run(
		actions: Action[],
		sabotage: { who: 'page' | 'worker'; part: Partial<Instance> } | undefined = undefined
	): Promise<{ violations: string[]; figures: ReturnType<typeof emptyFigures> }> {
		const real = sabotage ? instances[sabotage.who] : undefined;
		if (sabotage) instances[sabotage.who] = { ...instances[sabotage.who], ...sabotage.part };
		const seen = emptyFigures();
		try {
			const { violations } = await runSchedule(actions, world, {
				instances,
				freshDatabase,
				figures: seen,
				newInstance: loadInstance,
				locks
			});
			return { violations, figures: seen };
		} finally {
			if (sabotage && real) instances[sabotage.who] = real;
		}
	}
	/** A read change (`unread` true: marked unread) from the page's list. */
	const read = (ids: number[], unread = false): Action => ({
		kind: 'flag',
		tab: 'page',
		field: 'unread',
		ids,
		value: unread,
		quota: 0
	});
	const refresh = (feedId = -4): Action => ({
		kind: 'refresh',
		tab: 'page',
		scope: { feedId, isCat: false },
		quota: 0
	});
	const sync = (articleCount = 200, shift?: number): Action => ({
		kind: 'engineSync',
		articleCount,
		...(shift === undefined ? {} : { shift })
	});
	const arrive: Action = { kind: 'arrive', feedId: 2, ageDays: 0 };

	it('a read takes along the copy of its story that its row names, and no look-alike (review item 1)', async () => {
		// 64 ("Daily digest" of feed 2), 66 (feed 1's root), 68 (#c2) and 70 (one article in two
		// feeds) read from the first screen: only 69, 70's copy, may go with them.
		const { violations, figures: seen } = await run([
			read([64]),
			read([66]),
			read([68]),
			read([70])
		]);
		expect(violations).toEqual([]);
		expect(seen.copiesTaken).toBe(1);
	});

	it('the checks find a grouping that joins two feeds’ "Daily digest": the hidden one read is an unseen-change', async () => {
		const byTitle: Instance['groupDuplicates'] = (rows) => {
			const shown = rows.filter((r) => r.id !== 63);
			const head = rows.find((r) => r.id === 64);
			const copy = rows.find((r) => r.id === 63);
			return {
				shown,
				copies: new Map(head && copy ? [[64, [copy]]] : []),
				shownFor: new Map(
					head && copy
						? [
								[63, 64],
								[64, 64]
							]
						: []
				)
			};
		};
		const { violations } = await run([read([64])], {
			who: 'page',
			part: { groupDuplicates: byTitle }
		});
		expect(violations).toEqual([
			expect.stringMatching(
				/^unseen-change: flag:unread:63 of reader@.*server false, meant true, the reader never saw it$/
			)
		]);
	});

	const makeRule = (act: 'read' | 'star'): Action => ({ kind: 'rule', act });

	it('a rule leaves alone an article the reader changed since the open list brought it in (review item 4)', async () => {
		const { violations, figures: seen } = await run([
			makeRule('read'),
			arrive,
			refresh(),
			// Opened (read), then kept unread on purpose; then the next sync and its rules.
			read([71]),
			read([71], true),
			sync()
		]);
		expect(violations).toEqual([]);
		expect(seen.rulesMade).toBe(1);
	});

	it('the checks find a rule that acts on the reader’s choice', async () => {
		const realSync = instances.worker.runSync;
		const worker = instances.worker;
		const { violations } = await run(
			[makeRule('read'), arrive, refresh(), read([71]), read([71], true), sync()],
			{
				who: 'worker',
				part: {
					// The rules of cd7e7e8: every article above their mark, the reader's choice or not.
					runSync: async (options) => {
						const outcome = await realSync(options);
						await worker.enqueueIntent(
							{ type: 'flag', field: 'unread', articleIds: [71], value: false },
							options.now?.()
						);
						return outcome;
					}
				}
			}
		);
		expect(violations).toEqual([
			expect.stringMatching(/^lost: flag:unread:71 of reader@.*server false, meant true$/)
		]);
	});

	it('a rule acts on an article that reaches the device after newer ones (review item 3)', async () => {
		// Four arrive; a sync keeping three takes the newest (72–74) and the rule stars them; the
		// open list of feed 2 brings 71 in; the next sync's rules must star it too.
		const { violations, figures: seen } = await run([
			makeRule('star'),
			arrive,
			arrive,
			arrive,
			arrive,
			sync(3),
			refresh(2),
			sync(3)
		]);
		expect(violations).toEqual([]);
		expect(seen.ruleActs).toBe(4);
	});

	it('the checks find a rule that skips what arrived', async () => {
		const realSave = instances.page.saveRules;
		const { violations } = await run([makeRule('star'), arrive, refresh(2), sync(3)], {
			who: 'page',
			// A rule whose scope no article is in: what a rule that skips does to the server.
			part: {
				saveRules: (account, settings) =>
					realSave(account, {
						rules: settings.rules.map((r) =>
							r.kind === 'match' ? { ...r, scope: { kind: 'feed', id: 99 } } : r
						)
					})
			}
		});
		expect(violations).toEqual([
			expect.stringMatching(
				/^lost: flag:starred:71 of reader@.*server false, meant true \(the rule's change\)$/
			)
		]);
	});

	it('a sync whose unread list moves up between its pages keeps a still-unread article unread (review item 5)', async () => {
		// The first sync pages the 70 unread articles by 50; another device reads 69 before the
		// second page: article 20 moves onto the first page, already read.
		const { violations, figures: seen } = await run([sync(200, 0)]);
		expect(violations).toEqual([]);
		expect(seen.shifts).toBe(1);
		expect(seen.elsewhere).toBe(1);
	});

	it('the checks find a sync that takes a shifted page set as whole: an unseen-change in the cache', async () => {
		const realSync = instances.worker.runSync;
		const worker = instances.worker;
		const { violations } = await run([sync(200)], {
			who: 'worker',
			part: {
				// The engine of cd7e7e8 under a list that moved up: its pages missed article 20, the
				// set still counted as whole, and the cached copies outside it lost their unread flag.
				runSync: async (options) => {
					const outcome = await realSync(options);
					const read = Array.from({ length: 70 }, (_, i) => i + 1).filter((id) => id !== 20);
					await worker.clearFlagOutside('unread', new Set(read), {
						account: options.account ?? '',
						readAt: options.now?.() ?? Date.now()
					});
					return outcome;
				}
			}
		});
		expect(violations).toEqual([
			expect.stringMatching(
				/^unseen-change: cache flag:unread:20 of reader@.*cached false, server true, the reader never saw it$/
			)
		]);
	});
});

describe('found by the reader’s world (soak seed 3, shrunk)', () => {
	// The sync's read of bodies (cache/kept.ts storeArticleBodies) wrote the cached copy's state,
	// which has the queued changes on, and applied them again over it: the catch-up of Starred was
	// judged on the article with the later star already on, and the cache showed article 1 read
	// while the server (catch-up sent, then the star) kept it unread. Bodies now carry the server's
	// state, with the queued changes applied once.
	it('a catch-up of Starred queued before a star of an article: a full sync leaves it unread in the cache', async () => {
		const { violations } = await runSchedule(
			[
				{ kind: 'engineSync', articleCount: 3 },
				{
					kind: 'catchup',
					tab: 'page',
					scope: { feedId: -1, isCat: false },
					mode: 'all',
					hold: false,
					quota: 0
				},
				{ kind: 'flag', tab: 'page', field: 'starred', ids: [1], value: true, quota: 0 },
				{ kind: 'engineSync', articleCount: 200 }
			],
			{ ...READER_WORLD, faults: [], quota: false },
			{ instances, freshDatabase, figures: emptyFigures(), newInstance: loadInstance, locks }
		);
		expect(violations).toEqual([]);
	});
});

describe('the reader’s contract under random fault schedules (issue 55)', () => {
	it(
		'ends with no change nobody asked for, and every change the reader or a rule did',
		async () => {
			await check(READER_WORLD, READER_RUNS);
		},
		SOAK_RUNS > 0 ? 0 : 60_000
	);
});

describe('a worker stopped with a request on its way (chaos seed 2002)', () => {
	const run = runQuiet;
	const read = (value: boolean): Action => ({
		kind: 'flag',
		tab: 'page',
		field: 'unread',
		ids: [1],
		value: !value,
		quota: 0
	});
	const label = (assign: boolean): ReaderAction => ({
		kind: 'label',
		tab: 'page',
		ids: [1],
		label: -1026,
		assign,
		hold: false
	});
	/** A catch-up of feed 1's last week: sent by ids (an age mode), one article write at a time. */
	const weekOfFeed1: Action = {
		kind: 'catchup',
		tab: 'page',
		scope: { feedId: 1, isCat: false },
		mode: '1week',
		hold: false,
		quota: 0
	};
	/**
	 * A label assigned, the worker stopped with it on its way, the page sending it again and the
	 * reader taking the label off during that send (`slow`: that send takes so long).
	 */
	const labelOffDuringResend = (slow?: { at: number; ms: number }): Action[] => [
		{ ...label(true), quota: 0 },
		{ kind: 'replayDies', at: 0 },
		{
			kind: 'replay',
			who: ['page'],
			faults: [],
			during: [{ at: 0, action: label(false) }],
			...(slow ? { slow } : {}),
			quota: 0
		},
		{ kind: 'wait', ms: 2000 }
	];

	it('its mark read lands after the reader’s mark unread was confirmed: the server ends unread', async () => {
		const { violations, ops } = await run([
			read(true),
			{ kind: 'replayDies', at: 0 },
			read(false),
			// The page sends the mark unread; then the held mark read reaches tt-rss.
			{ kind: 'replay', who: ['page'], faults: [], during: [], quota: 0 }
		]);
		expect(violations).toEqual([]);
		// The mark read (held, then landed), the mark unread, and the mark unread once more.
		expect(ops.filter((op) => op === 'updateArticle')).toHaveLength(3);
	});

	it('its label lands after the reader took the label off during the next send (soak seed 969868045)', async () => {
		const { violations } = await run(labelOffDuringResend());
		expect(violations).toEqual([]);
	});

	it('a send whose sender died lands within its timeout: a change made after it is sent once (soak seed 969868045)', async () => {
		// The page's second send takes 61 s: the first lands meanwhile, and the removal comes after.
		const { violations, ops } = await run(labelOffDuringResend({ at: 0, ms: 61_000 }));
		expect(violations).toEqual([]);
		// The label twice (the held one and the page's), the removal once.
		expect(ops.filter((op) => op === 'setArticleLabel')).toHaveLength(3);
	});

	it('a mark unread sent twice by dying workers, then a catch-up: the catch-up has the last word (soak seed 969868045)', async () => {
		const { violations, ops } = await run([
			{ kind: 'expire' },
			{ kind: 'flag', tab: 'page', field: 'unread', ids: [1], value: true, hold: false, quota: 0 },
			{ kind: 'replayDies', at: 1 },
			{
				kind: 'dieWriting',
				action: {
					kind: 'catchup',
					tab: 'page',
					scope: { feedId: 1, isCat: false },
					mode: 'all',
					hold: false
				},
				phase: 'beforeCommit',
				syncFirst: false,
				killed: false
			},
			{ kind: 'replayDies', at: 1 },
			{ kind: 'wait', ms: 60_000 }
		]);
		expect(violations).toEqual([]);
		// The catch-up once more after the first mark unread's send could no longer land.
		expect(ops.filter((op) => op === 'catchupFeed')).toHaveLength(2);
	});

	it('undo after a sign-in that queued another tab’s label from its journal (soak seed 969868045)', async () => {
		const { violations } = await run([
			{ kind: 'signOut', account: 1, stay: false },
			{
				kind: 'dieWriting',
				action: { kind: 'label', tab: 'tab2', ids: [1], label: -1026, assign: true, hold: false },
				phase: 'beforeCommit',
				syncFirst: false,
				killed: false
			},
			{ kind: 'label', tab: 'page', ids: [1], label: -1026, assign: false, hold: true, quota: 0 },
			{ kind: 'signIn', account: 0, stay: false, keep: true },
			{ kind: 'undo', tab: 'page' },
			{ kind: 'evict', budget: 0 }
		]);
		expect(violations).toEqual([]);
	});

	it('a held send that lands during a replay takes none of the replay’s faults (soak seed 532007869, path 733)', async () => {
		// The page's first send takes 61 s: the worker's held star lands meanwhile. The replay's
		// `timeout` is for its own next send; taken by the landing (sent without a signal), it
		// never ended, and the schedule with it.
		const { violations, log } = await run([
			{ kind: 'flag', tab: 'page', field: 'starred', ids: [1], value: true, hold: false, quota: 0 },
			{ kind: 'replayDies', at: 0 },
			{
				kind: 'flag',
				tab: 'page',
				field: 'published',
				ids: [1],
				value: true,
				hold: false,
				quota: 0
			},
			{
				kind: 'replay',
				who: ['page'],
				faults: ['ok', 'timeout'],
				during: [],
				slow: { at: 0, ms: 61_000 },
				quota: 0
			}
		]);
		expect(violations).toEqual([]);
		// The page's star, the held star landing, the publish (timed out), the publish again.
		expect(log.filter((r) => r.op === 'updateArticle').map((r) => r.fault)).toEqual([
			'ok',
			'ok',
			'timeout',
			'ok'
		]);
	});

	it('a star discarded at a sign-out lands later: a catch-up of Starred may cover its article (soak seed 538289572)', async () => {
		// The worker died with the star on its way; the reader signed out, agreeing to lose it, and
		// in again; the star landed while their catch-up of Starred waited for Undo, and the
		// catch-up's one call marked that article read with the rest of Starred.
		const { violations, ops } = await run([
			{
				kind: 'flag',
				tab: 'page',
				field: 'starred',
				ids: [1, 9],
				value: true,
				hold: false,
				quota: 0
			},
			{ kind: 'replayDies', at: 0 },
			{ kind: 'signOut', account: 0, stay: true },
			{
				kind: 'catchup',
				tab: 'page',
				scope: { feedId: -1, isCat: false },
				mode: 'all',
				hold: true,
				quota: 0
			}
		]);
		expect(violations).toEqual([]);
		expect(ops).toContain('catchupFeed');
	});

	it('a catch-up’s mark read lands after a mark unread queued before its send (the doubt comes at its second send)', async () => {
		const { violations, ops } = await run([
			weekOfFeed1,
			{ kind: 'flag', tab: 'page', field: 'unread', ids: [1], value: true, hold: false, quota: 0 },
			{ kind: 'replayDies', at: 0 },
			{ kind: 'replay', who: ['page'], faults: [], during: [], quota: 0 }
		]);
		expect(violations).toEqual([]);
		// The catch-up's ids (held, then landed), again, the mark unread, and once more after.
		expect(ops.filter((op) => op === 'updateArticle')).toHaveLength(4);
	});

	it('a catch-up’s mark read lands after the reader marked one of its articles unread (soak seed 969868044)', async () => {
		const { violations } = await run([
			weekOfFeed1,
			{ kind: 'replayDies', at: 0 },
			{
				kind: 'dieWriting',
				action: { kind: 'flag', tab: 'page', field: 'unread', ids: [1], value: true, hold: false },
				phase: 'beforeCommit',
				syncFirst: false,
				killed: false
			},
			{ kind: 'replay', who: ['page'], faults: [], during: [], quota: 0 }
		]);
		expect(violations).toEqual([]);
	});
});

describe('two held changes of one article, undone latest first', () => {
	it('a fresh catch-up sent after a held one: the held one’s Undo leaves what the sent one may have read (soak seed 532007869)', async () => {
		// An article arrives in feed 2; the reader holds a catch-up of its category in one tab and
		// catches up feed 2 in the other, sent at once (it may read the new article: the lenient
		// model's "either way"); then undoes the held one. The model's Undo put the new article
		// back to unread, though the sent catch-up had marked it read.
		const { violations } = await runQuiet([
			{ kind: 'arrive', feedId: 2, ageDays: 0 },
			{
				kind: 'replay',
				who: ['page'],
				faults: [],
				during: [
					{
						at: 0,
						action: {
							kind: 'catchup',
							tab: 'tab2',
							scope: { feedId: 1, isCat: true },
							mode: 'all',
							hold: true,
							listLags: false
						}
					},
					{
						at: 0,
						action: {
							kind: 'catchup',
							tab: 'page',
							scope: { feedId: 2, isCat: false },
							mode: 'all',
							hold: false,
							listLags: false
						}
					}
				],
				quota: 0
			},
			{ kind: 'undo', tab: 'tab2' },
			{ kind: 'replay', who: ['page'], faults: [], during: [], quota: 0 }
		]);
		expect(violations).toEqual([]);
	});

	it('a catch-up held in one tab, a mark read held in the other: both undone, the article ends unread (soak seeds 532007868 and 532007869)', async () => {
		// The model forgot that after the mark read's Undo the held catch-up again wrote the key:
		// the catch-up's own Undo then left the article read in the model (the app had it right).
		const { violations, ops } = await runQuiet([
			{
				kind: 'sync',
				steps: [
					{
						do: 'act',
						action: {
							kind: 'catchup',
							tab: 'tab2',
							scope: { feedId: 1, isCat: false },
							mode: 'all',
							hold: true,
							listLags: false
						}
					},
					{
						do: 'act',
						action: {
							kind: 'flag',
							tab: 'page',
							field: 'unread',
							ids: [1],
							value: false,
							hold: true
						}
					}
				]
			},
			{ kind: 'undo', tab: 'page' },
			{ kind: 'undo', tab: 'tab2' }
		]);
		expect(violations).toEqual([]);
		// Nothing reached the server: both changes were taken back before they were sent.
		expect(ops.filter((op) => op !== 'getHeadlines')).toEqual([]);
	});
});
