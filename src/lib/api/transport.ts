/**
 * The single network primitive: POST one JSON object to the tt-rss API and unwrap the reply.
 * No DOM and no Svelte here: this runs in pages, in the service worker and in Node tests.
 */
import { clientError, serverError, type ErrorPhase } from './error-make';
import { ApiError, failWithWords } from './errors';
import { isObject, optNumber } from './wire';
import { DEFAULT_TIMEOUT_MS } from './codes';
import { readCapped as readBytesCapped } from './read-capped';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export { DEFAULT_TIMEOUT_MS };

/**
 * The largest reply body read (bytes). 200 headlines with full content are rarely above 2 MB;
 * a reply beyond this is a broken server or proxy, and reading it whole could exhaust a phone's
 * memory (and JSON.parse would need several times as much).
 */
export const MAX_REPLY_BYTES = 32 * 1024 * 1024;

export interface BinaryReply {
	contentType: string;
	data: ArrayBuffer;
}

export interface TransportOptions {
	/** The API endpoint, e.g. `/tt-rss/api/` (same origin: tt-rss sends no CORS headers). */
	apiUrl: string;
	/** Injected for tests; defaults to the global `fetch`. */
	fetch?: FetchLike;
	/** Per-request timeout; 20 s suits a phone on a slow network. */
	timeoutMs?: number;
}

export interface CallOptions {
	sid?: string | undefined;
	signal?: AbortSignal | undefined;
	timeoutMs?: number | undefined;
	/** Tells API_DISABLED at login apart from API_DISABLED after a successful login. */
	phase?: ErrorPhase;
}

/** Keys the transport owns; op parameters may not override them. */
const RESERVED = new Set(['op', 'sid', 'seq']);

function looksLikeHtml(body: string): boolean {
	const head = body.slice(0, 1024).trimStart().toLowerCase();
	return (
		head.startsWith('<!doctype') ||
		head.startsWith('<html') ||
		head.startsWith('<head') ||
		head.startsWith('<body') ||
		head.startsWith('<br') ||
		head.startsWith('<b>') ||
		head.startsWith('<?xml') ||
		/<(html|head|body|title|div|p|h1)[\s>]/.test(head)
	);
}

/** One JSON object: the op's parameters, then `op`, `sid` (only when held) and `seq`. */
function requestBody(
	op: string,
	params: Record<string, unknown>,
	sid: string | undefined,
	seq: number
): string {
	const body: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(params)) {
		if (!RESERVED.has(key) && value !== undefined) body[key] = value;
	}
	body.op = op;
	if (sid !== undefined) body.sid = sid;
	body.seq = seq;
	return JSON.stringify(body);
}

/** Reads a body up to `MAX_REPLY_BYTES`, cancelling the download as soon as it is exceeded. */
function readCapped(op: string, response: Response): Promise<Uint8Array<ArrayBuffer>> {
	return readBytesCapped(response, MAX_REPLY_BYTES, () =>
		clientError(op, 'REPLY_TOO_LARGE', { details: { maxBytes: MAX_REPLY_BYTES } })
	);
}

async function readText(op: string, response: Response): Promise<string> {
	return new TextDecoder().decode(await readCapped(op, response));
}

function isOffline(): boolean {
	// `navigator` exists in pages and workers; absent in old Node. Only a definite `false` counts.
	return typeof navigator !== 'undefined' && navigator.onLine === false;
}

export class Transport {
	readonly apiUrl: string;
	private readonly fetchImpl: FetchLike;
	private readonly timeoutMs: number;
	private seq = 0;

	constructor(options: TransportOptions) {
		this.apiUrl = options.apiUrl;
		this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
		this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	}

	/**
	 * Sends `op` with `params` and returns the reply's content (envelope removed).
	 * Throws ApiError for every failure.
	 */
	async call(
		op: string,
		params: Record<string, unknown> = {},
		options: CallOptions = {}
	): Promise<unknown> {
		const seq = ++this.seq;
		const body = requestBody(op, params, options.sid, seq);
		try {
			const text = await this.post(op, body, options, (response) => readText(op, response));
			return unwrap(op, text, seq, options.phase ?? 'call');
		} catch (error) {
			return failWithWords(error);
		}
	}

	/**
	 * For ops that answer bytes (getFeedIcon): an image reply is returned as it is; a JSON reply
	 * is unwrapped, so error codes become ApiErrors as usual.
	 */
	async callBinary(
		op: string,
		params: Record<string, unknown> = {},
		options: CallOptions = {}
	): Promise<BinaryReply> {
		const seq = ++this.seq;
		const body = requestBody(op, params, options.sid, seq);
		try {
			const reply = await this.post(op, body, options, async (response) => {
				const type = response.headers.get('Content-Type') ?? '';
				if (/^(image\/|application\/octet-stream)/i.test(type)) {
					const bytes = await readCapped(op, response);
					return { contentType: type, data: bytes.buffer };
				}
				return readText(op, response);
			});
			if (typeof reply !== 'string') return reply;
			unwrap(op, reply, seq, options.phase ?? 'call');
			throw clientError(op, 'BAD_REPLY', { details: { problem: 'expected image data' } });
		} catch (error) {
			return failWithWords(error);
		}
	}

