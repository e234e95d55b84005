/**
 * Sends the outbox to the server: one function for the page and the service worker.
 *
 * - One replay at a time across tabs and the worker (Web Locks, `outbox-replay`).
 * - Few calls: within the stretch between two catch-ups, one updateArticle per field and target
 *   value (ids joined), one setArticleLabel per label and assign, one call per distinct note;
 *   catch-ups go alone and in order (they are barriers nothing is moved across).
 * - An item leaves the outbox only after the server confirmed it.
 * - Transport failure: stop, keep everything (the next trigger tries again).
 * - Session ended and no re-login possible: stop, keep everything, flag "sign in needed".
 * - A refusal retrying cannot fix: the item (alone, after splitting a batch) goes to `failed`.
 * - A server failure that may pass (E_OPERATION_FAILED, an empty reply): back off, at most
 *   MAX_ATTEMPTS times, then `failed`.
 */
import { ApiError, ArticleField, UpdateMode, type TtrssClient } from '$lib/api';
import { openReaderDb } from '$lib/db/open';
import type { FailedItem, OutboxItem } from '$lib/db/schema';
import type { ArticleFlag, Intent } from './intent';
import { announceOutboxChange } from './outbox';
import { updateReplayStatus } from './status';

export const MAX_ATTEMPTS = 5;
/** updateArticle/setArticleLabel take id lists; keep each request's body moderate. */
export const MAX_IDS_PER_CALL = 500;
const LOCK_NAME = 'outbox-replay';

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
	return locks.request(LOCK_NAME, { mode: 'exclusive' }, work) as Promise<T>;
}

// ------------------------------------------------------------------ the plan

interface Call {
	op: 'updateArticle' | 'setArticleLabel' | 'catchupFeed' | 'shareToPublished';
	items: OutboxItem[];
	send: (client: TtrssClient) => Promise<unknown>;
}

/** Groups the items into calls, oldest stretch first; deferred items stop it at the next barrier. */
export function planCalls(items: readonly OutboxItem[], now: number): Call[] {
	const calls: Call[] = [];
	let group = new Map<string, OutboxItem[]>();
	let deferredInStretch = false;
	const flush = (): void => {
		for (const members of group.values()) calls.push(...callsFor(members));
		group = new Map();
	};
	for (const item of [...items].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))) {
		if (item.notBefore !== undefined && item.notBefore > now) {
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

function callsFor(members: OutboxItem[]): Call[] {
	const first = members[0]?.intent;
	if (!first) return [];
	switch (first.type) {
		case 'flag':
			return chunk(members, MAX_IDS_PER_CALL).map((items) => ({
				op: 'updateArticle',
				items,
				send: (client) =>
					client.updateArticle({
						articleIds: idsOf(items),
						field: FLAG_FIELD[first.field],
						mode: first.value ? UpdateMode.True : UpdateMode.False
					})
			}));
		case 'note':
			return chunk(members, MAX_IDS_PER_CALL).map((items) => ({
				op: 'updateArticle',
				items,
				send: (client) =>
					client.updateArticle({
						articleIds: idsOf(items),
						field: ArticleField.Note,
						data: first.note
					})
			}));
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
					send: (client) =>
						client.catchupFeed({ feedId: first.feedId, isCat: first.isCat, mode: first.mode })
				}
			];
		case 'share':
			return [
				{
					op: 'shareToPublished',
					items: members,
					send: (client) =>
						client.shareToPublished({ title: first.title, url: first.url, content: first.content })
				}
			];
	}
}

// ------------------------------------------------------------------ errors

type Verdict =
	| { kind: 'stop'; stop: ReplayStop; message: string }
	| { kind: 'later'; message: string } // may pass: back off
	| { kind: 'refused'; code: string; message: string }; // this item, for good

