/**
 * Reader preferences that must apply before anything else paints (theme, text size), so they live
 * in localStorage (synchronous) rather than IndexedDB. They are not secrets.
 */
import type { ViewMode as ApiViewMode } from '$lib/api';
import { StoredValues } from './stored.svelte';
import { parseStoredObject } from './local-json';

export type Theme = 'system' | 'light' | 'dark' | 'black' | 'sepia';
/** How much a headline row shows: one line, + its excerpt, + its image (a card). */
export type Density = 'compact' | 'comfortable' | 'cards';
/** The article text's family: the system's serif or its sans serif. */
export type ReadingFont = 'serif' | 'sans';
/** How an unread count is shown in the tree and a list's head: a number, a dot, or not at all. */
export type UnreadDisplay = 'count' | 'dot' | 'none';
/** What a list shows: every one of the API's view modes (state/feed-prefs.svelte.ts per list). */
export type ViewMode = ApiViewMode;
export type SortOrder = 'default' | 'date_reverse' | 'feed_dates' | (string & {});

export interface SettingsValues {
	theme: Theme;
	/** Article text size in percent of the default. */
	textSize: number;
	hideEmpty: boolean;
	markReadOnScroll: boolean;
	/** Opening an article leaves it unread (tt-rss's reader marks it read; so does this by default). */
	keepUnreadOnOpen: boolean;
	/** The default of lists without a view mode or order of their own. */
	viewMode: ViewMode;
	sortOrder: SortOrder;
	/** How many unread articles "Make available offline" downloads. */
	offlineArticles: number;
	/** Enclosure playback speed (media/ player), kept for the next episode. */
	playbackRate: number;
	/** Mark an article read when its enclosure has played to the end. */
	markReadWhenPlayed: boolean;
	/** The same story from several feeds is shown once in a list (dedupe/dedupe.ts). */
	collapseDuplicates: boolean;
	/** The headline rows' density (HeadlineRow.svelte, the list's row height). */
	density: Density;
	/** Article typography (Settings; applied by `readingVars` to the article body). */
	readingFont: ReadingFont;
	/** The article text's line height, a unitless factor. */
	lineHeight: number;
	/** The article text's line length at most, in characters (`ch`). */
	measure: number;
	unreadDisplay: UnreadDisplay;
}

export const DEFAULT_SETTINGS: SettingsValues = {
	theme: 'system',
	textSize: 100,
	hideEmpty: false,
	markReadOnScroll: false,
	keepUnreadOnOpen: false,
	viewMode: 'adaptive',
	sortOrder: 'default',
	offlineArticles: 500,
	playbackRate: 1,
	markReadWhenPlayed: true,
	collapseDuplicates: true,
	density: 'comfortable',
	readingFont: 'serif',
	lineHeight: 1.6,
	measure: 70,
	unreadDisplay: 'count'
};

/**
 * The article body's typography as CSS custom properties (set on the document's root by the root
 * layout, read by ArticleContent.svelte): one place turns the settings into CSS.
 */
export function readingVars(
	values: Pick<SettingsValues, 'textSize' | 'readingFont' | 'lineHeight' | 'measure'>
): Record<string, string> {
	return {
		'--text-size': `${values.textSize}%`,
		'--font-reading': values.readingFont === 'sans' ? 'var(--font)' : 'var(--font-serif)',
		'--reading-leading': String(values.lineHeight),
		'--reading-measure': `${values.measure}ch`
	};
}

const STORAGE_KEY = 'reader.settings';
const THEMES: readonly Theme[] = ['system', 'light', 'dark', 'black', 'sepia'];
const DENSITIES: readonly Density[] = ['compact', 'comfortable', 'cards'];
const UNREAD_DISPLAYS: readonly UnreadDisplay[] = ['count', 'dot', 'none'];
const VIEW_MODES: readonly ViewMode[] = [
	'all_articles',
	'unread',
	'adaptive',
	'marked',
	'updated',
	'published',
	'has_note'
];

/** localStorage is outside input too: keep only values of the right type and range. */
export function parseSettings(raw: string | null): SettingsValues {
	// A broken value means defaults, never a broken app.
	const stored = parseStoredObject(raw) ?? {};
	const pick = <T>(key: keyof SettingsValues, ok: (v: unknown) => v is T): T =>
		ok(stored[key]) ? stored[key] : (DEFAULT_SETTINGS[key] as T);
	const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
	return {
		theme: pick('theme', (v): v is Theme => THEMES.includes(v as Theme)),
		textSize: pick(
			'textSize',
			(v): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 70 && v <= 200
		),
		hideEmpty: pick('hideEmpty', isBool),
		markReadOnScroll: pick('markReadOnScroll', isBool),
		keepUnreadOnOpen: pick('keepUnreadOnOpen', isBool),
		viewMode: pick('viewMode', (v): v is ViewMode => VIEW_MODES.includes(v as ViewMode)),
		sortOrder: pick('sortOrder', (v): v is SortOrder => typeof v === 'string' && v.length < 64),
		offlineArticles: pick(
			'offlineArticles',
			(v): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 5000
		),
		playbackRate: pick(
			'playbackRate',
			(v): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0.5 && v <= 3
		),
		markReadWhenPlayed: pick('markReadWhenPlayed', isBool),
		collapseDuplicates: pick('collapseDuplicates', isBool),
		density: pick('density', (v): v is Density => DENSITIES.includes(v as Density)),
		readingFont: pick('readingFont', (v): v is ReadingFont => v === 'serif' || v === 'sans'),
		lineHeight: pick(
			'lineHeight',
			(v): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 1.2 && v <= 2.2
		),
		measure: pick(
			'measure',
			(v): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 40 && v <= 70
		),
		unreadDisplay: pick('unreadDisplay', (v): v is UnreadDisplay =>
			UNREAD_DISPLAYS.includes(v as UnreadDisplay)
		)
	};
}

class Settings extends StoredValues<SettingsValues> {
	constructor() {
		super(STORAGE_KEY, parseSettings, DEFAULT_SETTINGS);
	}
}

export const settings = new Settings();
