import { afterEach, describe, expect, it, vi } from 'vitest';
import { caught } from '$support/caught';
import { QUEUED_OPS } from './error-make';
import { ApiError } from './errors';
import { fakeFetch, jsonReply, ok } from '$support/fake-fetch';
import { MAX_REPLY_BYTES, Transport, unwrap } from './transport';

const API = 'http://tt.example/api/';

function transportWith(respond: () => Response | Promise<Response>, timeoutMs?: number) {
	const fake = fakeFetch(() => respond());
	return { fake, transport: new Transport({ apiUrl: API, fetch: fake.fetch, timeoutMs }) };
}

afterEach(() => {
	vi.unstubAllGlobals();
	vi.useRealTimers();
});

describe('request shape', () => {
	it('POSTs one JSON object with Content-Type application/json, op, sid and increasing seq', async () => {
		const fake = fakeFetch((r) => ok(r, { ok: true }));
		const transport = new Transport({ apiUrl: API, fetch: fake.fetch });
		await transport.call('getVersion', {}, { sid: 'abc' });
		await transport.call('getApiLevel', { op: 'evil', seq: 99 });
		const [first, second] = fake.requests;
		expect(first?.url).toBe(API);
		expect(first?.init.method).toBe('POST');
		expect(first?.headers['content-type']).toBe('application/json');
		expect(first?.body).toEqual({ op: 'getVersion', sid: 'abc', seq: 1 });
		// Reserved keys cannot be overridden by params; no sid when none is held.
		expect(second?.body).toEqual({ op: 'getApiLevel', seq: 2 });
	});
});

describe('envelope', () => {
	it('unwraps {seq,status,content}', async () => {
		const fake = fakeFetch((r) => ok(r, { version: '21.02' }));
		const transport = new Transport({ apiUrl: API, fetch: fake.fetch });
		await expect(transport.call('getVersion')).resolves.toEqual({ version: '21.02' });
	});

	it('accepts the bare content object of obsolete servers (1.4.3 and below)', async () => {
		const { transport } = transportWith(() => jsonReply({ version: '1.4.3' }));
		await expect(transport.call('getVersion')).resolves.toEqual({ version: '1.4.3' });
	});

	it('accepts bare error objects of obsolete servers as errors', async () => {
		const { transport } = transportWith(() => jsonReply({ error: 'NOT_LOGGED_IN' }));
		const error = await caught(transport.call('getVersion'));
		expect(error.code).toBe('NOT_LOGGED_IN');
	});

	it('keeps unknown server error codes verbatim', async () => {
		const { transport } = transportWith(() =>
			jsonReply({ seq: 1, status: 1, content: { error: 'SOMETHING_NEW' } })
		);
		const error = await caught(transport.call('getVersion'));
		expect(error).toMatchObject({ kind: 'server', code: 'SOMETHING_NEW', retryable: false });
		expect(error.userMessage).toContain('SOMETHING_NEW');
	});

	it('keeps the method of UNKNOWN_METHOD', async () => {
		const { transport } = transportWith(() =>
			jsonReply({ status: 1, content: { error: 'UNKNOWN_METHOD', method: 'bogus' } })
		);
		const error = await caught(transport.call('bogus'));
		expect(error.code).toBe('UNKNOWN_METHOD');
		expect(error.details).toEqual({ method: 'bogus' });
	});

	it('treats status 1 without an error code as a bad reply', async () => {
		const { transport } = transportWith(() => jsonReply({ seq: 1, status: 1, content: {} }));
		expect((await caught(transport.call('getVersion'))).code).toBe('BAD_REPLY');
	});

	it('rejects a reply whose seq does not match', async () => {
		const { transport } = transportWith(() =>
			jsonReply({ seq: 7, status: 0, content: { version: 'x' } })
		);
		const error = await caught(transport.call('getVersion'));
		expect(error).toMatchObject({ kind: 'protocol', code: 'SEQ_MISMATCH', retryable: true });
	});

	it.each([null, -1, '1'])('does not treat seq %s as a mismatch', async (seq) => {
		const { transport } = transportWith(() =>
			jsonReply({ seq, status: 1, content: { error: 'NOT_LOGGED_IN' } })
		);
		expect((await caught(transport.call('getVersion'))).code).toBe('NOT_LOGGED_IN');
	});
});

