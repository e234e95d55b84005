import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedInPage } from '$lib/state/testing/recorded-server';

/** The server's configuration the sync keeps (state.ts `config`) is what the tree uses offline. */

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('the configuration a sync kept', () => {
	it('gives the tree its feed icons while the server cannot be reached', async () => {
		const { session } = await signedInPage({
			getFeedTree: 'getFeedTree',
			getCounters: 'getCounters',
			getConfig: 'getConfig'
		});
		const { saveSyncState, EMPTY_STATE } = await import('./state');
		await saveSyncState(session.account ?? '', {
			...EMPTY_STATE,
			config: {
				iconsDir: 'feed-icons',
				iconsUrl: 'feed-icons',
				daemonIsRunning: false,
				numFeeds: 7,
				customSortTypes: { 'title DESC': 'Title, Z first' }
			}
		});
		vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
		const { treeState } = await import('$lib/state/tree.svelte');
		await treeState.load();
		expect(treeState.error).toMatch(/./);
		expect(treeState.iconUrl(3)).toMatch(/\/feed-icons\/3\.ico$/);
		expect(treeState.config?.customSortTypes).toEqual({ 'title DESC': 'Title, Z first' });
	});
});
