/**
 * Sends the outbox to the server: one function for the page and the service worker.
 *
 * - One replay at a time across tabs and the worker (Web Locks, `outbox-replay`).
 * - Few calls: within the stretch between two catch-ups, one updateArticle per field and target
 *   value (ids joined), one setArticleLabel per label and assign, one call per distinct note;
 *   catch-ups go alone and in order (they are barriers nothing is moved across).
 * - An item leaves the outbox only after the server confirmed it; its removal never depends on
 *   the status record being written (a full quota must not keep confirmed changes queued).
 * - Transport failure (fetch rejected: offline, server down): stop, keep everything, count
 *   nothing (the next trigger tries again).
 * - Session ended and no re-login possible: stop, keep everything, flag "sign in needed".
 * - A refusal retrying cannot fix: the item (alone, after splitting a batch) goes to `failed`.
 * - A server failure that may pass (E_OPERATION_FAILED, an empty reply): back off, at most
 *   MAX_ATTEMPTS times, then `failed`; the rest of the queue moves on meanwhile.
 * - A failure that is either the item's or the way's (an HTTP error such as a proxy's 413 body
 *   limit, a timeout, a reply to another request): a tiny request (isLoggedIn) tells which. If
 *   the server answers it, the item is the problem and is treated like a passing server failure
 *   (counted, backed off, then `failed`), so one poison item cannot hold the queue forever; if
 *   not, it is the way, and the replay stops like a transport failure.
 * - Catch-ups never widen: the reader's catch-up covers the articles they could see then (see
 *   sendCatchup). Shares are not published twice when a reply was lost (see sendShare).
 */
import {
	ApiError,
	ArticleField,
	DEFAULT_TIMEOUT_MS,
	noWayToServer,
	readerText,
	LABELS_CATEGORY,
	SPECIAL_CATEGORY,
	SPECIAL_FEED,
	UpdateMode,
	type Headline,
	type TtrssClient,
	type UpdateArticleParams
} from '$lib/api';
import { accountOfClient, belongsTo } from '$lib/db/account';
import { openReaderDb, type ReaderDatabase } from '$lib/db/open';
import type { FailedItem, OutboxItem } from '$lib/db/schema';
import { withQuotaRetry } from '$lib/db/quota';
import { withinCatchup } from './effect';
import { isHeld } from './hold';
import type { ArticleFlag, Intent } from './intent';
import { REPLAY_LOCK } from './contract';
import { announceOutboxChange } from './broadcast';
import { SENT_HORIZON_KEY, SENT_LOG_KEY, withSent } from './sent-log';
import { updateReplayStatus, type ReplayStatus } from './status';

export const MAX_ATTEMPTS = 5;
/** updateArticle/setArticleLabel take id lists; keep each request's body moderate. */
export const MAX_IDS_PER_CALL = 500;
/** A catch-up replayed by ids reads at most this many pages of the scope's unread headlines. */
export const MAX_CATCHUP_PAGES = 50;
/** A catch-up sent within this time of being made covers its scope as it is (see sendCatchup). */
export const FRESH_MS = 60_000;

const FLAG_FIELD: Record<ArticleFlag, ArticleField> = {
	unread: ArticleField.Unread,
	starred: ArticleField.Starred,
	published: ArticleField.Published
};

export type ReplayStop =
	| 'offline' // transport failure: try again later
	| 'sign-in' // session ended, no stored credentials (or they were refused)
	| 'blocked' // the server refuses this app (API disabled, proxy page): the reader must act
	| 'no-session'; // nobody signed in

export interface ReplayResult {
	/** HTTP calls that carried outbox items (not counting a re-login). */
	calls: number;
	/** Items the server confirmed. */
	sent: number;
	/** Items moved to the failed list. */
	failed: number;
	/** Items still waiting. */
	remaining: number;
	stopped?: ReplayStop;
}

export interface ReplayOptions {
	/** The page passes its session's client; the worker builds one from the stored session. */
	client: TtrssClient | (() => Promise<TtrssClient | undefined>);
	now?: () => number;
	/** Called after each confirmed call (progress for the UI, tests). */
	onCall?: (call: { op: string; items: number }) => void;
}