	private async post<T>(
		op: string,
		body: string,
		options: CallOptions,
		read: (response: Response) => Promise<T>
	): Promise<T> {
		const callerSignal = options.signal;
		if (callerSignal?.aborted) throw clientError(op, 'ABORTED', { cause: callerSignal.reason });

		const controller = new AbortController();
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			controller.abort();
		}, options.timeoutMs ?? this.timeoutMs);
		const onCallerAbort = (): void => controller.abort();
		callerSignal?.addEventListener('abort', onCallerAbort, { once: true });

		const fail = (error: unknown): ApiError => {
			if (error instanceof ApiError) return error;
			if (callerSignal?.aborted) return clientError(op, 'ABORTED', { cause: error });
			if (timedOut) return clientError(op, 'TIMEOUT', { cause: error });
			return clientError(op, isOffline() ? 'OFFLINE' : 'NETWORK', { cause: error });
		};

		try {
			let response: Response;
			try {
				response = await this.fetchImpl(this.apiUrl, {
					method: 'POST',
					// Newer servers answer INCORRECT_USAGE to any other content type.
					headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
					body,
					signal: controller.signal,
					credentials: 'same-origin',
					redirect: 'follow'
				});
			} catch (error) {
				throw fail(error);
			}
			if (!response.ok) {
				// Read only to tell an HTML error page from an empty one; never more than the cap.
				const text = await readText(op, response).catch(() => '');
				// The auth scheme (never its parameters) tells HTTP authentication in front of
				// tt-rss apart from other refusals, for the server check-up.
				const challenge = response.headers.get('WWW-Authenticate')?.trim().split(/\s+/)[0];
				throw clientError(op, 'HTTP_STATUS', {
					status: response.status,
					details: {
						html: looksLikeHtml(text),
						empty: text.trim() === '',
						...(challenge ? { authScheme: challenge } : {})
					}
				});
			}
			try {
				// The body is read under the same timeout: a stalled body must not hang forever.
				return await read(response);
			} catch (error) {
				throw fail(error);
			}
		} finally {
			clearTimeout(timer);
			callerSignal?.removeEventListener('abort', onCallerAbort);
		}
	}
}

/**
 * Turns a reply body into content: checks JSON, HTML, the envelope, `seq` and error codes.
 * Exported for the property test and for recorded-reply tests.
 */
export function unwrap(op: string, text: string, seq: number, phase: ErrorPhase): unknown {
	if (text.trim() === '') throw clientError(op, 'EMPTY_REPLY');
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		// No cause attached: the parser's message quotes the body, which may hold anything.
		const html = looksLikeHtml(text);
		// A page with a password field is a sign-in page (a proxy's, or tt-rss's own web UI).
		const details = html ? { loginForm: /<input[^>]*type\s*=\s*["']?password/i.test(text) } : {};
		throw clientError(op, html ? 'HTML_REPLY' : 'NOT_JSON', { details });
	}

	let content: unknown = parsed;
	let status: number | undefined;
	if (isObject(parsed) && 'content' in parsed && 'status' in parsed) {
		// `seq` is null when the session check rejected the call and -1 when the server rejected
		// the request before reading it: neither is a mismatch.
		const replySeq = parsed.seq;
		if (replySeq !== null && replySeq !== undefined) {
			const n = optNumber(replySeq);
			if (n === undefined || (n !== -1 && n !== seq)) {
				throw clientError(op, 'SEQ_MISMATCH', { details: { sent: seq, received: n ?? null } });
			}
		}
		status = optNumber(parsed.status);
		content = parsed.content;
		if (status === undefined || (status !== 0 && status !== 1)) {
			throw clientError(op, 'BAD_REPLY', { details: { problem: 'unknown status' } });
		}
	}
	// Obsolete servers (host 1.4.3 and below) answer the bare content object; an `error` string at
	// the top of the content is an error whatever the status says.
	if (isObject(content) && typeof content.error === 'string') {
		const details: Record<string, unknown> = {};
		if (typeof content.method === 'string') details.method = content.method;
		if (typeof content.message === 'string') details.message = content.message;
		throw serverError(op, content.error, phase, details);
	}
	if (status === 1) {
		throw clientError(op, 'BAD_REPLY', { details: { problem: 'error status without a code' } });
	}
	return content;
}
