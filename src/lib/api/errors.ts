/**
 * The one error type of the API module. Every failure, from the server or the transport, ends up
 * as an `ApiError` with a `code`, a plain-English `userMessage` that says what to do, and a
 * `retryable` flag the offline outbox uses to decide whether sending again can help.
 *
 * Nothing here may contain the password or the session id: messages are built only from the op
 * name, the error code and the HTTP status.
 */

/** Error codes the tt-rss server sends in `content.error` (unknown ones are kept verbatim). */
export type ServerErrorCode =
	| 'NOT_LOGGED_IN'
	| 'LOGIN_ERROR'
	| 'API_DISABLED'
	| 'INCORRECT_USAGE'
	| 'UNKNOWN_METHOD'
	| 'FEED_NOT_FOUND'
	| 'E_NOT_FOUND'
	| 'E_OPERATION_FAILED';

/** Failures found by the client before or instead of a usable reply. */
export type ClientErrorCode =
	| 'OFFLINE'
	| 'NETWORK'
	| 'TIMEOUT'
	| 'ABORTED'
	| 'HTTP_STATUS'
	| 'HTML_REPLY'
	| 'NOT_JSON'
	| 'EMPTY_REPLY'
	| 'SEQ_MISMATCH'
	| 'BAD_REPLY'
	| 'REPLY_TOO_LARGE'
	| 'REPLY_TOO_DEEP'
	| 'SESSION_ENDED'
	| 'UNSUPPORTED';

/** `(string & {})` keeps autocompletion for the known codes while accepting any server code. */
export type ApiErrorCode = ServerErrorCode | ClientErrorCode | (string & {});

/**
 * - `server`: the server answered with an error code (`code` is that code, verbatim).
 * - `transport`: the request or its reply did not get through (network, timeout, HTTP, body).
 * - `protocol`: a reply arrived but does not fit (seq mismatch, unexpected shape).
 * - `session`: the session ended and could not be renewed; the user must sign in.
 */
export type ApiErrorKind = 'server' | 'transport' | 'protocol' | 'session';

export interface ApiErrorInit {
	kind: ApiErrorKind;
	code: ApiErrorCode;
	op: string;
	userMessage: string;
	retryable: boolean;
	/** HTTP status, for `HTTP_STATUS`. */
	status?: number;
	/** Extra facts from the reply that are safe to show (e.g. `method` of UNKNOWN_METHOD). */
	details?: Record<string, unknown>;
	cause?: unknown;
}

export class ApiError extends Error {
	override readonly name = 'ApiError';
	readonly kind: ApiErrorKind;
	readonly code: ApiErrorCode;
	readonly op: string;
	readonly userMessage: string;
	readonly retryable: boolean;
	readonly status: number | undefined;
	readonly details: Readonly<Record<string, unknown>> | undefined;

	constructor(init: ApiErrorInit) {
		super(
			`tt-rss ${init.op}: ${init.code}${init.status !== undefined ? ` (HTTP ${init.status})` : ''}`,
			init.cause !== undefined ? { cause: init.cause } : undefined
		);
		this.kind = init.kind;
		this.code = init.code;
		this.op = init.op;
		this.userMessage = init.userMessage;
		this.retryable = init.retryable;
		this.status = init.status;
		this.details = init.details;
	}
}

export function isApiError(value: unknown): value is ApiError {
	return value instanceof ApiError;
}

/**
 * A failure of the app's own that the reader can act on, with the words they see (a refusal, a
 * full device: offline/storage.ts StorageFullError). `readerText` shows its message.
 */
export class ReaderError extends Error {
	constructor(
		readonly userMessage: string,
		message: string = userMessage,
		options?: ErrorOptions
	) {
		super(message, options);
	}
}

/** A refusal of the app's own (not the server's), with the words the reader sees. */
export class RefusedError extends ReaderError {
	override readonly name = 'RefusedError';
	constructor(userMessage: string) {
		super(userMessage);
	}
}

/**
 * The one way from a failure to the text a reader sees: the API error's or the app's own
 * (`ReaderError`) message, or the screen's `fallback` for anything else (a bug, not something the
 * reader can act on).
 */
export function readerText(error: unknown, fallback: string): string {
	return isApiError(error) || error instanceof ReaderError ? error.userMessage : fallback;
}

/**
 * The codes of a request that found no way to the server (fetch rejected, offline, cancelled):
 * nothing reached it, so sending again later may pass (the outbox's replay stops and waits).
 */
const NO_WAY_CODES: ReadonlySet<ApiErrorCode> = new Set(['NETWORK', 'OFFLINE', 'ABORTED']);

