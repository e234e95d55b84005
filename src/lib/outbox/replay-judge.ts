/**
 * How the replay judges a failed call, pure: stop the replay (and why), try the item later, ask
 * the server whether it or the way is at fault, or give the item up for good.
 */
import { ApiError, DEFAULT_TIMEOUT_MS, noWayToServer, readerText } from '$lib/api';

export type ReplayStop =
	| 'offline' // transport failure: try again later
	| 'sign-in' // session ended, no stored credentials (or they were refused)
	| 'blocked' // the server refuses this app (API disabled, proxy page): the reader must act
	| 'no-session'; // nobody signed in

export type Verdict =
	| { kind: 'stop'; stop: ReplayStop; message: string }
	| { kind: 'later'; message: string } // may pass: back off
	| { kind: 'suspect'; message: string } // the item's fault or the way's: ask the server
	| { kind: 'refused'; code: string; message: string }; // this item, for good

const SESSION_CODES = new Set(['NOT_LOGGED_IN', 'SESSION_ENDED', 'LOGIN_ERROR']);
const PASSING_SERVER_CODES = new Set(['E_OPERATION_FAILED', 'Publishing failed']);

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
 * later value of the same field confirmed sooner is sent once more after that (replay-records.ts
 * `confirm`).
 */
export const UNANSWERED_MS = DEFAULT_TIMEOUT_MS;

/** Whether a send made at `sentAt` without an answer may still land at `now`. */
export function mayStillLand(sentAt: number | undefined, now: number): sentAt is number {
	return sentAt !== undefined && now < sentAt + UNANSWERED_MS;
}

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