// ------------------------------------------------------------------ one at a time

let running: Promise<ReplayResult> | undefined;
let again = false;

/**
 * Replays the outbox. Calls made while a replay of this page/worker runs join it (and make it
 * look again at the end, for items that arrived meanwhile).
 */
export function replayOutbox(options: ReplayOptions): Promise<ReplayResult> {
	if (running) {
		again = true;
		return running;
	}
	running = (async () => {
		let result: ReplayResult;
		do {
			again = false;
			result = await withLock(() => replayOnce(options));
		} while (again && result.stopped === undefined);
		return result;
	})().finally(() => {
		running = undefined;
	});
	return running;
}

async function withLock<T>(work: () => Promise<T>): Promise<T> {
	const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
	if (!locks?.request) return work();
	// Another tab or the worker replaying: wait, then find what it left (usually nothing).
	return locks.request(REPLAY_LOCK, { mode: 'exclusive' }, work) as Promise<T>;
}

// ------------------------------------------------------------------ the plan

interface Call {
	op: 'updateArticle' | 'setArticleLabel' | 'catchupFeed' | 'shareToPublished';
	items: OutboxItem[];
	/** `now` tells the time it is sent at: a catch-up judges its freshness then, not when planned. */
	send: (client: TtrssClient, now: () => number) => Promise<unknown>;
}

/**
 * Groups the items into calls, oldest stretch first; deferred items stop it at the next barrier.
 * Held items (outbox/hold.ts: the reader may still undo them) wait like deferred ones, but a held
 * catch-up does not stop everything: only what it could reach waits behind it (`mayOvertake`).
 */
export function planCalls(items: readonly OutboxItem[], now: number): Call[] {
	const calls: Call[] = [];
	let group = new Map<string, OutboxItem[]>();
	let deferredInStretch = false;
	const heldCatchups: CatchupIntent[] = [];
	const flush = (): void => {
		for (const members of group.values()) calls.push(...callsFor(members));
		group = new Map();
	};
	for (const item of [...items].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))) {
		if (item.notBefore !== undefined && item.notBefore > now) {
			// A put-off catch-up is still a barrier: nothing queued after it may overtake it.
			if (item.intent.type === 'catchup') break;
			deferredInStretch = true;
			continue;
		}
		if (heldCatchups.some((held) => !mayOvertake(item.intent, held))) {
			// A catch-up put off behind a held one is a barrier of its own: what it could reach
			// waits behind it too, as behind a catch-up that is sent in order.
			if (item.intent.type === 'catchup') heldCatchups.push(item.intent);
			deferredInStretch = true;
			continue;
		}
		if (isHeld(item, now)) {
			if (item.intent.type === 'catchup') heldCatchups.push(item.intent);
			deferredInStretch = true;
			continue;
		}
		const intent = item.intent;
		if (intent.type === 'catchup') {
			flush();
			// A deferred change before this catch-up must reach the server first.
			if (deferredInStretch) return calls;
			calls.push(callsFor([item])[0] as Call);
			continue;
		}
		const key = groupKey(intent, item);
		const members = group.get(key);
		if (members) members.push(item);
		else group.set(key, [item]);
	}
	flush();
	return calls;
}

/**
 * Whether a change queued after a held catch-up may reach the server before it: only when the
 * catch-up could not touch it, so that the server ends as the reader did things, whether the
 * catch-up is then sent or undone. A later read/unread change could be one of its articles (the
 * catch-up would overwrite it); a star, publish or label change could move an article into or out
 * of a scope defined by that flag (Starred, Published, a label, the Special and Labels
 * categories, a search, which can name any flag); catch-ups and shares keep their order. Notes
 * never change a catch-up's scope outside a search.
 */
export function mayOvertake(later: Intent, held: CatchupIntent): boolean {
	if (later.type === 'catchup' || later.type === 'share') return false;
	if (held.search || typeof held.feedId !== 'number') return later.type === 'note' && !held.search;
	const feed = held.isCat ? undefined : held.feedId;
	const special = held.isCat && held.feedId === SPECIAL_CATEGORY;
	const labels = held.isCat && held.feedId === LABELS_CATEGORY;
	switch (later.type) {
		case 'note':
			return true;
		case 'flag':
			if (later.field === 'unread') return false;
			if (special) return false;
			return later.field === 'starred'
				? feed !== SPECIAL_FEED.starred
				: feed !== SPECIAL_FEED.published;
		case 'label':
			return !labels && feed !== later.labelId;
	}
}