describe('transport failures', () => {
	it('HTML login page of a proxy → HTML_REPLY', async () => {
		const { transport } = transportWith(
			() =>
				new Response('<!DOCTYPE html><html><body><form>Sign in</form></body></html>', {
					headers: { 'Content-Type': 'text/html' }
				})
		);
		const error = await caught(transport.call('getVersion'));
		expect(error).toMatchObject({ kind: 'transport', code: 'HTML_REPLY', retryable: false });
		expect(error.userMessage).toMatch(/web page/);
	});

	it('PHP error page → HTML_REPLY', async () => {
		const { transport } = transportWith(
			() => new Response('<br />\n<b>Fatal error</b>:  Uncaught Error in /x.php on line 3<br />')
		);
		expect((await caught(transport.call('getVersion'))).code).toBe('HTML_REPLY');
	});

	it('garbage → NOT_JSON', async () => {
		const { transport } = transportWith(() => new Response('definitely { not json'));
		const error = await caught(transport.call('getVersion'));
		expect(error).toMatchObject({ code: 'NOT_JSON', retryable: false });
		expect(error.userMessage).toMatch(/api/i);
	});

	it('empty body → EMPTY_REPLY (retryable)', async () => {
		const { transport } = transportWith(() => new Response(''));
		expect(await caught(transport.call('getVersion'))).toMatchObject({
			code: 'EMPTY_REPLY',
			retryable: true
		});
	});

	it('HTTP 502 with an empty body → HTTP_STATUS 502, retryable', async () => {
		const { transport } = transportWith(() => new Response('', { status: 502 }));
		const error = await caught(transport.call('getVersion'));
		expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 502, retryable: true });
		expect(error.userMessage).toContain('502');
	});

	it('HTTP 404 → HTTP_STATUS, not retryable, says to sign in with the right address', async () => {
		const { transport } = transportWith(() => new Response('<html>nope</html>', { status: 404 }));
		const error = await caught(transport.call('getVersion'));
		expect(error).toMatchObject({ code: 'HTTP_STATUS', status: 404, retryable: false });
		expect(error.userMessage).toMatch(/address used at sign-in/);
	});

	it.each([401, 403, 404, 413, 418])(
		'HTTP %i: the message points at something that exists (never "the settings")',
		async (status) => {
			const { transport } = transportWith(() => new Response('', { status }));
			const error = await caught(transport.call('updateArticle'));
			expect(error.userMessage).toContain(`HTTP ${status}`);
			expect(error.userMessage).not.toMatch(/settings/i);
		}
	);

	it('HTTP 413 says the request was too large for the server or a proxy', async () => {
		const { transport } = transportWith(() => new Response('', { status: 413 }));
		expect((await caught(transport.call('setArticleLabel'))).userMessage).toMatch(/too large/);
	});

	it('network error → NETWORK (retryable)', async () => {
		const { transport } = transportWith(() => Promise.reject(new TypeError('fetch failed')));
		expect(await caught(transport.call('getVersion'))).toMatchObject({
			kind: 'transport',
			code: 'NETWORK',
			retryable: true
		});
	});

	it('network error while the browser says offline → OFFLINE', async () => {
		vi.stubGlobal('navigator', { onLine: false });
		const { transport } = transportWith(() => Promise.reject(new TypeError('Failed to fetch')));
		const error = await caught(transport.call('getVersion'));
		expect(error).toMatchObject({ code: 'OFFLINE', retryable: true });
		expect(error.userMessage).toMatch(/offline/);
	});

	it.each([
		['updateArticle', /kept on this device/],
		['catchupFeed', /kept on this device/],
		['subscribeToFeed', /nothing was changed/],
		['unsubscribeFeed', /nothing was changed/],
		['updateFeed', /nothing was changed/],
		['getHeadlines', /needs a connection/]
	])('offline: %s says what happened to it (%s)', async (op, expected) => {
		vi.stubGlobal('navigator', { onLine: false });
		const { transport } = transportWith(() => Promise.reject(new TypeError('Failed to fetch')));
		const error = await caught(transport.call(op));
		expect(error.userMessage).toMatch(expected);
		// Only what the outbox really keeps may say it is kept.
		expect(/kept/.test(error.userMessage)).toBe(QUEUED_OPS.has(op));
	});

	function hanging(): (request: { init: RequestInit }) => Promise<Response> {
		return ({ init }) =>
			new Promise<Response>((_resolve, reject) => {
				init.signal?.addEventListener('abort', () =>
					reject(new DOMException('aborted', 'AbortError'))
				);
			});
	}

	it('timeout → TIMEOUT (retryable), using the default of 20 s', async () => {
		vi.useFakeTimers();
		const fake = fakeFetch(hanging());
		const transport = new Transport({ apiUrl: API, fetch: fake.fetch });
		const pending = caught(transport.call('getHeadlines'));
		await vi.advanceTimersByTimeAsync(19_999);
		expect(fake.requests).toHaveLength(1);
		await vi.advanceTimersByTimeAsync(1);
		expect(await pending).toMatchObject({ code: 'TIMEOUT', retryable: true });
	});

	it('a caller abort is ABORTED, not TIMEOUT', async () => {
		const fake = fakeFetch(hanging());
		const transport = new Transport({ apiUrl: API, fetch: fake.fetch, timeoutMs: 5_000 });
		const controller = new AbortController();
		const pending = caught(transport.call('getHeadlines', {}, { signal: controller.signal }));
		controller.abort();
		expect((await pending).code).toBe('ABORTED');
	});

	it('an already aborted signal sends nothing', async () => {
		const fake = fakeFetch(hanging());
		const transport = new Transport({ apiUrl: API, fetch: fake.fetch });
		const error = await caught(transport.call('x', {}, { signal: AbortSignal.abort() }));
		expect(error.code).toBe('ABORTED');
		expect(fake.requests).toHaveLength(0);
	});

	it('a body that stalls is cut by the timeout too', async () => {
		const fake = fakeFetch(({ init }) => {
			const stream = new ReadableStream<Uint8Array>({
				start(controller) {
					init.signal?.addEventListener('abort', () =>
						controller.error(new DOMException('aborted', 'AbortError'))
					);
				}
			});
			return new Response(stream);
		});
		const transport = new Transport({ apiUrl: API, fetch: fake.fetch, timeoutMs: 30 });
		expect((await caught(transport.call('getHeadlines'))).code).toBe('TIMEOUT');
	});
});

