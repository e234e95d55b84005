import { describe, expect, it } from 'vitest';
import { feedIconUrl } from './feed-icons';

describe('feedIconUrl', () => {
	it('2021 servers: a folder below tt-rss (getConfig icons_url "feed-icons")', () => {
		expect(feedIconUrl('feed-icons', '/tt-rss/api/', 6)).toBe('/tt-rss/feed-icons/6.ico');
		expect(feedIconUrl('feed-icons/', '/tt-rss/api', 6)).toBe('/tt-rss/feed-icons/6.ico');
	});

	it('an absolute folder is kept', () => {
		expect(feedIconUrl('/icons', '/tt-rss/api/', 2)).toBe('/icons/2.ico');
		expect(feedIconUrl('https://cdn.example/icons/', '/tt-rss/api/', 2)).toBe(
			'https://cdn.example/icons/2.ico'
		);
	});

	it('current servers: public.php on the API’s own origin, whatever host the server names', () => {
		// As the current tt-rss sends it behind a proxy: its own SELF_URL_PATH.
		expect(feedIconUrl('http://ttrss.internal:8280/tt-rss/public.php', '/tt-rss/api/', 3)).toBe(
			'/tt-rss/public.php?op=feed_icon&id=3'
		);
		expect(feedIconUrl('public.php', '/api/', 3)).toBe('/public.php?op=feed_icon&id=3');
	});

	it('no icon for special feeds, labels or an empty setting', () => {
		expect(feedIconUrl('feed-icons', '/tt-rss/api/', 0)).toBeUndefined();
		expect(feedIconUrl('feed-icons', '/tt-rss/api/', -1026)).toBeUndefined();
		expect(feedIconUrl('', '/tt-rss/api/', 3)).toBeUndefined();
	});
});