function groupKey(intent: Intent, item: OutboxItem): string {
	switch (intent.type) {
		case 'flag':
			return `flag:${intent.field}:${intent.value}`;
		case 'label':
			return `label:${intent.labelId}:${intent.assign}`;
		case 'note':
			return `note:${intent.note}`;
		default:
			return `single:${item.seq ?? item.key}`;
	}
}

function idsOf(items: readonly OutboxItem[]): number[] {
	return items
		.flatMap((i) => ('articleIds' in i.intent ? i.intent.articleIds : []))
		.concat(items.flatMap((i) => (i.intent.type === 'note' ? [i.intent.articleId] : [])));
}

function chunk<T>(list: readonly T[], size: number): T[][] {
	const out: T[][] = [];
	for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
	return out;
}

/** updateArticle calls of at most MAX_IDS_PER_CALL articles, each the same change. */
function updateCalls(
	members: OutboxItem[],
	update: Omit<UpdateArticleParams, 'articleIds'>
): Call[] {
	return chunk(members, MAX_IDS_PER_CALL).map((items) => ({
		op: 'updateArticle',
		items,
		send: (client) => client.updateArticle({ articleIds: idsOf(items), ...update })
	}));
}

function callsFor(members: OutboxItem[]): Call[] {
	const first = members[0]?.intent;
	if (!first) return [];
	switch (first.type) {
		case 'flag':
			return updateCalls(members, {
				field: FLAG_FIELD[first.field],
				mode: first.value ? UpdateMode.True : UpdateMode.False
			});
		case 'note':
			return updateCalls(members, { field: ArticleField.Note, data: first.note });
		case 'label':
			return chunk(members, MAX_IDS_PER_CALL).map((items) => ({
				op: 'setArticleLabel',
				items,
				send: (client) =>
					client.setArticleLabel({
						articleIds: idsOf(items),
						labelId: first.labelId,
						assign: first.assign
					})
			}));
		case 'catchup':
			return [
				{
					op: 'catchupFeed',
					items: members,
					send: (client, now) => sendCatchup(client, members[0] as OutboxItem, first, now)
				}
			];
		case 'share':
			return [
				{
					op: 'shareToPublished',
					items: members,
					send: (client) => sendShare(client, members[0] as OutboxItem, first)
				}
			];
	}
}

// ------------------------------------------------------------------ catch-ups and shares

type CatchupIntent = Extract<Intent, { type: 'catchup' }>;

/**
 * A catch-up covers what the reader could see when they made it (`withinCatchup`: ids up to
 * `maxId`, and for the age modes the article date the reader's list used), however late it is
 * sent. Sent at the first try and within FRESH_MS, the scope is still what the reader saw (their
 * list and counters were current; articles of one feed update get ids in feed order, so unloaded
 * older rows can have higher ids than the loaded ones): the bound is now. Sent later, or again
 * after a try that did not get through (offline), `maxId` bounds it.
 * catchupFeed is exact only when nothing newer arrived in the scope and the mode is `all` (the
 * server's age modes count from the date it stored the article, which the reader never saw): then
 * one call does it. Otherwise the scope's unread headlines (with the list's search) are read and
 * exactly the covered ones are marked read by id. Paging is bounded (MAX_CATCHUP_PAGES); marking
 * by id with an absolute target stays harmless when a reply is lost and it is sent again.
 */
