/**
 * Test helper (used only by model.spec.ts): random fault schedules for the outbox. A schedule is a
 * list of reader actions, replays (page, second tab, worker, at the same time), reloads, sign-ins,
 * session expiry, new articles on the server, full storage and faults on the wire. It runs against
 * the real outbox, replay, cache and session code (two or three module instances, one per page or
 * worker, sharing one fake IndexedDB) and the multi-account fake server, then drains the outbox with
 * the faults gone and compares each account's server state with a simple model: the last intent per
 * article and field, catch-ups limited to what the reader could see, each share once, nothing in
 * another account, and the failed list explaining whatever was not applied. With `cacheCheck`, the
 * cache too: after the drain every cached article of the cache's account shows the server's state
 * (issue 22: the model caught only the server's end state before; the cache could disagree).
 *
 * The reader sees rows (issue 55, `readerSees`): a list shows the screen's first rows as the app
 * groups them (dedupe/, the copies of a story shown once), a read on a row takes its copies along
 * as the list does (state/shown-rows.svelte.ts `withCopies`), and the model knows which story each
 * article truly tells. A copy of another story read with its row, a cached flag a sync made up, or
 * a rule acting where its contract says it must not (or not acting where it must): each is a
 * change nobody asked for, **unseen-change** when the reader never saw the article. Besides the
 * reader only two may change an article: another device (`elsewhere`, whose change the model
 * follows) and the reader's rules (`rule`), run after each real sync (`engineSync`: the engine in
 * pages, then the rules), which act on every article that reached the device after the rule was
 * made and that the reader has not changed since, and on no other.
 *
 * Undo (issue 14): a reader action may be held (`hold`: its Undo toast shows), then undone,
 * released (the toast went away) or left to expire (a wait; the page died). The model forgets an
 * undone change (every key it last wrote goes back to what it was before), so a held change that
 * reached the server anyway, or an undo that lost a change made since, shows up as a violation.
 */
import fc from 'fast-check';
import type { CatchupMode, FeedTree, Headline } from '$lib/api';
import { CACHE_OWNER } from '$lib/db/keys';
import { getStored } from '$lib/db/kv';
import type { StoredArticle, StoredSession } from '$lib/db/schema';
import type { ArticleFlag, Intent } from '$lib/outbox/intent';
import { REPLAY_LOCK } from '$lib/outbox/outbox-contract';
import { FRESH_MS } from '$lib/outbox/replay-send';
import { UNANSWERED_MS } from '$lib/outbox/replay-judge';
import type { FakeLocks } from './fake-locks';
import {
	accountKey,
	param,
	CATEGORY_OF,
	LOOKALIKES,
	FAULTS,
	FEEDS,
	LABELS,
	modelServer,
	type AccountRef,
	type Fault,
	type LoggedRequest,
	type ModelServerOptions,
	type ServerArticle
} from './model-server';
import { quota } from './quota-faults';
import { JOURNAL_KEY } from '$lib/state/write-ahead-check';
import { newestLongTimer } from './timeout-control';

// ------------------------------------------------------------------ the code under test

/** One page or worker: its own copy of every module (its own DB connection, its own `running`). */
export interface Instance {
	enqueueIntent: typeof import('$lib/outbox/enqueue').enqueueIntent;
	replayOutbox: typeof import('$lib/outbox/replay').replayOutbox;
	clientFromStoredSession: typeof import('$lib/outbox/session-client').clientFromStoredSession;
	resetReaderDbForTests: typeof import('$lib/db/open').resetReaderDbForTests;
	openReaderDb: typeof import('$lib/db/open').openReaderDb;
	/** The login page's way to store a session (empties another account's cache). */
	storeSessionFor: typeof import('$lib/db/device').storeSessionFor;
	/** The page session's account: new changes are stamped with it. */
	setShownAccount: typeof import('$lib/db/account').setShownAccount;
	/** "Try again" in the failed list. */
	retryFailed: typeof import('$lib/outbox/enqueue').retryFailed;
	/** Undo and the toast going away (outbox/hold.ts). */
	cancelHold: typeof import('$lib/outbox/hold').cancelHold;
	releaseHold: typeof import('$lib/outbox/hold').releaseHold;
	/** Sign-out's first step (the kept session and the cache's owner go), then its wipe. */
	endSignIn: typeof import('$lib/db/device').endSignIn;
	wipeAccount: typeof import('$lib/db/device').wipeAccount;
	/** The login page's "discard" answer for the earlier account's changes. */
	discardChangesNotOf: typeof import('$lib/db/device').discardChangesNotOf;
	storeList: typeof import('$lib/cache/write').storeList;
	storeTree: typeof import('$lib/cache/write').storeTree;
	/** The sync engine's writes: rows and kept sets read at `readAt` (sync/engine.ts). */
	storeOfflineHeadlines: typeof import('$lib/cache/kept').storeOfflineHeadlines;
	clearFlagOutside: typeof import('$lib/cache/kept').clearFlagOutside;
	/** The page writes a change ahead of the outbox (state/write-ahead.ts) and reads what is left. */
	journal: typeof import('$lib/state/write-ahead').journal;
	readJournal: typeof import('$lib/state/write-ahead').readJournal;
	/** A start's look at what a page that died left in the journal. */
	recoverLeftChanges: typeof import('$lib/state/write-ahead-recover').recoverLeftChanges;
	/** The storage budget's eviction (offline/budget.ts), run after each sync. */
	enforceBudget: typeof import('$lib/offline/budget').enforceBudget;
	/** What a list shows: the server's rows with the changes not yet in them (outbox.ts). */
	withQueuedChanges: typeof import('$lib/outbox/outbox').withQueuedChanges;
	/** What a catch-up of a list spares: unread changes the list does not show (state/actions.ts). */
	unreadNotListed: typeof import('$lib/outbox/unread-not-listed').unreadNotListed;
	/** A sync as the page and the worker run it: the engine, then the reader's rules (sync/run-sync.ts). */
	runSync: typeof import('$lib/sync/run-sync').runSync;
	/** The rules' page saving the reader's rules (rules/store.ts). */
	saveRules: typeof import('$lib/rules/store').saveRules;
	/** The list's grouping of a story's copies (dedupe/dedupe.ts), "same story shown once" on. */
	groupDuplicates: typeof import('$lib/dedupe/dedupe').groupDuplicates;
}

export interface Instances {
	page: Instance;
	tab2: Instance;
	worker: Instance;
}

// ------------------------------------------------------------------ schedules

export type Tab = 'page' | 'tab2';
export type Replayer = 'page' | 'tab2' | 'worker';
export interface Scope {
	feedId: number;
	isCat: boolean;
}

/** `hold`: undoable (an Undo toast shows): queued held, see outbox/hold.ts. */
export type ReaderAction =
	| { kind: 'flag'; tab: Tab; field: ArticleFlag; ids: number[]; value: boolean; hold?: boolean }
	| { kind: 'note'; tab: Tab; id: number; text: string }
	| { kind: 'label'; tab: Tab; ids: number[]; label: number; assign: boolean; hold?: boolean }
	| {
			kind: 'catchup';
			tab: Tab;
			scope: Scope;
			mode: CatchupMode;
			hold?: boolean;
			/**
			 * Made from a list read before the reader's unread changes still queued: none of them is
			 * in it, so the catch-up spares them (CatchupIntent `spare`, WebKit chaos seed 4700120).
			 */
			listLags?: boolean;
	  }
	| { kind: 'share'; tab: Tab };

/**
 * What the reader does while a replay's request is in flight: a change, or `leave`: sign out
 * (agreeing to lose the unsent changes) and sign in as `account` (issue 22, items 1–2: the replay
 * still running must send nothing more of the account that left, nor write to its wiped stores).
 */
export type DuringAction = ReaderAction | { kind: 'leave'; account: number };

/** A reader action made once the request with this index (from the replay's start) is answered. */
export interface DuringStep {
	at: number;
	action: DuringAction;
}

/** What happens between a sync's read of the unread set and its writes of that answer. */
export type SyncStep =
	| { do: 'act'; action: ReaderAction }
	| { do: 'replay'; who: Replayer[] }
	| { do: 'wait'; ms: number };

export type Action =
	| (ReaderAction & { quota: number })
	/**
	 * A sync (sync/engine.ts): reads the unread set at `readAt`, then, after `steps` (the reader's
	 * changes, replays confirming them, time passing: a sync longer than the sent log keeps its
	 * entries), writes that answer (storeOfflineHeadlines, clearFlagOutside) with its read time.
	 */
	| { kind: 'sync'; steps: SyncStep[] }
	| { kind: 'refresh'; tab: Tab; scope: Scope; quota: number }
	| { kind: 'arrive'; feedId: number; ageDays: number }
	| {
			kind: 'replay';
			who: Replayer[];
			faults: Fault[];
			/** Reader actions made while a request is in flight (after the server answered it). */
			during: DuringStep[];
			/** Time passing during a request (a slow server), an article arriving meanwhile. */
			slow?: { at: number; ms: number; arrive?: number };
			quota: number;
	  }
	| { kind: 'reload'; tab: Tab }
	/** Undo pressed in this tab (its newest offer), or its toast went away (release). */
	| { kind: 'undo'; tab: Tab }
	| { kind: 'release'; tab: Tab }
	| { kind: 'expire' }
	| { kind: 'wait'; ms: number }
	/** "Try again" on one of the failed changes. */
	| { kind: 'retry'; pick: number }
	/** Sign-out (the reader agrees to lose this account's unsent changes), then a sign-in. */
	| { kind: 'signOut'; account: number; stay: boolean }
	/** Sign-in (after the session ended, or as another account, keeping or discarding its changes). */
	| { kind: 'signIn'; account: number; stay: boolean; keep: boolean }
	/**
	 * The page dies while its change's outbox write is under way: before it commits (the journal
	 * alone has it) or after (the journal entry was not yet dropped). With `syncFirst`, the worker
	 * syncs new articles into the cache before the next start looks at the journal. `killed`: the
	 * whole browser killed outright, so local storage loses what it had not committed (the
	 * journal's entries): only the journal's durable copy (db/journal-db.ts) has the change, once
	 * its own short write committed (chaos seeds 5000012 and 5000019).
	 */
	| {
			kind: 'dieWriting';
			action: ReaderAction;
			phase: DeathPhase;
			syncFirst: boolean;
			killed?: boolean;
	  }
	/**
	 * The worker replays and is stopped while its request `at` (counted from the replay's start;
	 * the first change of an article from there) is on its way: the request is held there and
	 * reaches the server later (after the next replay, or before the drain), when the reader may
	 * have changed the same field again (chaos seed 2002). Its code never runs again.
	 */
	| { kind: 'replayDies'; at: number }
	/** The storage budget evicts cached articles down to `budget` bytes. */
	| { kind: 'evict'; budget: number }
	/**
	 * The real sync (sync/run-sync.ts: the engine in pages, then the reader's rules) keeping
	 * `articleCount` articles. With `shift`, another device reads an article of the unread list's
	 * earlier pages just before a later page is asked for: the list moves up under the paging.
	 */
	| { kind: 'engineSync'; articleCount: number; shift?: number }
	/** Another device reads an unread article (a server-side actor: the model follows it). */
	| { kind: 'elsewhere'; pick: number }
	/** The reader makes a rule over feed 2's articles (mark them read, or star them). */
	| { kind: 'rule'; act: RuleAct };

