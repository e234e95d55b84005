import { describe, expect, it } from 'vitest';
import { loadAllWith } from '$lib/i18n/m';
import { StorageFullError } from '$lib/offline/storage';
import { clientError, serverError } from './error-make';
import {
	failWithWords,
	isApiError,
	noWayToServer,
	readerText,
	RefusedError,
	serverUnreachable
} from './errors';
import { Transport } from './transport';

describe('readerText, the one way from a failure to the words a reader sees', () => {
	it('says the failure’s own words when the reader can act on them, else the screen’s fallback', () => {
		expect(readerText(clientError('getHeadlines', 'NETWORK'), 'x')).toBe(
			clientError('getHeadlines', 'NETWORK').userMessage
		);
		expect(readerText(new RefusedError('Reload the page.'), 'x')).toBe('Reload the page.');
		expect(readerText(new Error('a bug'), 'fallback')).toBe('fallback');
	});

	it('says that the device is full rather than "try again"', () => {
		const full = new StorageFullError(new DOMException('quota', 'QuotaExceededError'));
		expect(full.name).toBe('StorageFullError');
		expect(readerText(full, 'The change could not be saved.')).toContain('no room left');
	});
});

describe('an unreachable server, classified once', () => {
	it('no way to it: nothing reached the server', () => {
		for (const code of ['NETWORK', 'OFFLINE', 'ABORTED'])
			expect(noWayToServer(clientError('x', code as 'NETWORK')), code).toBe(true);
		for (const code of ['TIMEOUT', 'HTTP_STATUS', 'HTML_REPLY'])
			expect(noWayToServer(clientError('x', code as 'NETWORK')), code).toBe(false);
		expect(noWayToServer(new Error('NETWORK'))).toBe(false);
	});

	it('unreachable: no way to it, or something else answered in its place', () => {
		for (const code of [
			'NETWORK',
			'OFFLINE',
			'TIMEOUT',
			'HTTP_STATUS',
			'HTML_REPLY',
			'EMPTY_REPLY'
		])
			expect(serverUnreachable(clientError('x', code as 'NETWORK')), code).toBe(true);
		expect(serverUnreachable(clientError('x', 'ABORTED'))).toBe(false);
		expect(serverUnreachable(serverError('x', 'E_OPERATION_FAILED', 'call'))).toBe(false);
	});
});

describe('an API error waits for its words (they are in the locale’s later module)', () => {
	it('reaches the caller only once the later words are in, and speaks then', async () => {
		let loaded!: () => void;
		let asked = 0;
		const later = new Promise<void>((resolve) => (loaded = resolve));
		loadAllWith(() => {
			asked += 1;
			return later;
		});
		try {
			const transport = new Transport({
				apiUrl: 'http://localhost/api/',
				fetch: () => Promise.reject(new TypeError('Failed to fetch'))
			});
			let settled = false;
			const call = transport.call('getCounters').finally(() => (settled = true));
			call.catch(() => undefined);
			// Many turns of the event loop: still waiting for the words.
			for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0));
			expect(asked).toBe(1);
			expect(settled).toBe(false);
			loaded();
			const error: unknown = await call.catch((caught: unknown) => caught);
			expect(isApiError(error) && error.code).toBe('NETWORK');
			expect(readerText(error, 'fallback')).toBe(clientError('x', 'NETWORK').userMessage);
		} finally {
			loadAllWith(() => undefined);
		}
	});

	it('still fails when the words cannot be fetched', async () => {
		loadAllWith(() => Promise.reject(new Error('no such chunk')));
		try {
			await expect(failWithWords(clientError('x', 'TIMEOUT'))).rejects.toMatchObject({
				code: 'TIMEOUT'
			});
		} finally {
			loadAllWith(() => undefined);
		}
	});
});