async function sendCatchup(
	client: TtrssClient,
	item: OutboxItem,
	made: CatchupIntent,
	now: () => number
): Promise<void> {
	const madeAt = made.at ?? now();
	const inTime = (): boolean => now() - madeAt < FRESH_MS;
	// Made offline, the reader's list may not have been current (and a held one was not even
	// tried while it waited): bounded by what they saw, as a late one.
	const fresh =
		inTime() &&
		made.offline !== true &&
		item.attemptedAt === undefined &&
		(await attemptedAt(item)) === undefined;
	await markAttempted(item);
	const intent: CatchupIntent = fresh ? { ...made, maxId: undefined } : made;
	const caps = await client.detectCapabilities();
	const scope = {
		feedId: intent.feedId,
		isCat: intent.isCat,
		...(intent.isCat ? { includeNested: true } : {}),
		...(intent.search
			? { search: intent.search, searchMode: intent.searchMode ?? 'this_feed' }
			: {})
	};
	// The server's search_query (level 22) searches within the feed itself: only for that mode.
	const serverSearch =
		!intent.search || (caps.catchupSearch && (intent.searchMode ?? 'this_feed') === 'this_feed');
	if (intent.mode === 'all' && serverSearch) {
		const exact =
			intent.maxId === undefined ||
			(
				await client.getHeadlines({
					...scope,
					viewMode: 'unread',
					sinceId: intent.maxId,
					limit: 1
				})
			).headlines.length === 0;
		if (exact) {
			try {
				await client.catchupFeed(
					{
						feedId: intent.feedId,
						isCat: intent.isCat,
						mode: 'all',
						...(intent.search ? { searchQuery: intent.search } : {})
					},
					// The session had ended: after the re-login, a fresh one is sent again only if still
					// in time, a bounded one only after checking again for newer articles.
					{
						beforeRetry: () => {
							if (!fresh || !inTime()) throw new LateCatchup();
						}
					}
				);
			} catch (error) {
				// Attempted now: bounded by what the reader saw, as any late one.
				if (error instanceof LateCatchup) return sendCatchup(client, item, made, now);
				throw error;
			}
			return;
		}
	}
	const unread: Headline[] = [];
	let pages = 0;
	for await (const page of client.pageHeadlines({ ...scope, viewMode: 'unread' })) {
		unread.push(...page);
		if (++pages >= MAX_CATCHUP_PAGES) break;
	}
	const existed = existedThen(intent, unread);
	const unbounded: CatchupIntent = { ...intent, maxId: undefined };
	const ids = unread
		.filter((h) => existed.has(h.id) && withinCatchup(unbounded, h))
		.map((h) => h.id);
	for (const part of chunk(ids, MAX_IDS_PER_CALL)) {
		await client.updateArticle({
			articleIds: part,
			field: ArticleField.Unread,
			mode: UpdateMode.False
		});
	}
}

/**
 * A catch-up's one-call shortcut to be sent again after a re-login: fresh, but past FRESH_MS now;
 * or bounded, and its check for newer articles is older than the re-login.
 */
class LateCatchup extends Error {}

/**
 * Which of the scope's unread articles existed when the reader caught up: those up to `maxId`
 * (they had them), and, since tt-rss numbers articles as they arrive, the lowest ids up to the
 * unread count the reader saw (`unreadSeen`): older articles they had not loaded (one feed update
 * numbers its articles newest first, so those can have higher ids than the loaded ones) are in,
 * what arrived later is out.
 */
function existedThen(intent: CatchupIntent, unread: readonly Headline[]): Set<number> {
	const ids = unread.map((h) => h.id).sort((a, b) => a - b);
	const { maxId, unreadSeen } = intent;
	const seen = maxId === undefined ? ids.length : ids.filter((id) => id <= maxId).length;
	return new Set(ids.slice(0, Math.max(seen, unreadSeen ?? 0)));
}

type ShareIntent = Extract<Intent, { type: 'share' }>;

const plain = (text: string): string =>
	text
		.replace(/<[^>]*>/g, '')
		.replace(/\s+/g, ' ')
		.trim();

/**
 * A share sent again after its reply was lost would be published twice. So the item is marked as
 * attempted before it is sent; an attempted share is first looked for in Published (the newest
 * page: a share is published at the top), by its URL and title, and confirmed without sending
 * when it is there.
 */
