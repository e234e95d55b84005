/**
 * The one error type of the API module. Every failure, from the server or the transport, ends up
 * as an `ApiError` with a `code`, a `userMessage` in the reader's language that says what to do, and a
 * `retryable` flag the offline outbox uses to decide whether sending again can help.
 *
 * Nothing here may contain the password or the session id: messages are built only from the op
 * name, the error code and the HTTP status.
 */
import { m, whenAllMessages } from '$lib/i18n/m';

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
	/** The words, or a function giving them: read when shown, so they follow the current language. */
	userMessage: string | (() => string);
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
	readonly #text: string | (() => string);
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
		this.#text = init.userMessage;
		this.retryable = init.retryable;
		this.status = init.status;
		this.details = init.details;
	}

	get userMessage(): string {
		return typeof this.#text === 'string' ? this.#text : this.#text();
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
 * Rejects with `error` once its words can be read. An API error's texts are in the locale's later
 * module (scripts/i18n-compile.js: the first screen's code carries none of them), which the app
 * fetches after the first screen; a failure that comes before can wait for it (the service worker
 * precaches it, so offline too). The API's failures pass through here on their way out (the
 * transport's, a reply that does not parse, a missing capability).
 */
export async function failWithWords(error: unknown): Promise<never> {
	await whenAllMessages()?.catch(() => undefined);
	throw error;
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

/**
 * The current tt-rss (since 2026-06) answers API_DISABLED to a browser after a good login until
 * this preference is on; its label and place on the server, word for word, and the Reader plugin's
 * button that turns it on in one click, so the reader can act on it. The error's message and the check-up's fix both
 * say it.
 */
export function browserApiSetting(): string {
	return `${m.error_browser_api_fix()} ${m.error_api_button()}`;
}