export type RuleAct = 'read' | 'star';

export type DeathPhase = 'beforeCommit' | 'afterCommit';

/** Which parts of the world a run may use (some wait for fixes: see model.spec.ts). */
export interface World {
	/** Articles arriving on the server after the reader's last look (catch-ups must not widen). */
	arrivals: boolean;
	/** Sign-ins as another account. */
	accountSwitches: boolean;
	/** No two accounts have an article with the same id (else users of one server share them). */
	disjointIds: boolean;
	/** Catch-ups in a tab left open for the earlier account, after another signed in. */
	staleTabCatchups: boolean;
	/** Faults on the wire, from this list. */
	faults: readonly Fault[];
	/** Full storage during some steps. */
	quota: boolean;
	/** Replies lost (or mixed up) while the disk is full, so the replay cannot note its attempt. */
	lostRepliesOnFullDisk: boolean;
	/** Shares (sent twice would publish twice). */
	shares: boolean;
	/** A note too large for the proxy (always HTTP 413): must reach the failed list, not block. */
	poison: boolean;
	/**
	 * Catch-ups cover exactly the visible articles even when sent at once. Off: a catch-up sent
	 * within FRESH_MS covers its scope as it is then (replay.ts's rule), so unseen articles of the
	 * scope may be read or not.
	 */
	strictCatchups: boolean;
	/** Actions per schedule. */
	maxActions: number;
	/** Undoable actions: held, then undone, released or left to expire. */
	holds: boolean;
	/** The sync engine's writes with their read time, slow requests, bulk (mark above) actions. */
	syncWrites: boolean;
	/** Check the cache against the server (and the failed list) after the drain, not only the server. */
	cacheCheck: boolean;
	/** Catch-ups of Starred, whose scope the reader's own stars change. */
	flagScopes: boolean;
	/** Pages that die in the middle of a change's outbox write (the write-ahead journal's case). */
	pageDeaths: boolean;
	/** A worker stopped while its replay's request is on its way; the request lands later. */
	deadSenders: boolean;
	/** The storage budget evicting cached articles. */
	eviction: boolean;
	/** Check each refreshed list's rows (what the screen shows) against the reader's changes. */
	screenCheck: boolean;
	/**
	 * The reader sees rows (issue 55): lists show their first SCREEN_ROWS rows as the app groups
	 * them, a read takes a row's copies along, and a change nobody asked for on an article never
	 * seen is an `unseen-change`.
	 */
	readerSees: boolean;
	/** Look-alike articles (model-server.ts `lookalikes`) and one true copy, for the grouping. */
	lookalikes: boolean;
	/** The real sync engine and its rules (`engineSync`), with a feed big enough for pages. */
	engineSync: boolean;
	/** The reader's rules (`rule`). */
	rules: boolean;
	/** Another device reading articles (`elsewhere`, and `engineSync`'s `shift`). */
	elsewhere: boolean;
}

/** Rows of a list the reader's screen shows (the rest is further down, unseen until scrolled). */
export const SCREEN_ROWS = 12;
/** The big feed's articles (`engineSync`): more than a sync's page of 50 under Data Saver. */
export const BIG_FEED_ARTICLES = 56;
/** The rule's query and scope: every article of feed 2 (each one's title is `Article <id>`). */
const RULE_FEED = 2;

export const ACCOUNTS: readonly AccountRef[] = [
	{ apiUrl: 'http://tt.example/tt-rss/api/', user: 'reader', password: 'pw-reader' },
	{ apiUrl: 'http://tt.example/tt-rss/api/', user: 'second', password: 'pw-second' },
	{ apiUrl: 'http://other.example/api/', user: 'reader', password: 'pw-other' }
];

const PER_FEED = 3;
/** Faults after which the server has applied the request but the client never learns it. */
const APPLIED_UNANSWERED = new Set<Fault>(['lost', 'seq', 'timeout']);
const CATCHUP_AGE_DAYS: Partial<Record<CatchupMode, number>> = {
	'1day': 1,
	'1week': 7,
	'2week': 14
};
/** The tree the app caches: category 1 holds feeds 1 and 2 (catch-ups of a category need it). */
const TREE: FeedTree = {
	categories: [
		{
			id: 1,
			title: 'Category 1',
			unread: undefined,
			categories: [],
			feeds: FEEDS.map((id) => ({ id, title: `Feed ${id}`, unread: undefined, error: undefined }))
		}
	],
	special: [],
	labels: LABELS.map((id) => ({ id, title: `Label ${id}`, unread: undefined, error: undefined })),
	feeds: [],
	source: 'getFeedTree'
};
const POISON = 'POISON-413';
const SCOPES: Scope[] = [
	{ feedId: 1, isCat: false },
	{ feedId: 2, isCat: false },
	{ feedId: -4, isCat: false },
	{ feedId: 1, isCat: true }
];
/** Starred: a scope the reader's own stars move articles into and out of. */
const STARRED: Scope = { feedId: -1, isCat: false };

export function actionsArbitrary(world: World): fc.Arbitrary<Action[]> {
	// Ids the reader can act on: the seeded ones and a few that may arrive.
	const seeded = FEEDS.length * PER_FEED;
	const articleId = fc.integer({ min: 1, max: seeded + (world.arrivals ? 3 : 0) });
	// The look-alikes follow the seeded articles and the big feed's (model-server.ts).
	const firstLookalike = seeded + (world.engineSync ? BIG_FEED_ARTICLES : 0) + 1;
	const lookalike = fc.integer({
		min: firstLookalike,
		max: firstLookalike + LOOKALIKES.length - 1
	});
	const few = fc.uniqueArray(
		world.lookalikes
			? fc.oneof({ weight: 2, arbitrary: articleId }, { weight: 1, arbitrary: lookalike })
			: articleId,
		{ minLength: 1, maxLength: 3 }
	);
	// "Select all" / mark above: every article up to one (ids follow the list's default order).
	const above = articleId.map((n) => Array.from({ length: n }, (_, i) => i + 1));
	const ids = world.syncWrites
		? fc.oneof({ weight: 3, arbitrary: few }, { weight: 1, arbitrary: above })
		: few;
	const tab = fc.constantFrom<Tab>('page', 'page', 'tab2');
	const scope = world.flagScopes ? fc.constantFrom(...SCOPES, STARRED) : fc.constantFrom(...SCOPES);
	const quotaWrites = world.quota
		? fc.oneof(
				{ weight: 6, arbitrary: fc.constant(0) },
				{ weight: 1, arbitrary: fc.constantFrom(1, 2, 50) }
			)
		: fc.constant(0);
	const hold = world.holds ? fc.boolean() : fc.constant(false);
	const reader: fc.Arbitrary<ReaderAction>[] = [
		fc.record({
			kind: fc.constant('flag' as const),
			tab,
			field: fc.constantFrom<ArticleFlag>('unread', 'starred', 'published'),
			ids,
			value: fc.boolean(),
			hold
		}),
		fc.record({
			kind: fc.constant('note' as const),
			tab,
			id: articleId,
			text: fc.constantFrom('', 'a', 'b <i>c</i>', ...(world.poison ? [POISON] : []))
		}),
		fc.record({
			kind: fc.constant('label' as const),
			tab,
			ids,
			label: fc.constantFrom(...LABELS),
			assign: fc.boolean(),
			hold
		}),
		fc.record({
			kind: fc.constant('catchup' as const),
			tab,
			scope,
			mode: fc.constantFrom<CatchupMode>('all', 'all', '1day', '1week', '2week'),
			hold,
			listLags: fc.boolean()
		})
	];
	if (world.shares) reader.push(fc.record({ kind: fc.constant('share' as const), tab }));
	const readerAction = fc.oneof(...reader);
	const duringAction: fc.Arbitrary<DuringAction> = world.accountSwitches
		? fc.oneof(
				{ arbitrary: readerAction, weight: 6 },
				{
					arbitrary: fc.record({
						kind: fc.constant('leave' as const),
						account: fc.nat({ max: ACCOUNTS.length - 1 })
					}),
					weight: 1
				}
			)
		: readerAction;
	const fault =
		world.faults.length > 0
			? fc.oneof(
					{ weight: 2, arbitrary: fc.constant<Fault>('ok') },
					{ weight: 1, arbitrary: fc.constantFrom(...world.faults) }
				)
			: fc.constant<Fault>('ok');
	const replay = fc
		.record({
			kind: fc.constant('replay' as const),
			// The same one twice: a second trigger joins the replay already running there.
			who: fc.array(fc.constantFrom<Replayer>('page', 'tab2', 'worker'), {
				minLength: 1,
				maxLength: 3
			}),
			faults: fc.array(fault, { maxLength: 6 }),
			during: fc.array(fc.record({ at: fc.nat({ max: 3 }), action: duringAction }), {
				maxLength: 2
			}),
			...(world.syncWrites
				? {
						slow: fc.option(
							fc.record({
								at: fc.nat({ max: 3 }),
								ms: fc.constantFrom(2_000, FRESH_MS + 1_000),
								arrive: fc.option(fc.constantFrom(...FEEDS), { nil: undefined })
							}),
							{ nil: undefined }
						)
					}
				: {}),
			quota: quotaWrites
		})
		.map((step) =>
			step.quota > 0 && !world.lostRepliesOnFullDisk
				? { ...step, faults: step.faults.filter((f) => !APPLIED_UNANSWERED.has(f)) }
				: step
		);
	const steps: fc.Arbitrary<Action>[] = [
		fc.tuple(readerAction, quotaWrites).map(([a, q]) => ({ ...a, quota: q })),
		fc.tuple(readerAction, quotaWrites).map(([a, q]) => ({ ...a, quota: q })),
		replay,
		fc.record({ kind: fc.constant('refresh' as const), tab, scope, quota: quotaWrites }),
		fc.record({ kind: fc.constant('reload' as const), tab }),
		fc.record({ kind: fc.constant('expire' as const) }),
		fc.record({ kind: fc.constant('wait' as const), ms: fc.constantFrom(60_000, 3_600_000) }),
		fc.record({ kind: fc.constant('retry' as const), pick: fc.nat({ max: 3 }) })
	];
	if (world.holds) {
		steps.push(
			fc.record({ kind: fc.constant('undo' as const), tab }),
			fc.record({ kind: fc.constant('undo' as const), tab }),
			fc.record({ kind: fc.constant('release' as const), tab }),
			// Shorter than a hold: some replays happen while it is still held.
			fc.record({ kind: fc.constant('wait' as const), ms: fc.constantFrom(2_000, 7_000) })
		);
	}
	if (world.syncWrites) {
		const syncStep: fc.Arbitrary<SyncStep> = fc.oneof(
			fc.record({ do: fc.constant('act' as const), action: readerAction }),
			fc.record({
				do: fc.constant('replay' as const),
				who: fc.array(fc.constantFrom<Replayer>('page', 'tab2', 'worker'), {
					minLength: 1,
					maxLength: 2
				})
			}),
			fc.record({ do: fc.constant('wait' as const), ms: fc.constantFrom(2_000, 400_000) })
		);
		steps.push(
			fc.record({ kind: fc.constant('sync' as const), steps: fc.array(syncStep, { maxLength: 5 }) })
		);
	}
	if (world.arrivals) {
		steps.push(
			fc.record({
				kind: fc.constant('arrive' as const),
				feedId: fc.constantFrom(...FEEDS),
				ageDays: fc.constantFrom(0, 3, 10, 20)
			})
		);
	}
	if (world.pageDeaths) {
		const writing = fc.oneof(...reader.slice(0, 4));
		steps.push(
			fc.record({
				kind: fc.constant('dieWriting' as const),
				action: writing,
				phase: fc.constantFrom<DeathPhase>('beforeCommit', 'afterCommit'),
				syncFirst: fc.boolean(),
				killed: fc.boolean()
			})
		);
	}
	if (world.deadSenders) {
		steps.push(fc.record({ kind: fc.constant('replayDies' as const), at: fc.nat({ max: 2 }) }));
	}
	if (world.eviction) {
		steps.push(
			fc.record({ kind: fc.constant('evict' as const), budget: fc.constantFrom(0, 1_500, 4_000) })
		);
	}
	if (world.engineSync) {
		const engineSync = fc.record({
			kind: fc.constant('engineSync' as const),
			// A few: newer articles crowd out older ones (a burst); many: the whole unread set, in pages.
			articleCount: fc.constantFrom(3, 200),
			shift: fc.option(fc.nat({ max: 60 }), { nil: undefined })
		});
		// Often enough that the rules run after what arrived, and articles arrive for them.
		steps.push(
			engineSync,
			engineSync,
			fc.record({
				kind: fc.constant('arrive' as const),
				feedId: fc.constant(RULE_FEED),
				ageDays: fc.constant(0)
			})
		);
	}
	if (world.elsewhere) {
		steps.push(fc.record({ kind: fc.constant('elsewhere' as const), pick: fc.nat({ max: 80 }) }));
	}
	if (world.rules) {
		steps.push(
			fc.record({
				kind: fc.constant('rule' as const),
				act: fc.constantFrom<RuleAct>('read', 'star')
			})
		);
	}
	if (world.accountSwitches) {
		steps.push(
			fc.record({
				kind: fc.constant('signIn' as const),
				account: fc.nat({ max: ACCOUNTS.length - 1 }),
				stay: fc.boolean(),
				keep: fc.boolean()
			}),
			fc.record({
				kind: fc.constant('signOut' as const),
				account: fc.nat({ max: ACCOUNTS.length - 1 }),
				stay: fc.boolean()
			})
		);
	}
	const schedule = fc.array(fc.oneof(...steps), { minLength: 1, maxLength: world.maxActions });
	if (!world.rules) return schedule;
	// Half the schedules start with the reader's rule, so what arrives later meets it.
	const rule = fc.record({
		kind: fc.constant('rule' as const),
		act: fc.constantFrom<RuleAct>('read', 'star')
	});
	return fc
		.tuple(fc.option(rule, { nil: undefined }), schedule)
		.map(([first, rest]) => (first ? [first, ...rest] : rest));
}

