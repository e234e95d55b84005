/**
 * Keyboard shortcuts in tt-rss's habits. Pure: the app layout maps each command to an action.
 */
import { isTyping } from './typing';
import type { PlainKey } from '$lib/i18n/m';

export { isTyping };

export type Command =
	| 'nextArticle'
	| 'previousArticle'
	| 'nextFeed'
	| 'previousFeed'
	| 'toggleStar'
	| 'togglePublished'
	| 'toggleRead'
	| 'openOriginal'
	| 'refresh'
	| 'search'
	| 'closeArticle'
	| 'markAboveRead'
	| 'markBelowRead'
	| 'toggleSelect'
	| 'undo'
	| 'help';

export interface Shortcut {
	/** As shown to the reader. */
	keys: string[];
	command: Command;
	/** What it does, as the help says it (a later-module key: ShortcutHelp waits for those). */
	message: PlainKey;
}

export const SHORTCUTS: readonly Shortcut[] = [
	{ keys: ['j', 'n'], command: 'nextArticle', message: 'shortcuts_next_article' },
	{ keys: ['k', 'p'], command: 'previousArticle', message: 'shortcuts_previous_article' },
	{ keys: ['Shift+J'], command: 'nextFeed', message: 'shortcuts_next_feed' },
	{ keys: ['Shift+K'], command: 'previousFeed', message: 'shortcuts_previous_feed' },
	{ keys: ['s'], command: 'toggleStar', message: 'shortcuts_star' },
	{
		keys: ['Shift+P'],
		command: 'togglePublished',
		message: 'shortcuts_publish'
	},
	{ keys: ['u'], command: 'toggleRead', message: 'shortcuts_read' },
	{ keys: ['o', 'v'], command: 'openOriginal', message: 'shortcuts_open_original' },
	{ keys: ['r'], command: 'refresh', message: 'shortcuts_refresh' },
	{ keys: ['/'], command: 'search', message: 'shortcuts_search' },
	{
		keys: ['Escape'],
		command: 'closeArticle',
		message: 'shortcuts_close'
	},
	{
		keys: ['Shift+ArrowUp'],
		command: 'markAboveRead',
		message: 'shortcuts_above_read'
	},
	{
		keys: ['Shift+ArrowDown'],
		command: 'markBelowRead',
		message: 'shortcuts_below_read'
	},
	{
		keys: ['x'],
		command: 'toggleSelect',
		message: 'shortcuts_select'
	},
	{
		// Taken by the toast that offers it (Toasts.svelte), which also takes Ctrl+Z and ⌘Z.
		keys: ['z'],
		command: 'undo',
		message: 'shortcuts_undo'
	},
	{ keys: ['?'], command: 'help', message: 'shortcuts_help' }
];

const BY_KEY: ReadonlyMap<string, Command> = new Map(
	SHORTCUTS.flatMap((s) => s.keys.map((k) => [k, s.command] as const))
);

/** The command a key press means, or undefined (modifiers other than Shift never are). */
export function commandFor(event: KeyboardEvent): Command | undefined {
	if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return undefined;
	if (isTyping(event.target)) return undefined;
	const key = event.key;
	if (key.length === 1 && /[A-Z]/.test(key) && event.shiftKey) return BY_KEY.get(`Shift+${key}`);
	// Named keys (arrows) with Shift are their own shortcuts, as tt-rss's Shift+↑/↓.
	if (key.length > 1 && event.shiftKey) return BY_KEY.get(`Shift+${key}`) ?? BY_KEY.get(key);
	return BY_KEY.get(key);
}
