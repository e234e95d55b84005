import { describe, expect, it } from 'vitest';
import { feedAddressFrom, looksLikeFeed, sharedPageFrom } from './shared-page';

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

describe('feed links', () => {
	it('the address a web+feed: or feed: link stands for', () => {
		expect(feedAddressFrom('web+feed:https://example.org/feed.xml')).toBe(
			'https://example.org/feed.xml'
		);
		expect(feedAddressFrom(' web+feed:feed://example.org/rss ')).toBe('http://example.org/rss');
		expect(feedAddressFrom('feed:https://example.org/atom')).toBe('https://example.org/atom');
		expect(feedAddressFrom('FEED://example.org/a?b=1')).toBe('http://example.org/a?b=1');
		expect(feedAddressFrom('https://example.org/')).toBe('https://example.org/');
		expect(feedAddressFrom('javascript:alert(1)')).toBe('javascript:alert(1)');
	});

	it('a shared feed link fills the address as http(s)', () => {
		const shared = sharedPageFrom(new URLSearchParams({ url: 'feed://example.org/rss' }));
		expect(shared.url).toBe('http://example.org/rss');
	});

	it('guesses which shared addresses are feeds', () => {
		for (const url of [
			'https://example.org/feed.xml',
			'https://example.org/index.rss',
			'https://example.org/blog/feed/',
			'https://example.org/rss',
			'https://example.org/atom.xml',
			'https://example.org/?feed=rss2',
			'feed://example.org/blog',
			'web+feed:https://example.org/x'
		])
			expect(looksLikeFeed(url), url).toBe(true);
		for (const url of [
			'https://example.org/articles/feeding-birds',
			'https://example.org/',
			'https://example.org/news/2024/story.html',
			'not a url'
		])
			expect(looksLikeFeed(url), url).toBe(false);
	});
});
