/**
 * Sends the outbox to the server: one function for the page and the service worker. This file
 * holds the lock and the loop; the plan (replay-plan.ts) and the judging of errors
 * (replay-judge.ts) are pure, the requests (replay-send.ts) and the books (replay-records.ts) apart.
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
import type { TtrssClient } from '$lib/api';
import { accountOfClient, belongsTo } from '$lib/db/account';
import type { OutboxItem } from '$lib/db/schema';
import { outboxCount, outboxItems } from '$lib/db/stores';
import { announceOutboxChange } from './broadcast';
import { REPLAY_LOCK } from './outbox-contract';
import {
	confirm,
	deferItem,
	markSending,
	moveToFailed,
	noteStatus,
	noteUnanswered,
	settleSending
} from './replay-records';
import { judge, mayHaveLanded, type ReplayStop, type Verdict } from './replay-judge';
import { callsFor, planCalls, type PlannedCall } from './replay-plan';
import { sendCall } from './replay-send';

export const MAX_ATTEMPTS = 5;
export type { ReplayStop };

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

// ------------------------------------------------------------------ the replay

/** The changes made in the client's own account: never another account's with this session. */
function ownItems(items: OutboxItem[], client: TtrssClient): OutboxItem[] {
	const account = accountOfClient(client);
	return items.filter((item) => belongsTo(item, account));
}

async function replayOnce(options: ReplayOptions): Promise<ReplayResult> {
	const now = options.now ?? Date.now;
	const result: ReplayResult = { calls: 0, sent: 0, failed: 0, remaining: 0 };
	if ((await outboxCount()) === 0) return result;
	const client = typeof options.client === 'function' ? await options.client() : options.client;
	if (!client) {
		result.remaining = await outboxCount();
		return { ...result, stopped: 'no-session' };
	}
	await noteStatus({ lastAttemptAt: now() });

	// Items that arrive during the replay are picked up by the next pass.
	for (let pass = 0; pass < 100; pass++) {
		const calls = planCalls(ownItems(await outboxItems(), client), now());
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
	result.remaining = ownItems(await outboxItems(), client).length;
	announceOutboxChange();
	return result;
}

/**
 * Sends the calls in order; returns a stop verdict when the replay must end, or `replan` after an
 * item was put off (deferred, or kept for a second send): the calls planned after it may cross a
 * barrier it now has to wait for (a catch-up), so the rest is planned again around it.
 */
async function sendCalls(
	client: TtrssClient,
	calls: PlannedCall[],
	result: ReplayResult,
	options: ReplayOptions,
	now: () => number
): Promise<Extract<Verdict, { kind: 'stop' }> | 'replan' | undefined> {
	for (const call of calls) {
		let verdict: Verdict | undefined;
		const sentAt = now();
		// A change of an article: noted on its way, so a sender that dies meanwhile leaves a trace.
		const article = call.op === 'updateArticle' || call.op === 'setArticleLabel';
		if (article) await markSending(call.items, sentAt);
		let answered = true;
		try {
			await sendCall(client, call, now);
		} catch (error) {
			verdict = judge(error);
			answered = !mayHaveLanded(error);
			if (article && !answered) await noteUnanswered(call.items, sentAt);
		}
		result.calls++;
		if (!verdict) {
			const kept = await confirm(call.items, now(), sentAt);
			// After the confirmation, which deleted most of them: no note taken off an item about to go.
			if (article) await settleSending(call.items, sentAt, true);
			result.sent += call.items.length;
			options.onCall?.({ op: call.op, items: call.items.length });
			// One kept for a second send is put off: a catch-up planned after it must wait for it.
			if (kept) return 'replan';
			continue;
		}
		if (article) await settleSending(call.items, sentAt, answered);
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

/** Whether the server answers a tiny request: then a failed call was the item's fault. */
async function serverAnswers(client: TtrssClient): Promise<boolean> {
	try {
		await client.isLoggedIn();
		return true;
	} catch {
		return false;
	}
}
