import { describe, expect, it } from 'vitest';
import { StorageFullError } from '$lib/offline/storage';
import {
	clientError,
	noWayToServer,
	readerText,
	RefusedError,
	serverError,
	serverUnreachable
} from './errors';

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