async function sendShare(
	client: TtrssClient,
	item: OutboxItem,
	intent: ShareIntent
): Promise<void> {
	if (item.attemptedAt !== undefined || (await attemptedAt(item)) !== undefined) {
		const { headlines } = await client.getHeadlines({
			feedId: SPECIAL_FEED.published,
			viewMode: 'all_articles',
			limit: (await client.detectCapabilities()).headlineLimit
		});
		if (headlines.some((h) => h.link === intent.url && plain(h.title) === plain(intent.title))) {
			return;
		}
	}
	await markAttempted(item);
	await client.shareToPublished({ title: intent.title, url: intent.url, content: intent.content });
}

async function attemptedAt(item: OutboxItem): Promise<number | undefined> {
	if (item.seq === undefined) return undefined;
	const db = await openReaderDb();
	return (await db.get('outbox', item.seq))?.attemptedAt;
}

/**
 * Notes the attempt before sending. If it cannot be noted (a full quota, even after freeing cache
 * room), the item is not sent: a share sent unnoted and answered by a lost reply would be
 * published again, and a catch-up would be taken for a first try and cover more. The error stops
 * the replay like a transport failure; everything stays queued for the next trigger.
 */
async function markAttempted(item: OutboxItem): Promise<void> {
	await updateItem(item, (current) => {
		current.attemptedAt = Date.now();
	});
}

/**
 * Changes a queued item in place, if it is still queued. The replay's bookkeeping frees cache room
 * first when the quota is full; if it still cannot be written, the StorageFullError propagates.
 */
async function updateItem(item: OutboxItem, change: (current: OutboxItem) => void): Promise<void> {
	const seq = item.seq;
	if (seq === undefined) return;
	const db = await openReaderDb();
	await withQuotaRetry(db, async () => {
		const tx = db.transaction('outbox', 'readwrite');
		tx.done.catch(() => undefined); // a refused write rejects below, through the awaits
		const current = await tx.store.get(seq);
		if (current) {
			change(current);
			await tx.store.put(current);
		}
		await tx.done;
	});
}

// ------------------------------------------------------------------ errors

type Verdict =
	| { kind: 'stop'; stop: ReplayStop; message: string }
	| { kind: 'later'; message: string } // may pass: back off
	| { kind: 'suspect'; message: string } // the item's fault or the way's: ask the server
	| { kind: 'refused'; code: string; message: string }; // this item, for good

const SESSION_CODES = new Set(['NOT_LOGGED_IN', 'SESSION_ENDED', 'LOGIN_ERROR']);
const PASSING_SERVER_CODES = new Set(['E_OPERATION_FAILED', 'Publishing failed']);

export function judge(error: unknown): Verdict {
	if (!(error instanceof ApiError)) {
		// A bug or a browser failure (a full device says so): keep the items, try again later.
		return { kind: 'stop', stop: 'offline', message: readerText(error, String(error)) };
	}
	if (error.kind === 'session' || SESSION_CODES.has(error.code)) {
		return { kind: 'stop', stop: 'sign-in', message: error.userMessage };
	}
	if (error.code === 'API_DISABLED' || error.code === 'HTML_REPLY' || error.code === 'NOT_JSON') {
		return { kind: 'stop', stop: 'blocked', message: error.userMessage };
	}
	if (PASSING_SERVER_CODES.has(error.code) || error.code === 'EMPTY_REPLY') {
		return { kind: 'later', message: error.userMessage };
	}
	if (error.kind === 'server' || error.code === 'UNSUPPORTED' || error.code === 'BAD_REPLY') {
		return { kind: 'refused', code: error.code, message: error.userMessage };
	}
	if (noWayToServer(error)) {
		// No way to the server (fetch rejected, offline, cancelled): it may come back.
		return { kind: 'stop', stop: 'offline', message: error.userMessage };
	}
	// HTTP errors, timeouts, replies to other requests or too large, and whatever else: the
	// item's fault or the way's (serverAnswers tells), never a reason to wait forever.
	return { kind: 'suspect', message: error.userMessage };
}

/** Whether the server answers a tiny request: then a failed call was the item's fault. */
async function serverAnswers(client: TtrssClient): Promise<boolean> {
	try {
		await client.isLoggedIn();
		return true;
	} catch {
		return false;
	}
}

/** Status writes are for the reader's information: a full quota must not stop the replay. */
async function noteStatus(patch: Partial<ReplayStatus>): Promise<void> {
	try {
		await updateReplayStatus(patch);
	} catch {
		// The next successful write tells the reader.
	}
}