describe('reply size cap', () => {
	it('refuses a reply whose Content-Length is above the cap without reading it', async () => {
		let pulled = 0;
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				pulled++;
				controller.enqueue(new Uint8Array(1024));
			}
		});
		const { transport } = transportWith(
			() =>
				new Response(body, {
					headers: { 'Content-Length': String(MAX_REPLY_BYTES + 1) }
				})
		);
		const error = await caught(transport.call('getHeadlines'));
		expect(error).toMatchObject({ code: 'REPLY_TOO_LARGE', kind: 'protocol', retryable: false });
		expect(error.userMessage).toMatch(/too large/);
		expect(pulled).toBeLessThanOrEqual(1);
	});

	it('stops reading a body without a length once it passes the cap', async () => {
		const chunk = new Uint8Array(1024 * 1024).fill(32);
		let sent = 0;
		const { transport } = transportWith(
			() =>
				new Response(
					new ReadableStream<Uint8Array>({
						pull(controller) {
							sent += chunk.byteLength;
							controller.enqueue(chunk);
						}
					})
				)
		);
		expect((await caught(transport.call('getHeadlines'))).code).toBe('REPLY_TOO_LARGE');
		// It cancelled the endless body a few chunks after the cap (the stream reads ahead).
		expect(sent).toBeGreaterThan(MAX_REPLY_BYTES);
		expect(sent).toBeLessThan(MAX_REPLY_BYTES + 8 * chunk.byteLength);
	});

	it('reads a reply just under the cap', async () => {
		const padding = ' '.repeat(MAX_REPLY_BYTES - 64);
		const { transport } = transportWith(
			() => new Response(`{"seq":1,"status":0,"content":{"v":1}}${padding}`)
		);
		await expect(transport.call('getVersion')).resolves.toEqual({ v: 1 });
	});

	it('caps binary replies (getFeedIcon) too', async () => {
		const { transport } = transportWith(
			() =>
				new Response(new Uint8Array(MAX_REPLY_BYTES + 1), {
					headers: { 'Content-Type': 'image/png' }
				})
		);
		expect((await caught(transport.callBinary('getFeedIcon', { id: '1' }))).code).toBe(
			'REPLY_TOO_LARGE'
		);
	});
});

describe('unwrap', () => {
	it('never puts the reply text into the message', () => {
		try {
			unwrap('login', 'session secret-sid-123 <html>', 1, 'login');
		} catch (error) {
			expect(String((error as ApiError).message)).not.toContain('secret-sid-123');
			expect((error as ApiError).userMessage).not.toContain('secret-sid-123');
		}
	});
});