// ------------------------------------------------------------------ figures

export interface Figures {
	schedules: number;
	actions: number;
	readerChanges: number;
	/** Reader changes refused by storage (the reader is told; nothing to send). */
	refusedByStorage: number;
	/** Catch-ups a tab left open for an earlier account refused (its cache is another's now). */
	refusedStaleTab: number;
	/** Sign-outs made while a replay's request was in flight. */
	leftInFlight: number;
	requests: number;
	faults: Record<string, number>;
	quotaWriteFailures: number;
	replayErrors: number;
	/** What the replays that threw threw (by error name). */
	replayErrorKinds: Record<string, number>;
	failedItems: number;
	/** Changes the server does not have and the failed list does not explain. */
	lost: number;
	/** Changes found in an account the reader did not make them in, or wider than meant. */
	leaked: number;
	/** Shares published more than once. */
	duplicates: number;
	/** Items still queued after the drain. */
	stuck: number;
	/** Cached fields that differ from the server after the drain, unexplained. */
	cacheMismatches: number;
	/** Cached articles compared with the server after the drain. */
	cacheCompared: number;
	/** Pages that died in the middle of a change's outbox write, and changes their next start queued. */
	pageDeaths: number;
	recovered: number;
	/** Of those deaths, the whole browser killed (local storage lost; the durable copy kept). */
	kills: number;
	/** Workers stopped with a request on its way, and such requests that reached the server later. */
	deadSenders: number;
	lateLandings: number;
	/** Articles the storage budget evicted; ones a queued or failed change names that it dropped. */
	evicted: number;
	evictedNamed: number;
	/** Rows of refreshed lists compared with the reader's changes; ones that showed an older state. */
	screenRowsCompared: number;
	screenMismatches: number;
	/** Changes nobody asked for on an article the reader never saw (server or cache: issue 55). */
	unseenChanges: number;
	/** Schedules of the reader's world (`readerSees`), of `schedules`. */
	readerSchedules: number;
	/** Real syncs (the engine, then the rules); those during which another device read an article. */
	engineSyncs: number;
	shifts: number;
	/** Articles another device read (the model follows). */
	elsewhere: number;
	/** Rules made, and the rule changes the model expected (an article that arrived after). */
	rulesMade: number;
	ruleActs: number;
	/** Copies of the same story a read took along (the row named them). */
	copiesTaken: number;
}

export function emptyFigures(): Figures {
	return {
		schedules: 0,
		actions: 0,
		readerChanges: 0,
		refusedByStorage: 0,
		refusedStaleTab: 0,
		leftInFlight: 0,
		requests: 0,
		faults: {},
		quotaWriteFailures: 0,
		replayErrors: 0,
		replayErrorKinds: {},
		failedItems: 0,
		lost: 0,
		leaked: 0,
		duplicates: 0,
		stuck: 0,
		cacheMismatches: 0,
		cacheCompared: 0,
		pageDeaths: 0,
		recovered: 0,
		kills: 0,
		deadSenders: 0,
		lateLandings: 0,
		evicted: 0,
		evictedNamed: 0,
		screenRowsCompared: 0,
		screenMismatches: 0,
		unseenChanges: 0,
		readerSchedules: 0,
		engineSyncs: 0,
		shifts: 0,
		elsewhere: 0,
		rulesMade: 0,
		ruleActs: 0,
		copiesTaken: 0
	};
}

// ------------------------------------------------------------------ the model

interface ModelArticle {
	feedId: number;
	unread: boolean;
	marked: boolean;
	published: boolean;
	note: string;
	labels: Set<number>;
	/** The article's date (s): what the age catch-ups go by, on screen and on replay alike. */
	updated: number;
}

interface AccountModel {
	articles: Map<number, ModelArticle>;
	/** The held action that last wrote each key (absent: a change not held, or none). */
	writer: Map<string, string>;
	/** Field keys (`flag:unread:3`, `note:3`, `label:3:-1025`) the reader changed here. */
	touched: Set<string>;
	shares: Set<string>;
	/** The reader's catch-ups: when, where, and whether anything of the scope was visible. */
	catchups: { scope: Scope; at: number; unbounded: boolean }[];
	/** Unread fields of articles that arrived after such a catch-up: read or not, both are right. */
	dontCare: Set<string>;
	/**
	 * Keys whose change was queued while storage refused the cache's part (the outbox keeps the
	 * change alone: enqueueIntent): the cached copy may lag. `flag:unread:*` for a catch-up.
	 */
	cacheLag: Set<string>;
	/**
	 * Articles a star the reader discarded (at a sign-in or sign-out) may still put into Starred:
	 * its dead sender's request was on its way, and lands when it likes. Until the reader stars or
	 * unstars one again, a catch-up of Starred may cover it or not.
	 */
	mayJoinStarred: Set<number>;
	/** Articles whose row the reader's screen showed, or that the reader acted on (issue 55). */
	seen: Set<number>;
	/** Keys another device changed (`elsewhere`): not the reader's, and not made up either. */
	actorKeys: Set<string>;
	/** Each key the reader changed, and the step it last did (undone or not: the app may know). */
	readerChanged: Map<string, number>;
	/** When each article first reached the device (the step), for the rules. */
	reached: Map<number, number>;
	/**
	 * The reader's rule: what it does, when made, what was cached then (none: what its first run
	 * finds counts as already here, rules/memory.ts), what it has considered.
	 */
	rule?: {
		act: RuleAct;
		madeAt: number;
		cachedThen: Set<number> | undefined;
		considered: Set<number>;
	};
	/** Keys whose last change the model expects is the rule's. */
	ruleKeys: Set<string>;
}

/** With disjointIds: each account's article ids start at its own thousand. */
function idOffset(key: string): number {
	return (
		Math.max(
			0,
			ACCOUNTS.findIndex((a) => accountKey(a) === key)
		) * 1000
	);
}

/** Whether an article is in a scope (Starred: by its star, as the reader sees it then). */
function inScope(a: { feedId: number | null; marked: boolean }, scope: Scope): boolean {
	const feedId = a.feedId ?? NaN;
	if (!scope.isCat && scope.feedId === -1) return a.marked;
	if (scope.isCat) return CATEGORY_OF[feedId] === scope.feedId;
	if (scope.feedId === -4) return feedId !== 0;
	return feedId === scope.feedId;
}

function fieldKeys(id: number): string[] {
	return [
		`flag:unread:${id}`,
		`flag:starred:${id}`,
		`flag:published:${id}`,
		`note:${id}`,
		...LABELS.map((l) => `label:${id}:${l}`)
	];
}

/** A request's JSON body as fields (none when it is not a JSON object): the one reader here. */
function requestBody(body: unknown): Record<string, unknown> {
	try {
		const parsed: unknown = JSON.parse(typeof body === 'string' ? body : String(body));
		return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
	} catch {
		return {};
	}
}