// ------------------------------------------------------------------ the replay

/** The changes made in the client's own account: never another account's with this session. */
function ownItems(items: OutboxItem[], client: TtrssClient): OutboxItem[] {
	const account = accountOfClient(client);
	return items.filter((item) => belongsTo(item, account));
}

async function replayOnce(options: ReplayOptions): Promise<ReplayResult> {
	const now = options.now ?? Date.now;
	const db = await openReaderDb();
	const result: ReplayResult = { calls: 0, sent: 0, failed: 0, remaining: 0 };
	if ((await db.count('outbox')) === 0) return result;
	const client = typeof options.client === 'function' ? await options.client() : options.client;
	if (!client) {
		result.remaining = await db.count('outbox');
		return { ...result, stopped: 'no-session' };
	}
	await noteStatus({ lastAttemptAt: now() });

	// Items that arrive during the replay are picked up by the next pass.
	for (let pass = 0; pass < 100; pass++) {
		const calls = planCalls(ownItems(await db.getAll('outbox'), client), now());
		if (calls.length === 0) break;
		const stop = await sendCalls(client, calls, result, options, now);
		if (stop === 'replan') continue;
		if (stop) {
			result.stopped = stop.stop;
			await noteStatus({
				lastError: stop.message,
				...(stop.stop === 'sign-in' ? { signInNeeded: true } : {})
			});
			break;
		}
	}
	if (!result.stopped) await noteStatus({ lastError: undefined, signInNeeded: false });
	result.remaining = ownItems(await db.getAll('outbox'), client).length;
	announceOutboxChange();
	return result;
}

/**
 * Sends the calls in order; returns a stop verdict when the replay must end, or `replan` after an
 * item was put off: the calls planned after it may cross a barrier it now has to wait for (a
 * catch-up), so the rest is planned again around it.
 */
async function sendCalls(
	client: TtrssClient,
	calls: Call[],
	result: ReplayResult,
	options: ReplayOptions,
	now: () => number
): Promise<Extract<Verdict, { kind: 'stop' }> | 'replan' | undefined> {
	for (const call of calls) {
		let verdict: Verdict | undefined;
		const sentAt = now();
		try {
			await call.send(client, now);
		} catch (error) {
			verdict = judge(error);
			if (mayHaveLanded(error) && (call.op === 'updateArticle' || call.op === 'setArticleLabel')) {
				await noteUnanswered(call.items, sentAt);
			}
		}
		result.calls++;
		if (!verdict) {
			await confirm(call.items, now(), sentAt);
			result.sent += call.items.length;
			options.onCall?.({ op: call.op, items: call.items.length });
			continue;
		}
		if (verdict.kind === 'suspect') {
			if (!(await serverAnswers(client))) {
				return { kind: 'stop', stop: 'offline', message: verdict.message };
			}
			verdict = { kind: 'later', message: verdict.message };
		}
		if (verdict.kind === 'stop') return verdict;
		if (call.items.length > 1) {
			// One bad article must not sink its batch: send each alone to find it.
			const singles = call.items.flatMap((item) => callsFor([item]));
			const stop = await sendCalls(client, singles, result, options, now);
			if (stop) return stop;
			continue;
		}
		const item = call.items[0] as OutboxItem;
		if (verdict.kind === 'later' && item.attempts + 1 < MAX_ATTEMPTS) {
			await deferItem(item, now());
			return 'replan';
		} else {
			await moveToFailed(
				item,
				verdict.kind === 'refused' ? verdict.code : 'GAVE_UP',
				verdict.message,
				now()
			);
			result.failed++;
		}
	}
	return undefined;
}

/**
 * Whether a failed call may still have reached the server, or may yet: anything but tt-rss's own
 * answer (an error it answered, a session it ended). A request the client gave up on (timeout,
 * offline mid-request, a cut reply, a proxy's 502/504) can be held on the way and applied later.
 */
export function mayHaveLanded(error: unknown): boolean {
	return !(error instanceof ApiError && (error.kind === 'server' || error.kind === 'session'));
}