export function noWayToServer(error: unknown): boolean {
	return isApiError(error) && NO_WAY_CODES.has(error.code);
}

/**
 * The server could not be reached or could not answer (as opposed to answering with an error): no
 * way to it, a timeout, or something in the way answering instead (an HTTP error, an HTML page, an
 * empty reply). A search then answers from the device.
 */
const UNREACHABLE_CODES: ReadonlySet<ApiErrorCode> = new Set([
	'OFFLINE',
	'NETWORK',
	'TIMEOUT',
	'HTTP_STATUS',
	'HTML_REPLY',
	'EMPTY_REPLY'
]);

export function serverUnreachable(error: unknown): boolean {
	return isApiError(error) && error.kind === 'transport' && UNREACHABLE_CODES.has(error.code);
}

/** Where an error happened matters for API_DISABLED: at login vs. after a successful login. */
export type ErrorPhase = 'login' | 'call';

/**
 * The current tt-rss (since 2026-06) answers API_DISABLED to a browser after a good login until
 * this preference is on; its label and place on the server, word for word. The error's message and
 * the check-up's fix both say it.
 */
export const BROWSER_API_SETTING =
	'In the tt-rss web interface, open Preferences → Preferences → General, turn on "Enable browser-based API access" (next to "Enable API access", which must be on too), click Save configuration, and sign in again.';

const SIGN_IN_AGAIN = 'Your session on the tt-rss server has ended. Please sign in again.';

/** Builds the error for a server error code, with the message a reader can act on. */
export function serverError(
	op: string,
	code: string,
	phase: ErrorPhase,
	details?: Record<string, unknown>
): ApiError {
	const base = { kind: 'server' as const, code, op, details };
	switch (code) {
		case 'NOT_LOGGED_IN':
			return new ApiError({ ...base, userMessage: SIGN_IN_AGAIN, retryable: false });
		case 'LOGIN_ERROR':
			return new ApiError({
				...base,
				userMessage:
					'The user name or password was not accepted. Check them and try again; after a failed attempt, newer servers refuse logins for a few seconds.',
				retryable: false
			});
		case 'API_DISABLED':
			return new ApiError({
				...base,
				userMessage:
					phase === 'login'
						? 'API access is turned off for this account. In tt-rss, open Preferences, turn on "Enable API access" (API access), save, and sign in again.'
						: `Signing in worked, but tt-rss refuses API requests from web browsers for this account. ${BROWSER_API_SETTING}`,
				retryable: false
			});
		case 'INCORRECT_USAGE':
			return new ApiError({
				...base,
				userMessage:
					'The tt-rss server did not accept this request. The server version may not support this action; updating the server or the app may help.',
				retryable: false
			});
		case 'UNKNOWN_METHOD':
			return new ApiError({
				...base,
				userMessage:
					'The tt-rss server does not know this action. It is probably too old for this feature; updating tt-rss would help.',
				retryable: false
			});
		case 'FEED_NOT_FOUND':
			return new ApiError({
				...base,
				userMessage:
					'This feed was not found on the tt-rss server. It may have been removed; refresh the feed list.',
				retryable: false
			});
		case 'E_NOT_FOUND':
			return new ApiError({
				...base,
				userMessage:
					'The item was not found on the tt-rss server. It may have been removed; refresh and try again.',
				retryable: false
			});
		case 'E_OPERATION_FAILED':
		case 'Publishing failed':
			return new ApiError({
				...base,
				userMessage:
					'The tt-rss server could not complete this action. Try again later; if it keeps failing, check the server.',
				retryable: false
			});
		default:
			return new ApiError({
				...base,
				userMessage: `The tt-rss server reported an error (${code}). Try again later; if it keeps happening, check the server.`,
				retryable: false
			});
	}
}

/** "Session ended" for a caller that holds no credentials (or whose re-login failed). */
export function sessionEndedError(op: string, cause?: unknown): ApiError {
	return new ApiError({
		kind: 'session',
		code: 'SESSION_ENDED',
		op,
		userMessage: SIGN_IN_AGAIN,
		retryable: false,
		cause
	});
}

/**
 * Ops the outbox keeps when they cannot be sent, and replays later (src/lib/outbox/replay.ts).
 * Only for these may an error say that the change is kept.
 */
export const QUEUED_OPS: ReadonlySet<string> = new Set([
	'updateArticle',
	'setArticleLabel',
	'catchupFeed',
	'shareToPublished'
]);

/** Ops that change something on the server but are sent only while online, never queued. */
const UNQUEUED_CHANGES: ReadonlySet<string> = new Set([
	'subscribeToFeed',
	'unsubscribeFeed',
	'updateFeed'
]);

