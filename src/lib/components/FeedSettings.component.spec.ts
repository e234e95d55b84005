/**
 * One feed's settings sheet (FeedSettings.svelte) in jsdom over fake-indexeddb: what it reads when
 * it opens (the feed's alert rule, its health from the server) and where each choice is kept (the
 * feed's own view, order and "open on the site", the alerts' feed rule). jsdom's <dialog> has no
 * showModal: `dialogsInJsdom` gives it the two methods the sheet uses.
 */
import { flushSync } from 'svelte';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Capabilities } from '$lib/api';
import { addAlertRule, loadAlertSettings } from '$lib/alerts/rules';
import { feedHealthSummary, type FeedHealthFacts } from '$lib/format/feed-health';
import { feedPrefs } from '$lib/state/feed-prefs.svelte';
import { session } from '$lib/state/session.svelte';
import FeedSettings from './FeedSettings.svelte';
import { dialogsInJsdom, freshTarget, show } from '$support/mounted';

const admin = vi.hoisted(() => ({
	feedHealth: vi.fn<(feedId: number, options: { always: boolean }) => Promise<FeedHealthFacts>>()
}));
vi.mock('$lib/state/feed-admin', () => admin);

const ACCOUNT = 'reader@feeds.test';
const HEALTHY: FeedHealthFacts = { error: '', lastTried: 1_790_000_000 };
let target: HTMLElement;

beforeAll(dialogsInJsdom);
beforeEach(() => {
	localStorage.clear();
	feedPrefs.reset();
	vi.restoreAllMocks();
	admin.feedHealth.mockReset().mockResolvedValue(HEALTHY);
	vi.spyOn(session, 'signedIn', 'get').mockReturnValue(true);
	vi.spyOn(session, 'account', 'get').mockReturnValue(ACCOUNT);
	target = freshTarget();
});

function showSheet(orderBy = true): void {
	vi.spyOn(session, 'capabilities', 'get').mockReturnValue({
		orderBy,
		noteInHeadlines: true
	} as unknown as Capabilities);
	show(FeedSettings, target, { open: true, feedId: 12, title: 'Tech news' });
}

const select = (index: number): HTMLSelectElement => {
	const found = target.querySelectorAll('select')[index];
	if (!found) throw new Error(`no select #${index}`);
	return found;
};
const box = (describedBy: string): HTMLInputElement => {
	const found = target.querySelector<HTMLInputElement>(`input[aria-describedby="${describedBy}"]`);
	if (!found) throw new Error(`no box ${describedBy}`);
	return found;
};
function choose(element: HTMLSelectElement | HTMLInputElement, value?: string): void {
	if (element instanceof HTMLSelectElement && value !== undefined) element.value = value;
	if (element instanceof HTMLInputElement) element.checked = !element.checked;
	element.dispatchEvent(new Event('change', { bubbles: true }));
	flushSync();
}

describe('FeedSettings', () => {
	it('opens with the feed’s alert as kept and its health as the server tells it', async () => {
		await addAlertRule(ACCOUNT, { id: 'feed:12', kind: 'feed', feedId: 12, title: 'Tech news' });
		showSheet();
		expect(target.querySelector('dialog')?.open).toBe(true);
		expect(admin.feedHealth).toHaveBeenCalledWith(12, { always: true });
		await vi.waitFor(() => {
			flushSync();
			expect(box('feed-settings-alert-hint').checked).toBe(true);
			expect(
				target.querySelector('[data-testid="feed-settings-health"]')?.textContent?.trim()
			).toBe(feedHealthSummary(HEALTHY).join(''));
		});
	});

	it('keeps the view, the order and "open on the site" for this feed only', () => {
		showSheet();
		choose(select(0), 'marked');
		choose(select(1), 'date_reverse');
		choose(box('feed-settings-original-hint'));
		expect(feedPrefs.of('feed', '12')).toEqual({
			viewMode: 'marked',
			sortOrder: 'date_reverse',
			openOriginal: true
		});
		expect(feedPrefs.of('feed', '13')).toEqual({});
		expect(select(0).value).toBe('marked');
	});

	it('offers no order where the server cannot sort', () => {
		showSheet(false);
		expect(target.querySelectorAll('select')).toHaveLength(1);
	});

	it('the alert box adds the feed’s alert rule, and takes it away again', async () => {
		showSheet();
		await vi.waitFor(() => expect(admin.feedHealth).toHaveBeenCalled());
		choose(box('feed-settings-alert-hint'));
		await vi.waitFor(async () => {
			expect((await loadAlertSettings(ACCOUNT)).rules).toEqual([
				{ id: 'feed:12', kind: 'feed', feedId: 12, title: 'Tech news' }
			]);
		});
		choose(box('feed-settings-alert-hint'));
		await vi.waitFor(async () => {
			expect((await loadAlertSettings(ACCOUNT)).rules).toEqual([]);
		});
		flushSync();
		expect(box('feed-settings-alert-hint').checked).toBe(false);
	});
});
