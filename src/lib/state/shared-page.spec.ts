import { describe, expect, it } from 'vitest';
import { sharedPageFrom } from './shared-page';

describe('sharedPageFrom', () => {
	it('takes title, url and text as shared', () => {
		expect(
			sharedPageFrom(new URLSearchParams('title=A&url=https%3A%2F%2Fa.test%2Fx&text=Hello'))
		).toEqual({ title: 'A', url: 'https://a.test/x', text: 'Hello' });
	});

	it('finds the link inside the text, as many apps send it', () => {
		expect(
			sharedPageFrom(new URLSearchParams('text=Look+at+this+https%3A%2F%2Fa.test%2Fy'))
		).toEqual({ title: 'https://a.test/y', url: 'https://a.test/y', text: 'Look at this' });
	});

	it('never accepts a script or data URL', () => {
		const shared = sharedPageFrom(new URLSearchParams('url=javascript%3Aalert(1)&text=data:x'));
		expect(shared.url).toBe('');
	});
});