/** What being offline means for this op: kept for later, not done, or not loaded. */
export function offlineMessage(op: string): string {
	if (QUEUED_OPS.has(op)) {
		return 'You are offline. Changes are kept on this device and sent when the connection returns.';
	}
	if (UNQUEUED_CHANGES.has(op)) {
		return 'You are offline, and this needs a connection to the tt-rss server: nothing was changed. Try again when you are online.';
	}
	return 'You are offline, and this needs a connection to the tt-rss server. Try again when you are online.';
}

/**
 * HTTP errors that waiting will not fix. The server address is chosen at sign-in (Settings has
 * none), and a 4xx is usually a proxy in front of tt-rss, so say what each status points at.
 */
function httpStatusMessage(status: number): string {
	const prefix = `The tt-rss server answered with an error (HTTP ${status}).`;
	if (status === 401 || status === 403 || status === 407) {
		return `${prefix} Something in front of tt-rss (a proxy or the web server) refused access: open the server address in this browser, sign in there if asked, then try again.`;
	}
	if (status === 404 || status === 405 || status === 410) {
		return `${prefix} No tt-rss API answers at the server address used at sign-in. Sign out, then sign in with the address of tt-rss (such as /tt-rss/).`;
	}
	if (status === 413 || status === 414 || status === 431) {
		return `${prefix} The request was too large for the server or a proxy in front of it. Its size limit must be raised for this to work.`;
	}
	return `${prefix} The server or a proxy in front of it refused the request; check its configuration, or sign out and sign in with the address of tt-rss (such as /tt-rss/).`;
}

/** Builds the error for a transport or protocol failure. */
export function clientError(
	op: string,
	code: ClientErrorCode,
	extra: { status?: number; cause?: unknown; details?: Record<string, unknown> } = {}
): ApiError {
	const make = (kind: ApiErrorKind, userMessage: string, retryable: boolean): ApiError =>
		new ApiError({ kind, code, op, userMessage, retryable, ...extra });
	switch (code) {
		case 'OFFLINE':
			return make('transport', offlineMessage(op), true);
		case 'NETWORK':
			return make(
				'transport',
				'The tt-rss server could not be reached. Check your connection and the server address, then try again.',
				true
			);
		case 'TIMEOUT':
			return make(
				'transport',
				'The tt-rss server took too long to answer. Try again; if it keeps happening, the server or the connection may be overloaded.',
				true
			);
		case 'ABORTED':
			return make('transport', 'The request was cancelled before it finished.', true);
		case 'HTTP_STATUS': {
			const status = extra.status ?? 0;
			// 5xx, 408 and 429 are passing conditions; other 4xx (wrong address, proxy auth) are not.
			const retryable = status >= 500 || status === 408 || status === 429;
			return make(
				'transport',
				retryable
					? `The tt-rss server answered with an error (HTTP ${status}). It may be restarting or overloaded; try again in a few minutes.`
					: httpStatusMessage(status),
				retryable
			);
		}
		case 'HTML_REPLY':
			return make(
				'transport',
				'The server answered with a web page instead of tt-rss data. This is usually the login page of a proxy or a server error page: open the server address in your browser, sign in to any proxy, and check that the address points to tt-rss.',
				false
			);
		case 'NOT_JSON':
			return make(
				'transport',
				'The server answer could not be read as tt-rss data. Check that the server address points to the tt-rss API (it ends in /api/).',
				false
			);
		case 'EMPTY_REPLY':
			return make(
				'transport',
				'The tt-rss server sent an empty answer, which usually means it failed internally. Try again later; if it persists, check the server error log.',
				true
			);
		case 'SEQ_MISMATCH':
			return make(
				'protocol',
				'The server answer did not belong to this request (a proxy or cache may be mixing up answers). Try again.',
				true
			);
		case 'BAD_REPLY':
			return make(
				'protocol',
				'The tt-rss server answered in an unexpected way. This server version may not be supported.',
				false
			);
		case 'REPLY_TOO_LARGE':
			return make(
				'protocol',
				'The tt-rss server sent an answer too large for this app to read safely. Try again later; if it keeps happening, the server or a proxy in front of it is sending something other than tt-rss data.',
				false
			);
		case 'REPLY_TOO_DEEP':
			return make(
				'protocol',
				'The tt-rss server sent a feed list nested deeper than this app can show. Move some categories up a level in tt-rss, then try again.',
				false
			);
		case 'SESSION_ENDED':
			return make('session', SIGN_IN_AGAIN, false);
		case 'UNSUPPORTED':
			return make(
				'protocol',
				'This tt-rss server is too old for this action. Updating tt-rss would make it available.',
				false
			);
	}
}