/** A request that changes articles (a flag, a note, a label): what a dead sender's may be. */
function isArticleWrite(body: unknown): boolean {
	const { op } = requestBody(body);
	return op === 'updateArticle' || op === 'setArticleLabel';
}

/** Whether a request is a late catch-up's check for newer articles (getHeadlines since its maxId). */
function isExactCheck(body: unknown): boolean {
	const parsed = requestBody(body);
	return (
		parsed.op === 'getHeadlines' && parsed.since_id !== undefined && Number(parsed.limit) === 1
	);
}

/** A later page of the unread list the sync reads (getHeadlines unread, skip > 0): its skip, else 0. */
function laterUnreadPage(body: unknown): number {
	const parsed = requestBody(body);
	if (parsed.op !== 'getHeadlines' || parsed.view_mode !== 'unread') return 0;
	return Number(parsed.skip ?? 0) || 0;
}

/** Whether a request stars this article (updateArticle, field 0, mode 1). */
function starsArticle(body: unknown, id: number): boolean {
	const parsed = requestBody(body);
	return (
		parsed.op === 'updateArticle' &&
		String(parsed.field) === '0' &&
		String(parsed.mode) === '1' &&
		String(parsed.article_ids).split(',').map(Number).includes(id)
	);
}

/** The article a field key (`flag:unread:3`, `note:3`, `label:3:-1025`) is of. */
function articleOfKey(key: string): number {
	return Number(key.split(':')[key.startsWith('flag:') ? 2 : 1]);
}

/** Sets one field (by its key) of a model article to what another copy has. */
function copyField(to: ModelArticle, from: ModelArticle | ServerArticle, key: string): void {
	const [kind, field, label] = key.split(':');
	if (kind === 'flag') {
		if (field === 'unread') to.unread = from.unread;
		else if (field === 'starred') to.marked = from.marked;
		else to.published = from.published;
	} else if (kind === 'note') to.note = from.note;
	else if (from.labels.has(Number(label))) to.labels.add(Number(label));
	else to.labels.delete(Number(label));
}

/** Whether a failed or discarded change of this account explains a field the server lacks. */
function explainedBy(
	items: readonly { account?: string; key: string; intent: Intent }[],
	account: string,
	key: string
): boolean {
	return items.some((f) => {
		if (f.account !== undefined && f.account !== account) return false;
		if (f.key === key) return true;
		// A failed catch-up explains any article it might have marked read.
		return f.intent.type === 'catchup' && key.startsWith('flag:unread:');
	});
}

/** A note as the model compares it: its text, without markup (the server strips it too). */
function plainNote(note: string | undefined): string {
	return (note ?? '').replace(/<[^>]*>/g, '');
}

/** A row or cached article, as the model compares it (notes without markup, label ids). */
function asModelArticle(a: {
	unread: boolean;
	marked: boolean;
	published: boolean;
	note?: string | undefined;
	labels: readonly { id: number }[];
	feedId?: number | null;
}): ModelArticle {
	return {
		feedId: a.feedId ?? 0,
		unread: a.unread,
		marked: a.marked,
		published: a.published,
		note: plainNote(a.note),
		labels: new Set(a.labels.map((l) => l.id)),
		updated: 0
	};
}

function fieldValue(a: ModelArticle | ServerArticle, key: string): string {
	const [kind, field, label] = key.split(':');
	if (kind === 'flag') {
		return String(field === 'unread' ? a.unread : field === 'starred' ? a.marked : a.published);
	}
	if (kind === 'note') return a.note;
	return String(a.labels.has(Number(label)));
}

// ------------------------------------------------------------------ running one schedule

export interface RunOptions {
	instances: Instances;
	/** Gives every run a fresh, empty IndexedDB (and forgets every instance's connection). */
	freshDatabase: () => void;
	figures: Figures;
	/** Sabotage on the server (model.spec.ts proves with it that the checks can fail). */
	sabotage?: ModelServerOptions['sabotage'];
	/** The server whose recorded headline shape the model server answers with (api15 unless set). */
	level?: ModelServerOptions['level'];
	/** A page's fresh modules (a page that died starts again as a new one). */
	newInstance?: () => Promise<Instance>;
	/** The Web Locks stand-in, to let go of a dead page's locks. */
	locks?: FakeLocks;
}

export interface Outcome {
	violations: string[];
	/** The ops the server received, in order (logins and reads included). */
	ops: string[];
	/** The same requests with the fault each took. */
	log: LoggedRequest[];
}

