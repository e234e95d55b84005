import { describe, expect, it } from 'vitest';
import { appAddress, pathFromQuery } from './address';

describe('addresses that open anywhere', () => {
	it('name the screen in a query of the folder, which every server answers with the app', () => {
		expect(appAddress('/feed/6/123', '')).toBe('/?to=/feed/6/123');
		expect(appAddress('/feed/6/123', '/tt-rss/plugins.local/reader')).toBe(
			'/tt-rss/plugins.local/reader/?to=/feed/6/123'
		);
		expect(appAddress('feed/-4', '/reader')).toBe('/reader/?to=/feed/-4');
		// A screen's own query rides along beside `to`.
		expect(appAddress('/subscribe?url=https://x.test/f.xml', '')).toBe(
			'/?to=/subscribe&url=https%3A//x.test/f.xml'
		);
	});

	it('the start reads them back as the screen they name, its query kept', () => {
		for (const path of [
			'/feed/6/123',
			'/cat/3',
			'/rule/r17',
			'/settings/subscriptions',
			'/login'
		]) {
			const at = new URL(appAddress(path, '/r'), 'http://app.test');
			expect(pathFromQuery(at.pathname.slice('/r'.length), at.search)).toBe(path);
		}
		const sub = new URL(
			appAddress('/subscribe?url=web%2Bfeed%3Ahttp%3A%2F%2Ff.test%2F', ''),
			'http://a'
		);
		expect(pathFromQuery(sub.pathname, sub.search)).toBe(
			'/subscribe?url=web%2Bfeed%3Ahttp%3A%2F%2Ff.test%2F'
		);
		// A share opened at the folder (the share target's keys) is the share screen.
		expect(pathFromQuery('/', '?text=look+https%3A%2F%2Fx.test%2F')).toBe(
			'/share?text=look+https%3A%2F%2Fx.test%2F'
		);
	});

	it('leaves every other start alone, and never leaves the app', () => {
		expect(pathFromQuery('/', '')).toBeUndefined();
		expect(pathFromQuery('/', '?x=1')).toBeUndefined();
		// Only the folder itself reads `to`: a deep path is already the screen.
		expect(pathFromQuery('/feed/1', '?to=/feed/2')).toBeUndefined();
		for (const to of [
			'//evil.test/x',
			'/\\evil.test',
			'https://evil.test/',
			'feed/1',
			'/../x',
			'/',
			'/a b'
		])
			expect(pathFromQuery('/', `?${new URLSearchParams({ to }).toString()}`), to).toBeUndefined();
	});
});
