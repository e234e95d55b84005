import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_LISTS, openDecision, parseListPrefs } from './feed-prefs.svelte';

const DEFAULTS = { viewMode: 'adaptive', sortOrder: 'default' } as const;

function memoryStorage(): Storage {
	const data = new Map<string, string>();
	return {
		get length() {
			return data.size;
		},
		clear: () => data.clear(),
		getItem: (k) => data.get(k) ?? null,
		key: (i) => [...data.keys()][i] ?? null,
		removeItem: (k) => void data.delete(k),
		setItem: (k, v) => void data.set(k, String(v))
	};
}

async function freshPrefs() {
	vi.resetModules();
	return (await import('./feed-prefs.svelte')).feedPrefs;
}

beforeEach(() => {
	vi.stubGlobal('localStorage', memoryStorage());
});

describe('feedPrefs', () => {
	it('keeps a view mode and an order per list; other lists follow the defaults', async () => {
		const prefs = await freshPrefs();
		prefs.set('feed', '3', { viewMode: 'published' });
		prefs.set('feed', '3', { sortOrder: 'date_reverse' });
		prefs.set('cat', '3', { viewMode: 'has_note' });
		expect(prefs.viewOf('feed', '3', DEFAULTS)).toEqual({
			viewMode: 'published',
			sortOrder: 'date_reverse'
		});
		expect(prefs.viewOf('cat', '3', DEFAULTS)).toEqual({
			viewMode: 'has_note',
			sortOrder: 'default'
		});
		expect(prefs.viewOf('feed', '4', DEFAULTS)).toEqual(DEFAULTS);
	});

	it('survives a reload, and is gone after reset (sign-out, another account)', async () => {
		(await freshPrefs()).set('tag', 'web', { viewMode: 'unread' });
		const reloaded = await freshPrefs();
		expect(reloaded.of('tag', 'web')).toEqual({ viewMode: 'unread' });
		reloaded.reset();
		expect(reloaded.of('tag', 'web')).toEqual({});
		expect((await freshPrefs()).of('tag', 'web')).toEqual({});
	});
});

describe('parseListPrefs', () => {
	it('drops broken, hostile or unknown values', () => {
		expect(parseListPrefs(null)).toEqual({});
		expect(parseListPrefs('not json')).toEqual({});
		expect(parseListPrefs('[1]')).toEqual({});
		expect(
			parseListPrefs(
				JSON.stringify({
					'feed:1': { viewMode: 'everything', sortOrder: 'x'.repeat(100) },
					'feed:2': { viewMode: 'marked', sortOrder: 7 },
					'other:3': { viewMode: 'unread' },
					'cat:4': 'unread'
				})
			)
		).toEqual({ 'feed:2': { viewMode: 'marked' } });
	});

	it('keeps the most recent choices when there are too many', () => {
		const many = Object.fromEntries(
			Array.from({ length: MAX_LISTS + 5 }, (_, i) => [`feed:${i}`, { viewMode: 'unread' }])
		);
		const kept = parseListPrefs(JSON.stringify(many));
		expect(Object.keys(kept)).toHaveLength(MAX_LISTS);
		expect(kept['feed:0']).toBeUndefined();
		expect(kept[`feed:${MAX_LISTS + 4}`]).toEqual({ viewMode: 'unread' });
	});
});

describe('openOriginal (per feed, on the device)', () => {
	it('keeps only `true` on a feed; bad values and other lists fall back to the app', () => {
		expect(
			parseListPrefs(
				JSON.stringify({
					'feed:1': { openOriginal: true },
					'feed:2': { openOriginal: 'yes' },
					'feed:3': { openOriginal: 1, viewMode: 'unread' },
					'cat:4': { openOriginal: true },
					'feed:5': { openOriginal: false }
				})
			)
		).toEqual({ 'feed:1': { openOriginal: true }, 'feed:3': { viewMode: 'unread' } });
	});

	it('is kept, and turning it off forgets the feed', async () => {
		const prefs = await freshPrefs();
		prefs.set('feed', '7', { openOriginal: true });
		expect((await freshPrefs()).of('feed', '7')).toEqual({ openOriginal: true });
		prefs.set('feed', '7', { openOriginal: false });
		expect(prefs.of('feed', '7')).toEqual({});
		expect(localStorage.getItem('reader.listPrefs')).toBe('{}');
	});
});

describe('openDecision', () => {
	const article = { feedId: 1, link: 'https://example.test/a?id=1' };

	it('opens the site when the feed says so, and still marks read', () => {
		expect(openDecision(article, { openOriginal: true }, false)).toEqual({
			original: 'https://example.test/a?id=1',
			markRead: true
		});
	});

	it('opens in the app when the feed does not say so', () => {
		expect(openDecision(article, {}, false)).toEqual({ original: undefined, markRead: true });
	});

	it('never follows a link that is not http(s), nor one of no feed', () => {
		for (const link of ['javascript:alert(1)', 'mailto:a@b.test', '', 'not a url'])
			expect(openDecision({ feedId: 1, link }, { openOriginal: true }, false).original).toBe(
				undefined
			);
		expect(openDecision({ ...article, feedId: null }, { openOriginal: true }, false).original).toBe(
			undefined
		);
	});

	it('keeps the article unread when the reader keeps opened articles unread', () => {
		expect(openDecision(article, { openOriginal: true }, true).markRead).toBe(false);
	});
});