/** Runs one schedule and checks the end state; returns what went wrong (nothing, ideally). */
export async function runSchedule(
	actions: readonly Action[],
	world: World,
	{ instances, freshDatabase, figures, sabotage, level = 'api15', newInstance, locks }: RunOptions
): Promise<Outcome> {
	freshDatabase();
	quota.failCommits = 0;
	let clock = 1_800_000_000_000;
	const now = (): number => clock;
	const server = modelServer({
		accounts: ACCOUNTS,
		level,
		now,
		perFeed: PER_FEED,
		poison: (r) => r.body.op === 'updateArticle' && param(r.body.data).includes(POISON),
		...(world.disjointIds ? { idOffset: (key: string) => idOffset(key) } : {}),
		giveUp: newestLongTimer,
		...(sabotage ? { sabotage } : {}),
		lookalikes: world.lookalikes,
		bigFeed: world.engineSync ? BIG_FEED_ARTICLES : 0
	});
	const models = new Map<string, AccountModel>();
	for (const account of ACCOUNTS) {
		const key = accountKey(account);
		const articles = new Map<number, ModelArticle>();
		for (const a of server.articles(key).values()) {
			articles.set(a.id, { ...a, labels: new Set(a.labels) });
		}
		models.set(key, {
			articles,
			writer: new Map(),
			touched: new Set(),
			shares: new Set(),
			catchups: [],
			dontCare: new Set(),
			cacheLag: new Set(),
			mayJoinStarred: new Set(),
			seen: new Set(),
			actorKeys: new Set(),
			readerChanged: new Map(),
			reached: new Map(),
			ruleKeys: new Set()
		});
	}
	/** The schedule's step (the rules' "since it reached the device" compares steps). */
	let seq = 0;
	/** The reader's own intent is being applied to the model (not a rule's, nor a retry's). */
	let readerWriting = false;
	/** Each tab's list as last shown: a shown row → the copies of its story hidden under it. */
	const tabLists: Record<Tab, Map<number, number[]>> = { page: new Map(), tab2: new Map() };
	/** An `engineSync`'s `shift`: another device reads an article before a later unread page. */
	let shiftNext: number | undefined;
	let current = 0;
	/** The account each tab's page session works for (the other tab keeps its own till reload). */
	const tabAccount: Record<Tab, number> = { page: 0, tab2: 0 };
	let shareCounter = 0;
	/**
	 * The Undo offers each tab shows, newest last: the hold, the account's model, and each key's
	 * value, touched and don't-care state before the held action.
	 */
	interface Offer {
		id: string;
		model: AccountModel;
		before: Map<string, { value: ModelArticle | undefined; touched: boolean; dontCare: boolean }>;
		/** For each key it wrote, the held action that had written it before (if any). */
		prevWriter: Map<string, string | undefined>;
		catchup?: AccountModel['catchups'][number];
	}
	const offers: Record<Tab, Offer[]> = { page: [], tab2: [] };
	let holdCounter = 0;
	/** The hold id applyIntent stamps on the keys it writes (undefined: not held). */
	let writing: string | undefined;
	/** Changes the reader discarded at a sign-in as another account. */
	const discarded: { account?: string; key: string; intent: Intent }[] = [];
	const violations: string[] = [];

	// Reader actions waiting for a request to be in flight.
	let requestIndex = 0;
	const during = new Map<number, DuringAction[]>();
	/** A sign-out made during a request is under way (its own requests run meanwhile). */
	let leaving = false;
	/** Requests answered slowly: the clock moves on meanwhile, and an article may arrive. */
	const slowAt = new Map<number, { ms: number; arrive?: number }>();
	/** From this request on, the first change of an article is held on its way (`replayDies`). */
	let holdFrom: number | undefined;
	let onHeld: (() => void) | undefined;
	/**
	 * Requests held on their way after their sender died: they reach the server later, but never
	 * later than a request's timeout after they were sent (`sentAt`): the one assumption the app
	 * makes about a send it has no answer for (replay-judge.ts `UNANSWERED_MS`). Time moving past
	 * that lands them first (`advance`).
	 */
	const late: { sentAt: number; request: Parameters<typeof server.fetch> }[] = [];
	const fetch: typeof server.fetch = async (url, init) => {
		const index = requestIndex++;
		const later = laterUnreadPage(init?.body);
		if (shiftNext !== undefined && later > 1) {
			// Another device reads an article of the pages already asked for (not the list's first:
			// tt-rss's check_first_id would notice that one), just before this page is served.
			const unread = [...server.articles(accountKey(ACCOUNTS[current] as AccountRef)).values()]
				.filter((a) => a.unread)
				.sort((a, b) => b.dateEntered - a.dateEntered || b.id - a.id);
			const gone = unread[1 + (shiftNext % Math.max(1, Math.min(later, unread.length) - 1))];
			shiftNext = undefined;
			if (gone) {
				figures.shifts++;
				readElsewhere(gone.id);
			}
		}
		if (holdFrom !== undefined && index >= holdFrom && isArticleWrite(init?.body)) {
			holdFrom = undefined;
			// Without the dead sender's signal: its timeout must not stop the request's landing.
			late.push({ sentAt: clock, request: [url, { ...init, signal: null }] });
			onHeld?.();
			return new Promise<Response>(() => undefined);
		}
		try {
			return await server.fetch(url, init);
		} finally {
			const slow = slowAt.get(index);
			if (slow) {
				slowAt.delete(index);
				await advance(slow.ms);
				if (slow.arrive !== undefined) arrive(slow.arrive, 0, isExactCheck(init?.body));
			}
			const waiting = during.get(index);
			if (waiting && leaving) {
				// The page is signing out (its own requests): the reader acts after that.
				during.delete(index);
				during.set(index + 1, [...waiting, ...(during.get(index + 1) ?? [])]);
			} else if (waiting) {
				during.delete(index);
				for (const action of waiting) await duringAct(action);
			}
		}
	};

	const clients = new Map<Replayer, Awaited<ReturnType<Instance['clientFromStoredSession']>>>();
	async function clientOf(who: Replayer) {
		// The worker builds a client from the stored session at each replay; a page keeps its own.
		if (who === 'worker') return instances.worker.clientFromStoredSession(fetch);
		return clients.get(who);
	}

	/**
	 * A tab (re)starts from the kept session: its client and the account it works for. The tab
	 * that signs in does the same; the other one keeps its own until it reloads.
	 */
	async function restore(tab: Tab): Promise<void> {
		tabLists[tab] = new Map();
		clients.set(tab, await instances[tab].clientFromStoredSession(fetch));
		tabAccount[tab] = current;
		instances[tab].setShownAccount(tabKey(tab));
	}

	/** The first screen after a sign-in: the tree and the All articles list, cached. */
	async function firstScreen(): Promise<void> {
		await instances.page.storeTree(TREE, undefined);
		await step({ kind: 'refresh', tab: 'page', scope: { feedId: -4, isCat: false }, quota: 0 });
		figures.actions--; // not one of the schedule's actions
	}

	/** Signs in as the login page does; `keep` false: the reader discards other accounts' changes. */
	async function signIn(index: number, stay: boolean, keep: boolean): Promise<void> {
		const account = ACCOUNTS[index] as AccountRef;
		const key = accountKey(account);
		const session: StoredSession = {
			apiUrl: account.apiUrl,
			user: account.user,
			sessionId: server.signIn(account),
			apiLevel: 15,
			stayingSignedIn: stay,
			singleUser: false,
			signedInAt: clock,
			...(stay ? { password: account.password } : {})
		};
		if (!keep) {
			// Shown the list, the reader chose to discard them: they explain what never arrived.
			const db = await instances.page.openReaderDb();
			const items = [...(await db.getAll('outbox')), ...(await db.getAll('failed'))];
			discard(items.filter((item) => item.account !== key));
			await instances.page.discardChangesNotOf(key);
		}
		const switched = await instances.page.storeSessionFor(session);
		current = index;
		await restore('page');
		if (switched) await firstScreen();
	}

	/** The account a tab works for (its own session's, until it reloads). */
	const tabKey = (tab: Tab): string => accountKey(ACCOUNTS[tabAccount[tab]] as AccountRef);
	const modelOf = (tab: Tab): AccountModel => models.get(tabKey(tab)) as AccountModel;

	/** What the reader could see in a scope: the cached articles there. */
	/**
	 * What the reader could see in a scope: the cached articles there. A scope with none cached
	 * (caught up by its counter) saw what had arrived when the device last heard from the server:
	 * every cached id bounds it (tt-rss numbers articles as they arrive).
	 */
	async function visibleIds(tab: Tab, scope: Scope): Promise<number[]> {
		const db = await instances[tab].openReaderDb();
		const cached: StoredArticle[] = await db.getAll('articles');
		const inside = cached.filter((a) => a.feedId !== null && inScope(a, scope));
		return (inside.length > 0 ? inside : cached).map((a) => a.id);
	}

	function intentOf(action: ReaderAction): Intent {
		switch (action.kind) {
			case 'flag':
				return { type: 'flag', field: action.field, articleIds: action.ids, value: action.value };
			case 'note':
				return { type: 'note', articleId: action.id, note: action.text };
			case 'label':
				return {
					type: 'label',
					articleIds: action.ids,
					labelId: action.label,
					assign: action.assign
				};
			case 'catchup':
				return {
					type: 'catchup',
					feedId: action.scope.feedId,
					isCat: action.scope.isCat,
					mode: action.mode
				};
			case 'share': {
				const n = ++shareCounter;
				return {
					type: 'share',
					title: `Shared ${n}`,
					url: `http://feeds.test/shared/${n}`,
					content: `<p>Shared ${n}</p>`
				};
			}
		}
	}

	/** The newest article a catch-up's reader could see (Infinity: none was known). */
	const bound = (visible: readonly number[]): number =>
		visible.length > 0 ? Math.max(...visible) : Infinity;

	/**
	 * The page in `tab` dies in the middle of a change's outbox write: its locks go with it, the
	 * tab starts again (fresh modules: a new page) and its start looks at the journal. With
	 * `syncFirst`, an article arrives and the worker syncs it into the cache before that start.
	 * The start must queue the change exactly when its write never committed (`expected`).
	 */
	async function pageDies(
		tab: Tab,
		entryId: string,
		syncFirst: boolean,
		expected: number,
		killed?: Promise<void>
	): Promise<void> {
		figures.pageDeaths++;
		const entry = instances[tab].readJournal().find((e) => e.id === entryId);
		if (entry) locks?.abandon(`reader-tab:${entry.tab}`);
		if (killed) {
			// Killed once the durable copy committed: local storage lost every entry it held.
			await killed;
			localStorage.removeItem(JOURNAL_KEY);
			figures.kills++;
		}
		if (newInstance) {
			instances[tab].resetReaderDbForTests();
			instances[tab] = await newInstance();
		}
		offers[tab] = [];
		if (syncFirst) {
			arrive(FEEDS[0], 0);
			await sync([]);
		}
		await restore(tab);
		const failCommits = quota.failCommits;
		quota.failCommits = 0;
		try {
			const queued = await instances[tab].recoverLeftChanges();
			figures.recovered += queued;
			if (queued !== expected) {
				violations.push(
					`journal: a start queued ${queued} change(s) a dead page left, expected ${expected}`
				);
			}
		} finally {
			quota.failCommits = failCommits;
		}
	}

	async function readerAct(
		planned: ReaderAction,
		dies?: { phase: DeathPhase; syncFirst: boolean; killed?: boolean }
	): Promise<void> {
		const model = modelOf(planned.tab);
		// The reader acts only on articles that exist in this account (the list shows no others).
		const exists = (id: number): boolean => model.articles.has(id);
		const own = (id: number): number =>
			world.disjointIds ? id + idOffset(tabKey(planned.tab)) : id;
		let action = planned;
		if (action.kind === 'flag' || action.kind === 'label') {
			action = { ...action, ids: action.ids.map(own).filter(exists) };
			if (action.ids.length === 0) return;
		}
		if (action.kind === 'note') {
			action = { ...action, id: own(action.id) };
			if (!exists(action.id)) return;
		}
		if (
			action.kind === 'catchup' &&
			!world.staleTabCatchups &&
			tabAccount[action.tab] !== current
		) {
			return;
		}
		let intent = intentOf(action);
		const visible = action.kind === 'catchup' ? await visibleIds(action.tab, action.scope) : [];
		/** What the reader meant: their own articles, and copies of the same story their rows named. */
		let meant = intent;
		if (world.readerSees) {
			for (const id of 'articleIds' in intent ? intent.articleIds : []) model.seen.add(id);
			if (intent.type === 'note') model.seen.add(intent.articleId);
			for (const id of visible) model.seen.add(id);
			if (intent.type === 'flag' && intent.field === 'unread') {
				// As the list does (state/shown-rows.svelte.ts withCopies): a read change of a row
				// takes the copies of its story hidden under it along, in one intent. The reader saw
				// the row name them; only a copy that truly is the same story is what they meant.
				const ids = intent.articleIds;
				const own = new Set(ids);
				const list = tabLists[action.tab];
				const copies = ids
					.flatMap((id) => list.get(id) ?? [])
					.filter((id, i, all) => !own.has(id) && all.indexOf(id) === i);
				const onServer = server.articles(tabKey(action.tab));
				const storyOf = (id: number): string | undefined => onServer.get(id)?.story;
				const same = copies.filter((copy) =>
					ids.some((id) => (list.get(id) ?? []).includes(copy) && storyOf(id) === storyOf(copy))
				);
				figures.copiesTaken += same.length;
				intent = { ...intent, articleIds: [...ids, ...copies] };
				meant = { ...intent, articleIds: [...own, ...same] };
			}
		}
		if (action.kind === 'catchup' && action.listLags && intent.type === 'catchup') {
			// As state/actions.ts catchUp does, for a list that shows none of them.
			const spare = await instances[action.tab].unreadNotListed(intent, new Set(), clock);
			if (spare.length > 0) intent = { ...intent, spare };
			meant = intent;
		}
		const held = 'hold' in action && action.hold === true;
		// As the page does (state/undo.svelte.ts): a new undoable change sends the tab's previous one.
		if (held) await release(action.tab);
		const hold = held ? { id: `hold-${++holdCounter}`, until: clock + 6_000 } : undefined;
		const failedBefore = quota.failed;
		// As the page does (state/submit.ts): the change is written ahead, then queued, then the
		// entry is dropped, whether the outbox took the change or refused it.
		const page = instances[action.tab];
		const ticket = page.journal(intent, tabKey(action.tab), clock);
		if (dies?.phase === 'beforeCommit') {
			// The page went before the outbox write committed: the journal alone has the change.
			await pageDies(
				action.tab,
				ticket.id,
				dies.syncFirst,
				1,
				dies.killed ? ticket.durable : undefined
			);
			figures.readerChanges++;
			applyReaders(model, meant, bound(visible));
			return;
		}
		try {
			await page.enqueueIntent(intent, clock, hold, { journal: ticket.id });
		} catch (error) {
			ticket.settle();
			// Refused (full storage; a stale tab's catch-up): the reader is told, nothing is made.
			if (error instanceof Error && error.name === 'RefusedError') figures.refusedStaleTab++;
			else figures.refusedByStorage++;
			return;
		}
		figures.readerChanges++;
		if (dies) {
			// The write committed; the page went before it dropped its entry. Its hold (if any) dies
			// with it and expires by itself: the change stands.
			await pageDies(
				action.tab,
				ticket.id,
				dies.syncFirst,
				0,
				dies.killed ? ticket.durable : undefined
			);
			applyReaders(model, meant, bound(visible));
			return;
		}
		ticket.settle();
		if (quota.failed > failedBefore) {
			// Storage refused the cache's part: the outbox has the change alone.
			if (intent.type === 'catchup') model.cacheLag.add('flag:unread:*');
			for (const id of 'articleIds' in intent ? intent.articleIds : []) {
				for (const key of fieldKeys(id)) model.cacheLag.add(key);
			}
			if (intent.type === 'note') model.cacheLag.add(`note:${intent.articleId}`);
		}
		if (!hold) {
			applyReaders(model, meant, bound(visible));
			return;
		}
		// Everything this action may write, as it was: undoing puts back what it still owns.
		const before: Offer['before'] = new Map();
		for (const [id, a] of model.articles) {
			for (const key of fieldKeys(id)) {
				before.set(key, {
					value: { ...a, labels: new Set(a.labels) },
					touched: model.touched.has(key),
					dontCare: model.dontCare.has(key)
				});
			}
		}
		const catchups = model.catchups.length;
		const writerBefore = new Map(model.writer);
		writing = hold.id;
		applyReaders(model, meant, bound(visible));
		writing = undefined;
		const prevWriter = new Map<string, string | undefined>();
		for (const [key, writer] of model.writer) {
			if (writer === hold.id) prevWriter.set(key, writerBefore.get(key));
		}
		offers[action.tab].push({
			id: hold.id,
			model,
			before,
			prevWriter,
			...(model.catchups.length > catchups ? { catchup: model.catchups.at(-1) } : {})
		});
	}

	/** The reader's own intent in the model (the rules' "changed by the reader" notes it). */
	function applyReaders(model: AccountModel, intent: Intent, bound: number): void {
		readerWriting = true;
		try {
			applyIntent(model, intent, bound, clock, true);
		} finally {
			readerWriting = false;
		}
	}

	/** Undo in a tab: the outbox takes the change back unless too late; so does the model. */
	async function undo(tab: Tab): Promise<void> {
		const offer = offers[tab].pop();
		if (!offer) return;
		// Too late (sent, released, expired or discarded), or storage refused it: the change stands.
		const undone = await instances[tab].cancelHold(offer.id, clock).catch(() => undefined);
		if (!undone) return;
		const { model } = offer;
		const live = new Set([...offers.page, ...offers.tab2].map((o) => o.id));
		for (const [key, was] of offer.before) {
			if (model.writer.get(key) !== offer.id) continue;
			// The held action it overwrote, if still held, is again the one that wrote the key: its
			// own Undo takes the key back too (outbox/hold.ts does the same with its replaced list).
			const previous = offer.prevWriter.get(key);
			if (previous !== undefined && live.has(previous)) model.writer.set(key, previous);
			else model.writer.delete(key);
			const a = model.articles.get(articleOfKey(key));
			if (!a || !was.value) continue;
			copyField(a, was.value, key);
			if (was.touched) model.touched.add(key);
			else model.touched.delete(key);
			if (was.dontCare) model.dontCare.add(key);
			else model.dontCare.delete(key);
		}
		if (offer.catchup) model.catchups = model.catchups.filter((c) => c !== offer.catchup);
		// A later held action that overwrote one of its keys now undoes to what was before this
		// one (outbox/hold.ts: the undone items leave the later one's replaced list).
		for (const other of [...offers.page, ...offers.tab2]) {
			for (const [key, writer] of other.prevWriter) {
				if (writer !== offer.id) continue;
				const was = offer.before.get(key);
				if (was) other.before.set(key, was);
				other.prevWriter.set(key, offer.prevWriter.get(key));
			}
		}
	}

	/** The toast went away: the change is sent as any. */
	async function release(tab: Tab): Promise<void> {
		const offer = offers[tab].pop();
		// Storage may refuse it (full): the hold then expires by itself.
		if (offer) await instances[tab].releaseHold(offer.id).catch(() => 0);
	}

	/**
	 * The reader's intent, in the model: the last intent per article and field wins. A catch-up
	 * covers what the reader could see (ids up to `bound`; Infinity: nothing was known, the whole
	 * scope) and, for the age modes, only articles dated that much before `at`. `mayBeFresh`: it
	 * may go out at once, covering unseen articles of the scope too (replay.ts FRESH_MS).
	 */
	function applyIntent(
		model: AccountModel,
		intent: Intent,
		bound: number,
		at: number,
		mayBeFresh: boolean
	): void {
		/**
		 * This intent may or may not change the key: either value is right from now on, and the
		 * key is this intent's (an earlier held change's Undo leaves it alone).
		 */
		const eitherWay = (key: string): void => {
			model.dontCare.add(key);
			if (readerWriting) model.readerChanged.set(key, seq);
			if (writing) model.writer.set(key, writing);
			else model.writer.delete(key);
		};
		const set = (id: number, key: string, change: (a: ModelArticle) => void): void => {
			const a = model.articles.get(id);
			// An id this account does not have: the server ignores it, and so does the model.
			if (!a) return;
			change(a);
			model.touched.add(key);
			model.dontCare.delete(key);
			if (readerWriting) model.readerChanged.set(key, seq);
			if (writing) model.writer.set(key, writing);
			else model.writer.delete(key);
		};
		switch (intent.type) {
			case 'flag':
				for (const id of intent.articleIds) {
					if (intent.field === 'starred') model.mayJoinStarred.delete(id);
					set(id, `flag:${intent.field}:${id}`, (a) => {
						if (intent.field === 'unread') a.unread = intent.value;
						else if (intent.field === 'starred') a.marked = intent.value;
						else a.published = intent.value;
					});
				}
				break;
			case 'note':
				set(intent.articleId, `note:${intent.articleId}`, (a) => {
					a.note = plainNote(intent.note);
				});
				break;
			case 'label':
				for (const id of intent.articleIds) {
					set(id, `label:${id}:${intent.labelId}`, (a) => {
						if (intent.assign) a.labels.add(intent.labelId);
						else a.labels.delete(intent.labelId);
					});
				}
				break;
			case 'catchup': {
				const scope = { feedId: Number(intent.feedId), isCat: intent.isCat };
				const age = CATCHUP_AGE_DAYS[intent.mode];
				const old = (a: ModelArticle): boolean =>
					age === undefined || a.updated <= at / 1000 - age * 86_400;
				model.catchups.push({
					scope,
					at: mayBeFresh ? at : -Infinity,
					unbounded: bound === Infinity
				});
				for (const [id, a] of model.articles) {
					if (!old(a) || intent.spare?.includes(id)) continue;
					if (!inScope(a, scope)) {
						// A discarded star may land before the catch-up is sent: it may be covered.
						if (inScope({ ...a, marked: true }, scope) && model.mayJoinStarred.has(id)) {
							eitherWay(`flag:unread:${id}`);
						}
						continue;
					}
					if (id > bound) {
						// Unseen: covered only if the catch-up is sent within FRESH_MS (lenient model).
						if (mayBeFresh && !world.strictCatchups) eitherWay(`flag:unread:${id}`);
						continue;
					}
					set(id, `flag:unread:${id}`, (m) => {
						m.unread = false;
					});
				}
				break;
			}
			case 'share':
				model.shares.add(intent.url);
				break;
		}
	}

	/**
	 * The cache after the drain: every cached article of the account it belongs to shows what the
	 * server has (the outbox is empty), except fields the model does not care about, changes the
	 * failed list explains, and changes whose cached part storage refused.
	 */
	async function checkCache(
		explains: (account: string, key: string) => boolean
	): Promise<string[]> {
		const found: string[] = [];
		const db = await instances.worker.openReaderDb();
		const owner = await getStored(CACHE_OWNER, db);
		const model = owner === undefined ? undefined : models.get(owner);
		if (!owner || !model) return found;
		const onServer = server.articles(owner);
		for (const stored of await db.getAll('articles')) {
			const actual = onServer.get(stored.id);
			if (!actual) continue;
			figures.cacheCompared++;
			const cached = asModelArticle(stored);
			const server = { ...actual, note: plainNote(actual.note) };
			for (const field of fieldKeys(stored.id)) {
				if (fieldValue(cached, field) === fieldValue(server, field)) continue;
				if (model.dontCare.has(field) || explains(owner, field)) continue;
				if (model.cacheLag.has(field)) continue;
				if (field.startsWith('flag:unread:') && model.cacheLag.has('flag:unread:*')) continue;
				if (
					world.readerSees &&
					!model.touched.has(field) &&
					!model.seen.has(stored.id) &&
					!model.actorKeys.has(field)
				) {
					// The device made up a change nobody asked for, on an article never seen (issue 55).
					figures.unseenChanges++;
					found.push(
						`unseen-change: cache ${field} of ${owner}: cached ${fieldValue(cached, field)}, server ${fieldValue(server, field)}, the reader never saw it`
					);
					continue;
				}
				figures.cacheMismatches++;
				found.push(
					`cache: ${field} of ${owner}: cached ${fieldValue(cached, field)}, server ${fieldValue(server, field)}`
				);
			}
		}
		return found;
	}

	/** "Try again" on a failed change: back in the outbox, as the reader's newest intent. */
	async function retry(pick: number): Promise<void> {
		const db = await instances.page.openReaderDb();
		const failed = await db.getAll('failed');
		const item = failed[pick % Math.max(1, failed.length)];
		if (item?.id === undefined) return;
		const newer = (await db.getAll('outbox')).some(
			(o) => o.key === item.key && o.account === item.account
		);
		await instances.page.retryFailed(item.id, clock);
		// A newer change for the same article and field stands: the failed one is dropped.
		if (newer) return;
		const model = models.get(item.account ?? accountKey(ACCOUNTS[current] as AccountRef));
		if (!model) return;
		const intent = item.intent;
		const bound = intent.type === 'catchup' ? (intent.maxId ?? Infinity) : Infinity;
		const at = intent.type === 'catchup' ? (intent.at ?? clock) : clock;
		readerWriting = true;
		try {
			applyIntent(model, intent, bound, at, false);
		} finally {
			readerWriting = false;
		}
	}

	/**
	 * The reader gave up these changes: what they meant is gone, so the model's articles take the
	 * server's values for the fields they wrote (a discarded star no longer puts an article in
	 * Starred for a later catch-up), and they explain what never arrived.
	 */
	function discard(items: readonly { account?: string; key: string; intent: Intent }[]): void {
		discarded.push(...items);
		for (const item of items) {
			if (item.account === undefined) continue;
			const model = models.get(item.account);
			const onServer = server.articles(item.account);
			if (!model) continue;
			const intent = item.intent;
			const keys =
				intent.type === 'flag'
					? intent.articleIds.map((id) => `flag:${intent.field}:${id}`)
					: intent.type === 'label'
						? intent.articleIds.map((id) => `label:${id}:${intent.labelId}`)
						: intent.type === 'note'
							? [`note:${intent.articleId}`]
							: intent.type === 'catchup'
								? [...model.articles]
										.filter(
											([id, a]) =>
												inScope(a, { feedId: Number(intent.feedId), isCat: intent.isCat }) &&
												id <= (intent.maxId ?? Infinity) &&
												!intent.spare?.includes(id)
										)
										.map(([id]) => `flag:unread:${id}`)
								: [];
			for (const key of keys) {
				const a = model.articles.get(articleOfKey(key));
				const actual = onServer.get(articleOfKey(key));
				if (a && actual) copyField(a, actual, key);
			}
			if (intent.type === 'flag' && intent.field === 'starred' && intent.value) {
				for (const id of intent.articleIds) if (starOnItsWay(id)) model.mayJoinStarred.add(id);
			}
		}
	}

	/**
	 * Sign-out after the reader agreed to lose this account's unsent changes, then a sign-in, in
	 * session.signOut's order: the kept session goes, the server session is ended, the wipe.
	 */
	async function signOutAndIn(next: number, stay: boolean): Promise<void> {
		const key = accountKey(ACCOUNTS[current] as AccountRef);
		const db = await instances.page.openReaderDb();
		const items = [...(await db.getAll('outbox')), ...(await db.getAll('failed'))];
		discard(items.filter((item) => item.account === key));
		await instances.page.endSignIn();
		await clients
			.get('page')
			?.logout({ timeoutMs: 5_000 })
			.catch(() => undefined);
		await instances.page.wipeAccount(key);
		await signIn(next, stay, true);
	}

	async function duringAct(action: DuringAction): Promise<void> {
		if (action.kind === 'leave') {
			figures.leftInFlight++;
			// A sign-out deletes: storage that is full does not refuse it (the schedule's full
			// writes are the replay's).
			const failCommits = quota.failCommits;
			quota.failCommits = 0;
			leaving = true;
			try {
				await signOutAndIn(action.account, false);
			} finally {
				quota.failCommits = failCommits;
				leaving = false;
			}
		} else await readerAct(action);
	}

	/**
	 * An article arrives on the server (in the signed-in account's server) in this feed.
	 * `inCheckWindow`: while a late catch-up's check for newer articles was answered and before its
	 * catchupFeed (replay.ts sendCatchup's one-call shortcut): such an arrival may be read.
	 */
	function arrive(feedId: number, ageDays: number, inCheckWindow = false): void {
		const apiUrl = (ACCOUNTS[current] as AccountRef).apiUrl;
		const entry = server.arrive(apiUrl, feedId, ageDays);
		for (const account of ACCOUNTS) {
			if (account.apiUrl !== apiUrl) continue;
			const id = server.idOf(accountKey(account), entry);
			const a = server.articles(accountKey(account)).get(id) as ServerArticle;
			const model = models.get(accountKey(account)) as AccountModel;
			model.articles.set(id, { ...a, labels: new Set() });
			// A catch-up made with nothing visible covers the whole scope, and one sent within
			// FRESH_MS covers the scope as it is then (replay.ts): such an arrival may be read.
			const covering = model.catchups.some(
				(c) =>
					inScope(a, c.scope) &&
					(c.unbounded || inCheckWindow || (!world.strictCatchups && clock - c.at < FRESH_MS))
			);
			if (covering) {
				model.dontCare.add(`flag:unread:${id}`);
			}
		}
	}

	/** A sync: reads the unread set, lets `steps` happen, then writes its (older) answer. */
	async function sync(steps: readonly SyncStep[]): Promise<void> {
		const client = await clientOf('worker');
		if (!client) return;
		const account = accountKey(ACCOUNTS[current] as AccountRef);
		const readAt = clock;
		let rows: Headline[];
		try {
			({ headlines: rows } = await client.getHeadlines({
				feedId: -4,
				isCat: false,
				viewMode: 'unread',
				limit: 200
			}));
		} catch {
			return; // offline: the sync ends
		}
		// The engine writes a page's rows as soon as it arrives (sync/engine.ts), dated by its own
		// request: what happens while the request is out (the reader's changes, replays) may come
		// before the write; time passing (a long sync: its other pages) comes after it. The kept
		// set is judged once read whole, dated by its first page.
		let written = false;
		const writeRows = async (): Promise<void> => {
			if (written) return;
			written = true;
			await instances.worker.storeOfflineHeadlines(rows, { account, readAt });
		};
		try {
			for (const sub of steps) {
				if (sub.do === 'act') await readerAct(sub.action);
				else if (sub.do === 'replay') await replay(sub.who);
				else {
					await writeRows();
					await advance(sub.ms);
				}
			}
			await writeRows();
			await instances.worker.clearFlagOutside('unread', new Set(rows.map((r) => r.id)), {
				account,
				readAt
			});
		} catch {
			// Storage full: the sync's writes fail, the cache keeps what it had.
		}
	}

	/**
	 * The worker replays and is stopped while request `at` of it (the first change of an article
	 * from there) is on its way: its locks go, its modules are dropped (a new worker starts), the
	 * request waits on the way (`late`). A replay that ends before sending one dies with nothing
	 * on its way.
	 */
	async function replayDies(at: number): Promise<void> {
		if (!newInstance || !locks) return;
		holdFrom = requestIndex + at;
		const held = new Promise<'held'>((resolve) => (onHeld = () => resolve('held')));
		const client = await clientOf('worker');
		const run = instances.worker.replayOutbox({ client: () => Promise.resolve(client), now }).then(
			() => 'done' as const,
			() => 'done' as const
		);
		const outcome = await Promise.race([held, run]);
		holdFrom = undefined;
		onHeld = undefined;
		if (outcome === 'done') return;
		figures.deadSenders++;
		locks.abandon(REPLAY_LOCK);
		instances.worker = await newInstance();
	}

	/** Whether a request held on its way (a dead sender's) stars this article. */
	function starOnItsWay(id: number): boolean {
		return late.some(({ request: [, init] }) => starsArticle(init.body, id));
	}

	/** The requests held on their way reach the server now (`due`: those it picks); answers go nowhere. */
	async function landLate(due: (sentAt: number) => boolean = () => true): Promise<void> {
		for (const held of late.filter((h) => due(h.sentAt))) {
			late.splice(late.indexOf(held), 1);
			figures.lateLandings++;
			await server.land(...held.request).catch(() => undefined);
		}
	}

	/** Moves the clock on; a held request whose timeout that passes lands before. */
	async function advance(ms: number): Promise<void> {
		await landLate((sentAt) => sentAt + UNANSWERED_MS <= clock + ms);
		clock += ms;
	}

	async function replay(who: Replayer[]): Promise<void> {
		const runs = who.map(async (w) => {
			const client = await clientOf(w);
			return instances[w].replayOutbox({ client: () => Promise.resolve(client), now });
		});
		const results = await Promise.allSettled(runs);
		for (const r of results) {
			if (r.status === 'fulfilled') continue;
			figures.replayErrors++;
			const name = r.reason instanceof Error ? r.reason.name : typeof r.reason;
			figures.replayErrorKinds[name] = (figures.replayErrorKinds[name] ?? 0) + 1;
		}
	}

	/** Ids of articles a queued or failed change names (eviction must keep them). */
	async function namedIds(): Promise<Set<number>> {
		const db = await instances.page.openReaderDb();
		const ids = new Set<number>();
		for (const item of [...(await db.getAll('outbox')), ...(await db.getAll('failed'))]) {
			const intent = item.intent;
			if (intent.type === 'flag' || intent.type === 'label') {
				for (const id of intent.articleIds) ids.add(id);
			} else if (intent.type === 'note') ids.add(intent.articleId);
		}
		return ids;
	}

	/** The budget evicts; an article a queued or failed change names must stay cached. */
	async function evict(budget: number): Promise<void> {
		const db = await instances.worker.openReaderDb();
		const before = new Set((await db.getAllKeys('articles')).map(Number));
		const named = await namedIds();
		const report = await instances.worker.enforceBudget(db, budget);
		figures.evicted += report.articles.length;
		const after = new Set((await db.getAllKeys('articles')).map(Number));
		for (const id of named) {
			if (before.has(id) && !after.has(id)) {
				figures.evictedNamed++;
				violations.push(`evicted: article ${id}, which a queued or failed change names`);
			}
		}
	}

	/**
	 * What a refreshed list shows: the server's rows with the changes not yet in them. Every field
	 * the reader changed shows the reader's value, unless the model does not care (a catch-up's
	 * unseen articles) or the failed list or a discard explains it. Checked only for a tab of the
	 * signed-in account (a stale tab's rows are another account's).
	 */
	async function checkScreen(tab: Tab, rows: readonly Headline[], askedAt: number): Promise<void> {
		if (tabAccount[tab] !== current) return;
		const shown = await instances[tab].withQueuedChanges(rows, askedAt);
		const key = tabKey(tab);
		const model = models.get(key) as AccountModel;
		const db = await instances[tab].openReaderDb();
		const failed = await db.getAll('failed');
		const explained = (field: string): boolean =>
			explainedBy([...failed, ...discarded], key, field);
		for (const row of shown) {
			const meant = model.articles.get(row.id);
			if (!meant) continue;
			figures.screenRowsCompared++;
			const seen = asModelArticle(row);
			for (const field of fieldKeys(row.id)) {
				if (!model.touched.has(field) || model.dontCare.has(field)) continue;
				if (fieldValue(seen, field) === fieldValue(meant, field) || explained(field)) continue;
				figures.screenMismatches++;
				violations.push(
					`screen: ${field} of ${key} shows ${fieldValue(seen, field)}, the reader made it ${fieldValue(meant, field)}`
				);
			}
		}
	}

	/**
	 * The list a refresh shows (issue 55): the server's rows with the changes not yet in them,
	 * grouped as the app groups them (dedupe/ `groupDuplicates`, "same story shown once" on). The
	 * screen's first rows are what the reader saw; each shown row's hidden copies are named on it
	 * ("Also in …") and go with a read change of it.
	 */
	async function showList(tab: Tab, rows: readonly Headline[], askedAt: number): Promise<void> {
		const shown = await instances[tab].withQueuedChanges(rows, askedAt);
		const groups = instances[tab].groupDuplicates(shown);
		tabLists[tab] = new Map(
			[...groups.copies].map(([head, copies]) => [head, copies.map((c) => c.id)])
		);
		const model = modelOf(tab);
		for (const row of groups.shown.slice(0, SCREEN_ROWS)) model.seen.add(row.id);
	}

	/**
	 * Another device reads an article (a server-side actor): the model follows, unless the reader
	 * has a change of that field of their own (it may land after, or before: either way). The
	 * cached copy learns of it only from a later sync.
	 */
	function readElsewhere(id: number): void {
		const key = accountKey(ACCOUNTS[current] as AccountRef);
		const a = server.articles(key).get(id);
		const model = models.get(key);
		const meant = model?.articles.get(id);
		if (!a?.unread || !model || !meant) return;
		a.unread = false;
		figures.elsewhere++;
		const field = `flag:unread:${id}`;
		model.cacheLag.add(field);
		if (model.touched.has(field) || model.dontCare.has(field)) {
			if (meant.unread) model.dontCare.add(field);
			return;
		}
		meant.unread = false;
		model.actorKeys.add(field);
	}

	/** Articles the device holds now (the cache of whichever account owns it), with that account. */
	async function cachedNow(): Promise<{ model: AccountModel; ids: Set<number> } | undefined> {
		const db = await instances.worker.openReaderDb();
		const owner = await getStored(CACHE_OWNER, db);
		const model = owner === undefined ? undefined : models.get(owner);
		if (!model) return undefined;
		return { model, ids: new Set((await db.getAllKeys('articles')).map(Number)) };
	}

	/** Notes when each article first reached the device (the rules act on what arrived). */
	async function noteReached(): Promise<void> {
		if (!world.rules) return;
		const now = await cachedNow();
		if (!now) return;
		for (const id of now.ids) if (!now.model.reached.has(id)) now.model.reached.set(id, seq);
	}

	/** The reader makes the rule (once): every article of feed 2 read, or starred, as it arrives. */
	async function makeRule(act: RuleAct): Promise<void> {
		const account = accountKey(ACCOUNTS[current] as AccountRef);
		const model = models.get(account) as AccountModel;
		if (model.rule) return;
		await instances.page.saveRules(account, {
			rules: [
				{
					kind: 'match',
					id: 'r1',
					query: 'title:article',
					scope: { kind: 'feed', id: RULE_FEED },
					actions: [{ kind: act }]
				}
			]
		});
		figures.rulesMade++;
		const now = await cachedNow();
		// Made on a device that holds nothing (all evicted): it starts after what the first sync
		// brings, as on a new device (rules/memory.ts startRuleMemory).
		const cachedThen = now && now.ids.size > 0 ? now.ids : undefined;
		model.rule = { act, madeAt: seq, cachedThen, considered: new Set() };
	}

	/**
	 * The rules ran after a sync (`ran`; else they may have or not): the rule considers, once,
	 * each article the device holds that reached it after the rule was made. One it matches gets
	 * its change — unless the reader changed that field since it reached the device (it must not
	 * act), or changed it before, or another field (it may act or not).
	 */
	async function rulesRan(account: string, ran: boolean): Promise<void> {
		const now = await cachedNow();
		const model = models.get(account);
		const rule = model?.rule;
		if (!now || !model || !rule || now.model !== model) return;
		if (!rule.cachedThen) {
			// Its first run after it was made on an empty device: what is here now is not news.
			if (ran) rule.cachedThen = now.ids;
			return;
		}
		const onServer = server.articles(account);
		for (const id of now.ids) {
			if (rule.considered.has(id) || rule.cachedThen.has(id)) continue;
			rule.considered.add(id);
			const a = onServer.get(id);
			const meant = model.articles.get(id);
			const at = model.reached.get(id) ?? seq;
			if (!a || !meant || a.feedId !== RULE_FEED || !a.title.startsWith('Article ')) continue;
			const key = rule.act === 'read' ? `flag:unread:${id}` : `flag:starred:${id}`;
			const readerAt = model.readerChanged.get(key);
			if (
				readerAt !== undefined &&
				readerAt > at &&
				model.touched.has(key) &&
				!model.dontCare.has(key)
			)
				continue;
			const changedAny = fieldKeys(id).some((k) => model.readerChanged.has(k));
			if (!ran || at < rule.madeAt || changedAny) {
				model.dontCare.add(key);
				continue;
			}
			figures.ruleActs++;
			if (rule.act === 'read') meant.unread = false;
			else meant.marked = true;
			model.touched.add(key);
			model.dontCare.delete(key);
			model.writer.delete(key);
			model.ruleKeys.add(key);
		}
	}

	/** The real sync, then the rules (sync/run-sync.ts), in the worker. */
	async function engineSync(articleCount: number, shift: number | undefined): Promise<void> {
		const client = await clientOf('worker');
		if (!client) return;
		figures.engineSyncs++;
		const account = accountKey(ACCOUNTS[current] as AccountRef);
		shiftNext = shift;
		let ran = true;
		try {
			await instances.worker.runSync({ client, account, articleCount, now });
		} catch {
			// Offline, or a session it could not renew: the engine stopped before the rules.
			ran = false;
		} finally {
			shiftNext = undefined;
		}
		await noteReached();
		await rulesRan(account, ran);
	}

	async function step(action: Action): Promise<void> {
		figures.actions++;
		quota.failCommits = 'quota' in action ? action.quota : 0;
		try {
			switch (action.kind) {
				case 'flag':
				case 'note':
				case 'label':
				case 'catchup':
				case 'share':
					await readerAct(action);
					break;
				case 'refresh': {
					const client = await clientOf(action.tab);
					if (!client) break;
					try {
						const askedAt = clock;
						const { headlines } = await client.getHeadlines({
							feedId: action.scope.feedId,
							isCat: action.scope.isCat,
							limit: 200
						});
						if (world.screenCheck) await checkScreen(action.tab, headlines, askedAt);
						if (world.readerSees) await showList(action.tab, headlines, askedAt);
						await instances[action.tab].storeList(
							{
								feedId: action.scope.feedId,
								isCat: action.scope.isCat,
								viewMode: 'adaptive',
								orderBy: '',
								search: ''
							},
							0,
							headlines,
							true
						);
					} catch {
						// Offline or storage full: the screen keeps what it had.
					}
					break;
				}
				case 'arrive':
					arrive(action.feedId, action.ageDays);
					break;
				case 'replay': {
					server.queueFaults(action.faults);
					if (action.slow) slowAt.set(requestIndex + action.slow.at, action.slow);
					for (const d of action.during) {
						const at = requestIndex + d.at;
						during.set(at, [...(during.get(at) ?? []), d.action]);
					}
					await replay(action.who);
					server.clearFaults();
					slowAt.clear();
					await landLate();
					// Actions whose request never came are made after the replay.
					const left = [...during.entries()].sort((a, b) => a[0] - b[0]);
					during.clear();
					for (const [, list] of left) for (const a of list) await duringAct(a);
					break;
				}
				case 'sync':
					await sync(action.steps);
					break;
				case 'reload':
					// A reloaded tab forgets what it held and restores the kept session; its Undo offers
					// are gone with it (their holds expire by themselves).
					instances[action.tab].resetReaderDbForTests();
					offers[action.tab] = [];
					await restore(action.tab);
					break;
				case 'undo':
					await undo(action.tab);
					break;
				case 'release':
					await release(action.tab);
					break;
				case 'expire':
					server.endSessions(accountKey(ACCOUNTS[current] as AccountRef));
					break;
				case 'wait':
					await advance(action.ms);
					break;
				case 'signIn':
					await signIn(action.account, action.stay, action.keep);
					break;
				case 'retry':
					await retry(action.pick);
					break;
				case 'signOut':
					await signOutAndIn(action.account, action.stay);
					break;
				case 'dieWriting':
					// A tab left open for an earlier account refuses a catch-up: nothing to write.
					if (action.action.kind === 'catchup' && tabAccount[action.action.tab] !== current) break;
					await readerAct(action.action, {
						phase: action.phase,
						syncFirst: action.syncFirst,
						killed: action.killed
					});
					break;
				case 'evict':
					await evict(action.budget);
					break;
				case 'replayDies':
					await replayDies(action.at);
					break;
				case 'engineSync':
					await engineSync(action.articleCount, action.shift);
					break;
				case 'elsewhere': {
					const unread = [...server.articles(accountKey(ACCOUNTS[current] as AccountRef)).values()]
						.filter((a) => a.unread && a.feedId !== 0)
						.sort((a, b) => a.id - b.id);
					const a = unread[action.pick % Math.max(1, unread.length)];
					if (a) readElsewhere(a.id);
					break;
				}
				case 'rule':
					await makeRule(action.act);
					break;
			}
		} finally {
			quota.failCommits = 0;
		}
	}

	await signIn(0, true, true);
	await restore('tab2');
	await noteReached();
	for (const action of actions) {
		seq++;
		await step(action);
		await noteReached();
	}

	// What was held on its way lands before the drain, at the latest.
	await landLate();
	// Drain: no more faults; each account with queued changes signs in and replays until empty.
	// With full storage in the world, the first rounds run with the disk still full: what the
	// server confirmed must leave the outbox all the same (else it is sent again, a share twice).
	server.clearFaults();
	const db = await instances.worker.openReaderDb();
	for (let round = 0; round < 40; round++) {
		quota.failCommits = 0;
		const pending = await db.getAll('outbox');
		if (pending.length === 0) break;
		const owner = pending[0]?.account;
		const index = ACCOUNTS.findIndex((a) => accountKey(a) === owner);
		await signIn(index < 0 ? current : index, true, true);
		clock += 2 * 3_600_000; // past any back-off
		if (world.quota && round < 2) quota.failCommits = Infinity;
		await replay(['page']);
	}
	quota.failCommits = 0;

	// ---------------------------------------------------------------- the checks
	const pending = await db.getAll('outbox');
	const failed = await db.getAll('failed');
	figures.failedItems += failed.length;
	if (pending.length > 0) {
		figures.stuck += pending.length;
		violations.push(`stuck: ${pending.map((p) => p.key).join(', ')} still queued after the drain`);
	}
	/** A failed or discarded change of this account explains a field the server does not have. */
	const explains = (account: string, key: string): boolean =>
		explainedBy([...failed, ...discarded], account, key);
	for (const account of ACCOUNTS) {
		const key = accountKey(account);
		const model = models.get(key) as AccountModel;
		const onServer = server.articles(key);
		for (const [id, expected] of model.articles) {
			const actual = onServer.get(id) as ServerArticle;
			for (const field of fieldKeys(id)) {
				if (fieldValue(expected, field) === fieldValue(actual, field)) continue;
				if (model.dontCare.has(field)) continue;
				if (explains(key, field)) continue;
				const where = `${field} of ${key}: server ${fieldValue(actual, field)}, meant ${fieldValue(expected, field)}`;
				if (model.touched.has(field)) {
					figures.lost++;
					violations.push(
						`lost: ${where}${model.ruleKeys.has(field) ? " (the rule's change)" : ''}`
					);
				} else if (world.readerSees && !model.seen.has(id) && !model.actorKeys.has(field)) {
					// Nobody asked, and the reader never saw the article (issue 55).
					figures.unseenChanges++;
					violations.push(`unseen-change: ${where}, the reader never saw it`);
				} else {
					figures.leaked++;
					violations.push(`leaked or widened: ${where}`);
				}
			}
		}
		const shared = [...onServer.values()].filter((a) => a.feedId === 0);
		for (const url of model.shares) {
			const copies = shared.filter((a) => a.link === url).length;
			if (copies > 1) {
				figures.duplicates++;
				violations.push(`duplicate: ${url} published ${copies} times in ${key}`);
			} else if (
				copies === 0 &&
				![...failed, ...discarded].some((f) => f.intent.type === 'share' && f.intent.url === url)
			) {
				figures.lost++;
				violations.push(`lost: share ${url} of ${key}`);
			}
		}
		for (const a of shared) {
			if (!model.shares.has(a.link)) {
				figures.leaked++;
				violations.push(`leaked: share ${a.link} published in ${key}`);
			}
		}
	}
	if (world.cacheCheck) violations.push(...(await checkCache(explains)));
	figures.schedules++;
	if (world.readerSees) figures.readerSchedules++;
	figures.requests += server.log.length;
	for (const [fault, n] of server.injected)
		figures.faults[fault] = (figures.faults[fault] ?? 0) + n;
	figures.quotaWriteFailures = quota.failed;
	return { violations, ops: server.log.map((r) => r.op), log: server.log };
}

export { FAULTS };
