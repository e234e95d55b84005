/**
 * The builders of the API's errors, apart from the error types (errors.ts): only the request code
 * (transport, client, parsers, loaded on demand through `session.api()`) makes errors, while the
 * first screen only reads them (`isApiError`, `readerText`). Kept apart, these builders and their
 * texts' choice stay off the first screen's JavaScript (docs/i18n.md).
 */
import { m } from '$lib/i18n/m';
import { ApiError, browserApiSetting, type ApiErrorKind, type ClientErrorCode } from './errors';

/** Where an error happened matters for API_DISABLED: at login vs. after a successful login. */
export type ErrorPhase = 'login' | 'call';

const SIGN_IN_AGAIN = (): string => m.error_sign_in_again();

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
				userMessage: () => m.error_login(),
				retryable: false
			});
		case 'API_DISABLED':
			return new ApiError({
				...base,
				// Both name the settings, and the plugin's button that turns them on: the reader can act on it.
				userMessage: () =>
					phase === 'login'
						? `${m.error_api_disabled()} ${m.error_api_button()}`
						: m.error_browser_api({ fix: browserApiSetting() }),
				retryable: false
			});
		case 'INCORRECT_USAGE':
			return new ApiError({
				...base,
				userMessage: () => m.error_incorrect_usage(),
				retryable: false
			});
		case 'UNKNOWN_METHOD':
			return new ApiError({
				...base,
				userMessage: () => m.error_unknown_method(),
				retryable: false
			});
		case 'FEED_NOT_FOUND':
			return new ApiError({
				...base,
				userMessage: () => m.error_feed_not_found(),
				retryable: false
			});
		case 'E_NOT_FOUND':
			return new ApiError({
				...base,
				userMessage: () => m.error_not_found(),
				retryable: false
			});
		case 'E_OPERATION_FAILED':
		case 'Publishing failed':
			return new ApiError({
				...base,
				userMessage: () => m.error_operation_failed(),
				retryable: false
			});
		default:
			return new ApiError({
				...base,
				userMessage: () => m.error_server_other({ code }),
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
	if (QUEUED_OPS.has(op)) return m.error_offline_kept();
	if (UNQUEUED_CHANGES.has(op)) return m.error_offline_not_changed();
	return m.error_offline();
}

/**
 * HTTP errors that waiting will not fix. The server address is chosen at sign-in (Settings has
 * none), and a 4xx is usually a proxy in front of tt-rss, so say what each status points at.
 */
function httpStatusMessage(status: number): string {
	const prefix = m.error_http_prefix({ status });
	if (status === 401 || status === 403 || status === 407) return m.error_http_refused({ prefix });
	if (status === 404 || status === 405 || status === 410) return m.error_http_no_api({ prefix });
	if (status === 413 || status === 414 || status === 431) {
		return m.error_http_too_large({ prefix });
	}
	return m.error_http_other({ prefix });
}

/** Builds the error for a transport or protocol failure. */
export function clientError(
	op: string,
	code: ClientErrorCode,
	extra: { status?: number; cause?: unknown; details?: Record<string, unknown> } = {}
): ApiError {
	const make = (kind: ApiErrorKind, userMessage: () => string, retryable: boolean): ApiError =>
		new ApiError({ kind, code, op, userMessage, retryable, ...extra });
	switch (code) {
		case 'OFFLINE':
			return make('transport', () => offlineMessage(op), true);
		case 'NETWORK':
			return make('transport', () => m.error_network(), true);
		case 'TIMEOUT':
			return make('transport', () => m.error_timeout(), true);
		case 'ABORTED':
			return make('transport', () => m.error_aborted(), true);
		case 'HTTP_STATUS': {
			const status = extra.status ?? 0;
			// 5xx, 408 and 429 are passing conditions; other 4xx (wrong address, proxy auth) are not.
			const retryable = status >= 500 || status === 408 || status === 429;
			return make(
				'transport',
				() =>
					retryable
						? m.error_http_passing({ prefix: m.error_http_prefix({ status }) })
						: httpStatusMessage(status),
				retryable
			);
		}
		case 'HTML_REPLY':
			return make('transport', () => m.error_html_reply(), false);
		case 'NOT_JSON':
			return make('transport', () => m.error_not_json(), false);
		case 'EMPTY_REPLY':
			return make('transport', () => m.error_empty_reply(), true);
		case 'SEQ_MISMATCH':
			return make('protocol', () => m.error_seq_mismatch(), true);
		case 'BAD_REPLY':
			return make('protocol', () => m.error_bad_reply(), false);
		case 'REPLY_TOO_LARGE':
			return make('protocol', () => m.error_reply_too_large(), false);
		case 'REPLY_TOO_DEEP':
			return make('protocol', () => m.error_reply_too_deep(), false);
		case 'SESSION_ENDED':
			return make('session', SIGN_IN_AGAIN, false);
		case 'UNSUPPORTED':
			return make('protocol', () => m.error_unsupported(), false);
	}
}
