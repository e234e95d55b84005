/**
 * The view mode and order the reader chose in one feed, category or tag, kept for that list as
 * tt-rss keeps them per feed; a list without a choice of its own opens with the defaults in
 * settings. In localStorage, like settings, because the start's first list (hooks.client.ts) is
 * decided before IndexedDB answers. They are the signed-in account's: forgotten at sign-out and
 * when another account signs in (db/account-events.ts).
 */
import type { ListKind } from '../../params/kind';
import { m } from '$lib/i18n/m';
import {
	parseSettings,
	type SettingsValues,
	type SortOrder,
	type ViewMode
} from './settings.svelte';
import { safeUrl } from '$lib/content/url';
import { onAccountEvent } from '$lib/db/account-events';
import { parseStoredObject } from './local-json';

export interface ListPrefs {
	viewMode?: ViewMode;
	sortOrder?: SortOrder;
	/** A feed's articles open on their own site (a new tab) instead of in the app. */
	openOriginal?: boolean;
}

export type ListView = Pick<SettingsValues, 'viewMode' | 'sortOrder'>;

/** The view modes as the reader reads them, in the menus' order (toolbar and settings); each label
 * is read from the catalogs when shown, so it follows a change of language. */
export const VIEW_MODE_CHOICES: readonly { value: ViewMode; label: string }[] = [
	{
		value: 'adaptive',
		get label() {
			return m.view_adaptive();
		}
	},
	{
		value: 'all_articles',
		get label() {
			return m.view_all_articles();
		}
	},
	{
		value: 'unread',
		get label() {
			return m.view_unread();
		}
	},
	{
		value: 'marked',
		get label() {
			return m.view_starred();
		}
	},
	{
		value: 'published',
		get label() {
			return m.view_published();
		}
	},
	{
		value: 'has_note',
		get label() {
			return m.view_with_note();
		}
	},
	{
		value: 'updated',
		get label() {
			return m.view_updated();
		}
	}
];

/** The orders every server knows; newer ones add their own (`custom_sort_types`). */
export const BUILT_IN_ORDERS: readonly { value: string; label: string }[] = [
	{
		value: 'default',
		get label() {
			return m.sort_default();
		}
	},
	{
		value: 'date_reverse',
		get label() {
			return m.sort_oldest_first();
		}
	},
	{
		value: 'feed_dates',
		get label() {
			return m.sort_feed_dates();
		}
	}
];

/** The view modes this server can show: "With a note" needs the notes headlines carry from level 8. */
export function viewModeChoices(
	noteInHeadlines: boolean | undefined
): readonly { value: ViewMode; label: string }[] {
	return VIEW_MODE_CHOICES.filter((m) => m.value !== 'has_note' || noteInHeadlines !== false);
}

/** The built-in orders, then the server's own (`custom_sort_types`) under their own names. */
export function orderChoices(
	custom: Record<string, string> | undefined
): { value: string; label: string }[] {
	return [
		...BUILT_IN_ORDERS,
		...Object.entries(custom ?? {})
			.filter(([value]) => !BUILT_IN_ORDERS.some((o) => o.value === value))
			.map(([value, label]) => ({ value, label }))
	];
}

const STORAGE_KEY = 'reader.listPrefs';
/** Enough for every feed of a large account; the oldest choices go first beyond it. */
export const MAX_LISTS = 1000;

const listName = (kind: ListKind, id: string): string => `${kind}:${id}`;

/** localStorage is outside input: each choice is checked by the settings' own rules. */
export function parseListPrefs(raw: string | null): Record<string, ListPrefs> {
	const stored = parseStoredObject(raw);
	if (!stored) return {};
	const lists: Record<string, ListPrefs> = {};
	for (const [name, value] of Object.entries(stored).slice(-MAX_LISTS)) {
		if (!/^(feed|cat|tag):/.test(name) || !value || typeof value !== 'object') continue;
		const given = value as Record<string, unknown>;
		// A value the settings would not accept comes back as the default: keep only valid ones.
		const checked = parseSettings(JSON.stringify(given));
		const prefs: ListPrefs = {};
		if (given.viewMode !== undefined && checked.viewMode === given.viewMode)
			prefs.viewMode = checked.viewMode;
		if (given.sortOrder !== undefined && checked.sortOrder === given.sortOrder)
			prefs.sortOrder = checked.sortOrder;
		if (given.openOriginal === true && name.startsWith('feed:')) prefs.openOriginal = true;
		if (Object.keys(prefs).length > 0) lists[name] = prefs;
	}
	return lists;
}

/**
 * Where opening an article goes: its own site (a new tab) when its feed says so and its link is
 * one the app would follow, else the app. Either way the open marks it read, unless the reader
 * keeps opened articles unread (settings) — one rule for both ways.
 */
export function openDecision(
	article: { feedId: number | null; link: string },
	own: ListPrefs,
	keepUnreadOnOpen: boolean
): { original: string | undefined; markRead: boolean } {
	const original =
		own.openOriginal && article.feedId !== null ? safeUrl(article.link, 'link') : undefined;
	return {
		original: original && /^https?:/.test(original) ? original : undefined,
		markRead: !keepUnreadOnOpen
	};
}

class FeedPrefs {
	#lists = $state.raw<Record<string, ListPrefs>>({});

	constructor() {
		if (typeof localStorage !== 'undefined') {
			this.#lists = parseListPrefs(localStorage.getItem(STORAGE_KEY));
		}
	}

	/** The list's own choices (none when it follows the defaults). */
	of(kind: ListKind, id: string): ListPrefs {
		return this.#lists[listName(kind, id)] ?? {};
	}

	/** What a list opens with: its own choices over the reader's defaults. */
	viewOf(kind: ListKind, id: string, defaults: ListView): ListView {
		const own = this.of(kind, id);
		return {
			viewMode: own.viewMode ?? defaults.viewMode,
			sortOrder: own.sortOrder ?? defaults.sortOrder
		};
	}

	set(kind: ListKind, id: string, patch: ListPrefs): void {
		const name = listName(kind, id);
		const { [name]: old, ...others } = this.#lists;
		// Re-inserted last: the most recent choice is the last to go when the list is full.
		this.#lists = parseListPrefs(JSON.stringify({ ...others, [name]: { ...old, ...patch } }));
		try {
			localStorage.setItem(STORAGE_KEY, JSON.stringify(this.#lists));
		} catch {
			// Storage refused or full: the choice holds for this visit.
		}
	}

	/** Sign-out, another account, tests. */
	reset(): void {
		this.#lists = {};
		try {
			localStorage.removeItem(STORAGE_KEY);
		} catch {
			// Nothing was kept.
		}
	}
}

export const feedPrefs = new FeedPrefs();
// Each list's view mode and order were the account's choices.
onAccountEvent(() => feedPrefs.reset());