const SESSION_CODES = new Set(['NOT_LOGGED_IN', 'SESSION_ENDED', 'LOGIN_ERROR']);
const PASSING_SERVER_CODES = new Set(['E_OPERATION_FAILED', 'Publishing failed']);

export function judge(error: unknown): Verdict {
	if (!(error instanceof ApiError)) {
		// A bug or a browser failure: keep the items, try again later.
		return { kind: 'stop', stop: 'offline', message: String(error) };
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
	// Network, timeout, HTTP 5xx, seq mismatch: the server may come back.
	return { kind: 'stop', stop: 'offline', message: error.userMessage };
}

// ------------------------------------------------------------------ the replay

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
	await updateReplayStatus({ lastAttemptAt: now() });

	// Items that arrive during the replay are picked up by the next pass.
	for (let pass = 0; pass < 100; pass++) {
		const calls = planCalls(await db.getAll('outbox'), now());
		if (calls.length === 0) break;
		const stop = await sendCalls(client, calls, result, options, now);
		if (stop) {
			result.stopped = stop.stop;
			await updateReplayStatus({
				lastError: stop.message,
				...(stop.stop === 'sign-in' ? { signInNeeded: true } : {})
			});
			break;
		}
	}
	if (!result.stopped) await updateReplayStatus({ lastError: undefined, signInNeeded: false });
	result.remaining = await db.count('outbox');
	announceOutboxChange();
	return result;
}

/** Sends the calls in order; returns a stop verdict when the replay must end. */
async function sendCalls(
	client: TtrssClient,
	calls: Call[],
	result: ReplayResult,
	options: ReplayOptions,
	now: () => number
): Promise<Extract<Verdict, { kind: 'stop' }> | undefined> {
	for (const call of calls) {
		let verdict: Verdict | undefined;
		try {
			await call.send(client);
		} catch (error) {
			verdict = judge(error);
		}
		result.calls++;
		if (!verdict) {
			await confirm(call.items, now());
			result.sent += call.items.length;
			options.onCall?.({ op: call.op, items: call.items.length });
			continue;
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

/** The server confirmed these: they leave the outbox (a newer replacement has another seq). */
async function confirm(items: readonly OutboxItem[], at: number): Promise<void> {
	const db = await openReaderDb();
	const tx = db.transaction(['outbox', 'settings'], 'readwrite');
	for (const item of items)
		if (item.seq !== undefined) void tx.objectStore('outbox').delete(item.seq);
	const status = (await tx.objectStore('settings').get('outbox.status')) ?? { signInNeeded: false };
	await tx.objectStore('settings').put({ ...status, lastSentAt: at }, 'outbox.status');
	await tx.done;
}

async function deferItem(item: OutboxItem, now: number): Promise<void> {
	if (item.seq === undefined) return;
	const db = await openReaderDb();
	const tx = db.transaction('outbox', 'readwrite');
	const current = await tx.store.get(item.seq);
	if (current) {
		current.attempts += 1;
		// 30 s, 1 min, 2 min, 4 min … capped at one hour.
		current.notBefore = now + Math.min(3_600_000, 30_000 * 2 ** (current.attempts - 1));
		await tx.store.put(current);
	}
	await tx.done;
}

async function moveToFailed(
	item: OutboxItem,
	code: string,
	reason: string,
	now: number
): Promise<void> {
	if (item.seq === undefined) return;
	const db = await openReaderDb();
	const tx = db.transaction(['outbox', 'failed'], 'readwrite');
	// Only if it is still the same item (not replaced by a newer change meanwhile).
	const current = await tx.objectStore('outbox').get(item.seq);
	if (current) {
		await tx.objectStore('outbox').delete(item.seq);
		const failed: FailedItem = {
			intent: current.intent,
			key: current.key,
			code,
			reason,
			failedAt: now,
			attempts: current.attempts + 1,
			...(current.articleId !== undefined ? { articleId: current.articleId } : {})
		};
		await tx.objectStore('failed').add(failed);
	}
	await tx.done;
}
