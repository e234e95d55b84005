import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '$lib/api/parse';
import { recordedContent, recordedLevels } from '$support/fake-fetch';
import { signedInPage } from '$support/recorded-server';

/** The server's configuration the sync keeps (state.ts `config`) is what the tree uses offline. */

afterEach(() => {
	vi.unstubAllGlobals();
});

/** Where each server's recorded getConfig puts feed 3's icon. */
const ICON_OF_FEED_3 = {
	api15: /\/feed-icons\/3\.ico$/,
	api23: /\/public\.php\?op=feed_icon&id=3$/
} as const;

describe.each(recordedLevels)('the configuration a sync kept (recorded %s)', (level) => {
	it('gives the tree its feed icons while the server cannot be reached', async () => {
		const { session } = await signedInPage(
			{ getFeedTree: 'getFeedTree', getCounters: 'getCounters', getConfig: 'getConfig' },
			level
		);
		const { saveSyncState, EMPTY_STATE } = await import('./state');
		await saveSyncState(session.account ?? '', {
			...EMPTY_STATE,
			config: {
				...parseConfig(recordedContent(level, 'getConfig')),
				customSortTypes: { 'title DESC': 'Title, Z first' }
			}
		});
		vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
		const { treeState } = await import('$lib/state/tree.svelte');
		await treeState.load();
		expect(treeState.error).toMatch(/./);
		expect(treeState.iconUrl(3)).toMatch(ICON_OF_FEED_3[level]);
		expect(treeState.config?.customSortTypes).toEqual({ 'title DESC': 'Title, Z first' });
	});
});
