import { describe, expect, it } from 'vitest';
import { alertTarget } from './target';

describe('alert target', () => {
	it('an article or a list of the app, inside the scope (a base path included)', () => {
		expect(alertTarget({ path: 'feed/4/123' }, 'http://app.example/reader/')).toBe(
			'http://app.example/reader/?to=/feed/4/123'
		);
		expect(alertTarget({ path: 'feed/-4' }, 'http://app.example/')).toBe(
			'http://app.example/?to=/feed/-4'
		);
		expect(alertTarget({ path: 'cat/3' }, 'http://app.example/')).toBe(
			'http://app.example/?to=/cat/3'
		);
		// A rule's list of what it matched (a rule alert of several articles).
		expect(alertTarget({ path: 'rule/r1732612345678' }, 'http://app.example/')).toBe(
			'http://app.example/?to=/rule/r1732612345678'
		);
	});

	it('refuses anything that could leave the app', () => {
		for (const path of [
			'//evil.example/x',
			'https://evil.example/',
			'../feed/1',
			'feed/1?x',
			'javascript:alert(1)',
			'login'
		])
			expect(alertTarget({ path }, 'http://app.example/')).toBeUndefined();
		expect(alertTarget(null, 'http://app.example/')).toBeUndefined();
		expect(alertTarget({ path: 4 }, 'http://app.example/')).toBeUndefined();
	});
});
