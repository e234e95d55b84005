import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_LISTS, parseListPrefs } from './feed-prefs.svelte';

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