/**
 * How long a change sent without an answer may still land on the server: a request's timeout. A
 * later value of the same field confirmed sooner is sent once more after that (`confirm`).
 */
export const UNANSWERED_MS = DEFAULT_TIMEOUT_MS;

/** Best effort: a change whose mark is not written is only not sent once more (see `confirm`). */
async function noteUnanswered(items: readonly OutboxItem[], at: number): Promise<void> {
	for (const item of items) {
		try {
			await updateItem(item, (current) => {
				current.attemptedAt = at;
			});
		} catch {
			// Storage full: the replay stops or goes on as the verdict says.
		}
	}
}

/**
 * The server confirmed these: they leave the outbox (a newer replacement has another seq). The
 * deletes commit on their own: under a full quota the status write fails, and confirmed items
 * kept because of it would be sent again and again.
 *
 * Seen in the chaos runs (seed 2001): a star sent, held on the way, abandoned when the device went
 * offline; the reader's unstar replaced it and was confirmed, and then the held star reached
 * tt-rss — the server ended starred. So a change that replaced one sent without an answer
 * (`overtakes`) and was sent before that one can no longer land stays queued until then, and is
 * sent once more (absolute values: sending again is harmless).
 */
async function confirm(items: readonly OutboxItem[], at: number, sentAt = at): Promise<void> {
	const db = await openReaderDb();
	// Logged before they leave the outbox: a write in between finds them one way or the other.
	await noteSent(db, items, at);
	const tx = db.transaction('outbox', 'readwrite');
	for (const item of items) {
		if (item.seq === undefined) continue;
		const until = item.overtakes === undefined ? undefined : item.overtakes + UNANSWERED_MS;
		if (until !== undefined && sentAt < until) {
			// Only if it is still the same item (not replaced by a newer change meanwhile).
			void tx.store.get(item.seq).then((current) => {
				if (current) void tx.store.put({ ...current, notBefore: until });
			});
		} else void tx.store.delete(item.seq);
	}
	await tx.done;
	await noteStatus({ lastSentAt: at });
}

/** Best effort, like the status: a read answered with older data may then show it a moment. */
async function noteSent(
	db: ReaderDatabase,
	items: readonly OutboxItem[],
	at: number
): Promise<void> {
	try {
		const tx = db.transaction('settings', 'readwrite');
		tx.done.catch(() => undefined); // a refused write rejects below, through the awaits
		const horizon = await tx.store.get(SENT_HORIZON_KEY);
		const next = withSent(
			await tx.store.get(SENT_LOG_KEY),
			items,
			at,
			typeof horizon === 'number' ? horizon : undefined
		);
		await tx.store.put(next.log, SENT_LOG_KEY);
		if (next.horizon !== undefined) await tx.store.put(next.horizon, SENT_HORIZON_KEY);
		await tx.done;
	} catch {
		// Storage full or closing: nothing else depends on it.
	}
}

async function deferItem(item: OutboxItem, now: number): Promise<void> {
	await updateItem(item, (current) => {
		current.attempts += 1;
		// 30 s, 1 min, 2 min, 4 min … capped at one hour.
		current.notBefore = now + Math.min(3_600_000, 30_000 * 2 ** (current.attempts - 1));
	});
}

async function moveToFailed(
	item: OutboxItem,
	code: string,
	reason: string,
	now: number
): Promise<void> {
	const seq = item.seq;
	if (seq === undefined) return;
	const db = await openReaderDb();
	await withQuotaRetry(db, async () => {
		const tx = db.transaction(['outbox', 'failed'], 'readwrite');
		tx.done.catch(() => undefined); // a refused write rejects below, through the awaits
		// Only if it is still the same item (not replaced by a newer change meanwhile).
		const current = await tx.objectStore('outbox').get(seq);
		if (current) {
			await tx.objectStore('outbox').delete(seq);
			const failed: FailedItem = {
				intent: current.intent,
				key: current.key,
				code,
				reason,
				failedAt: now,
				attempts: current.attempts + 1,
				...(current.articleId !== undefined ? { articleId: current.articleId } : {}),
				...(current.account !== undefined ? { account: current.account } : {})
			};
			await tx.objectStore('failed').add(failed);
		}
		await tx.done;
	});
}
